import type { FileAccessPreview, IpcError } from '../../../../engine/api';
import { useQuery } from '../../server-state/use-query';

export type EntryPreview = FileAccessPreview['previews'][number];

export type PathsPreview =
  | { status: 'pending' }
  | { status: 'failed'; error: IpcError }
  | { status: 'ready'; previews: EntryPreview[]; allOk: boolean };

/** Where each path is asked for once the user stops typing for this long. */
const TYPING_PAUSE_MS = 250;

/** A path as it is checked and saved: without the spaces around it. */
export const trimmedPath = (entry: string) => entry.trim();

/**
 * Where each path leads for this agent, as the sandbox will judge it as a grant to read or to write;
 * refreshed as the user types.
 */
export function useFileAccessPreview(
  agent: string,
  entries: string[],
  access: 'read' | 'write',
): PathsPreview {
  const { result } = useQuery(
    'agent.fileAccessPreview',
    { agent, entries: entries.map(trimmedPath), access },
    { delayMs: TYPING_PAUSE_MS },
  );
  if (entries.length === 0) return { status: 'ready', previews: [], allOk: true };
  if (!result) return { status: 'pending' };
  if (!result.ok) return { status: 'failed', error: result.error };
  const previews = result.value.previews;
  return { status: 'ready', previews, allOk: previews.every((preview) => preview.ok) };
}
