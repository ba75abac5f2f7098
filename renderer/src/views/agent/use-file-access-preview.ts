import { useCallback } from 'react';
import type { FileAccessPreview, IpcError } from '../../../../engine/api';
import { lemming } from '../../lemming';
import { useDebouncedCall } from './use-debounced-call';

export type EntryPreview = FileAccessPreview['previews'][number];

export type PathsPreview =
  | { status: 'pending' }
  | { status: 'failed'; error: IpcError }
  | { status: 'ready'; previews: EntryPreview[]; allOk: boolean };

/** Where each path leads for this agent, as the sandbox will judge it; refreshed as the user types. */
export function useFileAccessPreview(agent: string, entries: string[]): PathsPreview {
  const key = JSON.stringify(entries);
  const call = useCallback(
    (asked: string) => lemming().agent.fileAccessPreview({ agent, entries: JSON.parse(asked) as string[] }),
    [agent],
  );
  const answer = useDebouncedCall(key, call);
  if (entries.length === 0) return { status: 'ready', previews: [], allOk: true };
  if (!answer || answer.key !== key) return { status: 'pending' };
  if (!answer.value.ok) return { status: 'failed', error: answer.value.error };
  const previews = answer.value.value.previews;
  return { status: 'ready', previews, allOk: previews.every((preview) => preview.ok) };
}
