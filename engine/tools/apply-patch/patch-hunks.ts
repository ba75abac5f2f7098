import { z } from 'zod';

/** One line of an update chunk: ` ` context (kept), `-` removed, `+` added. */
export const ChunkLine = z.object({
  kind: z.enum(['context', 'remove', 'add']),
  text: z.string(),
});
export type ChunkLine = z.infer<typeof ChunkLine>;

export const UpdateChunk = z.object({
  /** `@@ <text>` anchors, in order; each is sought after the previous one. Empty for a bare `@@`. */
  contexts: z.array(z.string()),
  lines: z.array(ChunkLine),
  /** The chunk closed with `*** End of File`: its old lines must end the file. */
  endOfFile: z.boolean(),
});
export type UpdateChunk = z.infer<typeof UpdateChunk>;

/** A file section of a patch, with paths exactly as the patch wrote them (trimmed). */
export const Hunk = z.discriminatedUnion('type', [
  z.object({ type: z.literal('add'), path: z.string(), contents: z.string() }),
  z.object({ type: z.literal('delete'), path: z.string() }),
  z.object({
    type: z.literal('update'),
    path: z.string(),
    movePath: z.string().nullable(),
    chunks: z.array(UpdateChunk).min(1),
  }),
]);
export type Hunk = z.infer<typeof Hunk>;

export const oldLinesOf = (chunk: UpdateChunk): string[] =>
  chunk.lines.filter((line) => line.kind !== 'add').map((line) => line.text);
