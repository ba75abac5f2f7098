import { useLayoutEffect, useRef } from 'react';

/**
 * A card that arrives is scrolled into view, and takes focus only when nothing has it (never from a
 * field the person is typing in). A card answered with focus inside gives it to the next card, or to
 * the view, instead of dropping it to the page.
 */
export function useComesIntoView() {
  const card = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const element = card.current;
    if (!element) return;
    element.scrollIntoView({ block: 'nearest' });
    if (document.activeElement === null || document.activeElement === document.body)
      element.focus({ preventScroll: true });
    return () => {
      if (!element.contains(document.activeElement)) return;
      const neighbours = [element.nextElementSibling, element.previousElementSibling];
      requestAnimationFrame(() => {
        const next = neighbours.find(
          (candidate) => candidate instanceof HTMLElement && candidate.isConnected,
        );
        ((next as HTMLElement | undefined) ?? document.getElementById('main'))?.focus({
          preventScroll: true,
        });
      });
    };
  }, []);
  return card;
}
