import { z } from 'zod';
import { RunState } from './run-schemas';
import { UpdateStatus } from './update-schemas';

/**
 * Main → renderer pushes. They are pings with cursors, not payloads: the renderer pulls what changed
 * through the channels (timeline.page after `lastSeq`, org.graph, agent.get).
 */
export const events = {
  /** New events are in the timeline, up to `lastSeq`. */
  'timeline.appended': z.object({ lastSeq: z.int().nonnegative() }),
  /** The run's state changed (it is small, so it travels whole). */
  'run.state': RunState,
  /** These agents changed (resume, state, balance); an empty list means the list itself changed. */
  'agents.changed': z.object({ names: z.array(z.string()) }),
  /** Another org was opened, or the org was closed (`path` null). */
  'org.changed': z.object({ path: z.string().nullable() }),
  /** The app's own update moved on (found, downloaded, failed); it is small, so it travels whole. */
  'updates.changed': UpdateStatus,
} as const;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

/** The one IPC channel events travel on, main → renderer, as `{ name, payload }`. */
export const EVENT_CHANNEL = 'lemming:event';
