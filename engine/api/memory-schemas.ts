import { z } from 'zod';
import { Problem } from './problem';

/** One key of an agent's memory as its memory file holds it. */
export const MemoryEntryView = z.object({
  key: z.string(),
  value: z.unknown(),
  /** When it was last written (the file's timestamp_utc); null when the file does not say. */
  updatedAt: z.string().nullable(),
  /** The tick it was last written in; null when the file does not say. */
  tick: z.int().nullable(),
});
export type MemoryEntryView = z.infer<typeof MemoryEntryView>;

/**
 * One change to a key, from the timeline: by the agent in a turn, by the person in the app, or found on
 * disk (a file changed outside the engine). `shows` says what `values` hold: the new value, the items an
 * append added, the objects a merge merged in, or nothing for a removal.
 */
export const MemoryChangeView = z.object({
  seq: z.int().positive(),
  tick: z.int().nullable(),
  time: z.string().nullable(),
  key: z.string(),
  by: z.enum(['agent', 'person', 'file']),
  shows: z.enum(['value', 'appended', 'merged', 'removed']),
  values: z.array(z.unknown()),
});
export type MemoryChangeView = z.infer<typeof MemoryChangeView>;

/** An agent's memory: every key with its value, unreadable files, and the newest changes first. */
export const AgentMemory = z.object({
  agent: z.string(),
  entries: z.array(MemoryEntryView),
  problems: z.array(Problem),
  history: z.array(MemoryChangeView),
  /** More changes are in the timeline than `history` holds. */
  moreHistory: z.boolean(),
});
export type AgentMemory = z.infer<typeof AgentMemory>;

/** The person sets one key of an agent's memory to a value (any JSON), or removes it. */
export const MemoryEditInput = z.discriminatedUnion('action', [
  z
    .object({
      action: z.literal('set'),
      agent: z.string().min(1, 'Name the agent.').max(256),
      key: z.string().trim().min(1, 'Give the memory a name.').max(100),
      value: z.json(),
    })
    .strict(),
  z
    .object({
      action: z.literal('remove'),
      agent: z.string().min(1, 'Name the agent.').max(256),
      key: z.string().trim().min(1, 'Name the memory to remove.').max(100),
    })
    .strict(),
]);
export type MemoryEditInput = z.infer<typeof MemoryEditInput>;
