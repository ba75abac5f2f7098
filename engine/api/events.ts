import { z } from 'zod';
import { TurnProgress } from './model-event-schemas';
import { RunState } from './run-schemas';
import { UpdateStatus } from './update-schemas';
import { AppPlace } from './desktop-schemas';
import { JobProgress } from './job-schemas';
import { McpServerStatuses } from './tool-schemas';

/**
 * Main → renderer pushes. They are pings with cursors, not payloads: the renderer pulls what changed
 * through the channels (timeline.page after `lastSeq`, org.graph, agent.get).
 */
export const events = {
  /** New events are in the timeline, up to `lastSeq`. */
  'timeline.appended': z.object({ lastSeq: z.int().nonnegative() }),
  /** The tool calls waiting for approval changed: `pending` are waiting now (pull them with approvals.pending). */
  'approvals.changed': z.object({ pending: z.int().nonnegative() }),
  /** The run's state changed (it is small, so it travels whole). */
  'run.state': RunState,
  /** These agents changed (resume, state, balance); an empty list means the list itself changed. */
  'agents.changed': z.object({ names: z.array(z.string()) }),
  /** Another org was opened, or the org was closed (`path` null). */
  'org.changed': z.object({ path: z.string().nullable() }),
  /** Main asks the window to show a place: a menu item, a notification the person clicked. It travels whole. */
  'app.navigate': AppPlace,
  /** Main asks the window to offer a new org (File → New Org…): the template gallery. */
  'app.newOrg': z.object({}),
  /** A long job (an export, an import) moved on or ended; it is small, so it travels whole. */
  'job.progress': JobProgress,
  /**
   * The statuses of the open org's MCP servers changed (one started, crashed, waits for sign-in); the
   * names and statuses only, so it travels whole. The Tool Store pulls the cards themselves.
   */
  'mcp.statuses': McpServerStatuses,
  /** The app's own update moved on (found, downloaded, failed); it is small, so it travels whole. */
  'updates.changed': UpdateStatus,
  /**
   * Pieces of model answers being written, gathered over a few tens of milliseconds (never stored; the
   * timeline gets the whole answer when the turn commits). The one push that carries its payload: the
   * pieces exist nowhere to be pulled.
   */
  'turn.progress': z.object({
    progress: z.array(TurnProgress),
    /** Agents whose turn was committed since: what they were writing is in the timeline now. */
    ended: z.array(z.string()),
  }),
} as const;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export function isEventName(name: unknown): name is EventName {
  return typeof name === 'string' && Object.hasOwn(events, name);
}

/** The one IPC channel events travel on, main → renderer, as `{ name, payload }`. */
export const EVENT_CHANNEL = 'lemming:event';
