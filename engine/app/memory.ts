import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentMemory, MemoryChangeView, MemoryEditInput, MemoryEntryView } from '../api/memory-schemas';
import type { Problem } from '../api/problem';
import { fail, ok, type IpcResult } from '../api/result';
import { knownEvent, memoryChangeShown } from '../api/timeline-events';
import { readTextFile } from '../files/read-text-file';
import { parseMemoryText } from '../memory/memory-file';
import { agentPaths, inOrg } from '../org/org-layout';
import { OrgBusyError } from '../run/engine-errors';
import type { TimelineStore } from '../timeline/timeline-store';
import { findAgent, findValidAgent, nameOf } from './agent-lookup';
import { engineRefusals } from './org';
import type { OrgContext } from './org-context';

/** How many of the newest changes the memory view shows; older ones are in the timeline. */
const HISTORY_LIMIT = 200;

/**
 * An agent's memory as the person sees it on the agent's page: every key of its memory folder (LeMMing's
 * `agents/<name>/memory/<key>.json`), sorted by key, the files that cannot be read, and the newest
 * changes from the timeline (by the agent, by the person, or found on disk).
 */
export async function agentMemory(context: OrgContext, agent: string): Promise<IpcResult<AgentMemory>> {
  const found = await findAgent(context.orgPath, agent);
  if (!found.ok) return found;
  const name = nameOf(found.value);
  const folder = agentPaths(found.value.folder).memory;
  const { entries, problems } = await readMemoryFolder(inOrg(context.orgPath, folder), folder);
  const { history, moreHistory } = memoryHistory(context.engine.timeline, [
    ...new Set([name, found.value.folder]),
  ]);
  return ok({ agent: name, entries, problems, history, moreHistory });
}

/** The person sets or removes one key; the answer is the memory after the change. */
export async function editMemory(
  context: OrgContext,
  input: MemoryEditInput,
): Promise<IpcResult<AgentMemory>> {
  const found = await findValidAgent(context.orgPath, input.agent);
  if (!found.ok) return found;
  const name = found.value.resume.name;
  const edited = await engineRefusals(async () => {
    try {
      return ok(
        await context.engine.editMemory(
          name,
          input.action === 'remove'
            ? { key: input.key, remove: true }
            : { key: input.key, value: input.value },
        ),
      );
    } catch (error) {
      if (error instanceof OrgBusyError)
        return fail('busy', `${error.message} ${name}’s memory can be changed once that run ends.`);
      throw error;
    }
  });
  if (!edited.ok) return edited;
  const outcome = edited.value;
  if (!outcome.ok)
    return fail('invalid_change', outcome.error.message, [
      { path: outcome.error.code.includes('key') ? 'key' : 'value', message: outcome.error.message },
    ]);
  if (outcome.change === null && outcome.warning)
    return fail('not_found', outcome.warning.message, [{ path: 'key', message: outcome.warning.message }]);
  return agentMemory(context, name);
}

async function readMemoryFolder(
  dir: string,
  folder: string,
): Promise<{ entries: MemoryEntryView[]; problems: Problem[] }> {
  const names = await readdir(dir, { withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  const entries: MemoryEntryView[] = [];
  const problems: Problem[] = [];
  const files = names
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => entry.name)
    .sort();
  for (const file of files) {
    const relative = `${folder}/${file}`;
    const read = await readTextFile(join(dir, file));
    if (!read.found) {
      if (!read.missing) problems.push({ file: relative, field: '', message: read.message });
      continue;
    }
    // The file's name is the key, as LeMMing's prompt lists it and as an edit writes it back.
    const key = file.slice(0, -'.json'.length);
    const parsed = parseMemoryText(read.text, relative, key);
    if (!parsed.ok) {
      problems.push({ ...parsed.error, file: relative });
      continue;
    }
    const { record } = parsed.value;
    entries.push({
      key,
      value: record.value,
      updatedAt: record.timestamp_utc,
      tick: record.tick,
    });
  }
  return { entries, problems };
}

function memoryHistory(
  timeline: TimelineStore,
  agents: string[],
): { history: MemoryChangeView[]; moreHistory: boolean } {
  const page = timeline.page({
    agents,
    kinds: ['memory_update', 'memory_snapshot'],
    limit: HISTORY_LIMIT,
  });
  const history: MemoryChangeView[] = [];
  for (const row of page.rows) {
    const event = knownEvent(JSON.parse(row.json));
    const at = { seq: row.seq, tick: row.tick, time: row.time };
    if (event?.kind === 'memory_update') {
      const change = memoryChangeShown(event);
      history.push({
        ...at,
        key: event.key,
        by: event.by === 'human' ? 'person' : 'agent',
        shows: event.op === 'delete' ? 'removed' : change.shows === 'nothing' ? 'value' : change.shows,
        values: change.values,
      });
    } else if (event?.kind === 'memory_snapshot') {
      const record = event.record as { key?: unknown; value?: unknown } | null;
      const key =
        typeof record?.key === 'string'
          ? record.key
          : (event.file
              ?.split('/')
              .at(-1)
              ?.replace(/\.json$/, '') ?? '');
      history.push({ ...at, key, by: 'file', shows: 'value', values: [record?.value ?? null] });
    }
  }
  return { history, moreHistory: page.nextCursor !== null };
}
