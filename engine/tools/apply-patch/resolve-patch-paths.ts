import type { Hunk, UpdateChunk } from './patch-hunks';

/** What the patch does at a path, for the sandbox to decide on. */
export type PatchPathUse = 'add' | 'update' | 'delete' | 'move_source' | 'move_destination';

export type PathResolution = { ok: true; path: string } | { ok: false; error: string };

/** Turns a path as written in the patch into the path to use, or refuses it. */
export type PatchPathResolver = (raw: string, use: PatchPathUse) => PathResolution | Promise<PathResolution>;

/** A path as the patch wrote it (for messages) and as resolved (for I/O). */
export interface PatchFile {
  shown: string;
  path: string;
}

export type ResolvedHunk =
  | { type: 'add'; file: PatchFile; contents: string }
  | { type: 'delete'; file: PatchFile }
  | { type: 'update'; file: PatchFile; moveTo: PatchFile | null; chunks: UpdateChunk[] };

export type ResolveOutcome = { ok: true; hunks: ResolvedHunk[] } | { ok: false; error: string };

/**
 * Sends every path of the patch, Move destinations included, through the resolver before anything is
 * read or written. The first refusal stops the whole patch; the error names the path as written.
 */
export async function resolvePatchPaths(
  hunks: readonly Hunk[],
  resolve: PatchPathResolver,
): Promise<ResolveOutcome> {
  const resolved: ResolvedHunk[] = [];
  for (const hunk of hunks) {
    const use: PatchPathUse =
      hunk.type === 'update' ? (hunk.movePath === null ? 'update' : 'move_source') : hunk.type;
    const file = await resolveOne(hunk.path, use, resolve);
    if (!file.ok) return file;
    if (hunk.type !== 'update') {
      resolved.push(
        hunk.type === 'add'
          ? { type: 'add', file: file.file, contents: hunk.contents }
          : { type: 'delete', file: file.file },
      );
      continue;
    }
    let moveTo: PatchFile | null = null;
    if (hunk.movePath !== null) {
      const destination = await resolveOne(hunk.movePath, 'move_destination', resolve);
      if (!destination.ok) return destination;
      moveTo = destination.file;
    }
    resolved.push({ type: 'update', file: file.file, moveTo, chunks: hunk.chunks });
  }
  return { ok: true, hunks: resolved };
}

async function resolveOne(
  raw: string,
  use: PatchPathUse,
  resolve: PatchPathResolver,
): Promise<{ ok: true; file: PatchFile } | { ok: false; error: string }> {
  const resolution = await resolve(raw, use);
  if (!resolution.ok) return { ok: false, error: `${raw}: ${resolution.error}` };
  return { ok: true, file: { shown: raw, path: resolution.path } };
}
