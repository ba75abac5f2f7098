import { useEffect, useState } from 'react';

const WAIT_MS = 250;

/**
 * The answer of `call(key)` for the latest key, asked once the key has been still for a moment; answers
 * to older keys are dropped. `call` must be stable per key (the caller memoizes it).
 */
export function useDebouncedCall<K, T>(key: K, call: (key: K) => Promise<T>): { key: K; value: T } | null {
  const [answer, setAnswer] = useState<{ key: K; value: T } | null>(null);
  useEffect(() => {
    let current = true;
    const timer = setTimeout(() => {
      void call(key).then((value) => {
        if (current) setAnswer({ key, value });
      });
    }, WAIT_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [key, call]);
  return answer;
}
