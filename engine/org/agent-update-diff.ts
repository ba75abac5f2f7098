import type { AgentChange, AgentChangeAspect, AgentUpdate } from '../api/org-update-schemas';
import type { AgentDefinition } from './agent-definition';
import { diffLines } from './line-diff';

/** Resume keys compared one by one below; the rest are compared together as "other settings". */
const COMPARED_KEYS = new Set([
  'name',
  'title',
  'short_description',
  'instructions',
  'model',
  'permissions',
  'schedule',
  'tools_profile',
  // An agent's credit caps are its person's budget, which an update keeps.
  'credits',
]);
const COMPARED_PERMISSIONS = new Set([
  'read_outboxes',
  'send_outboxes',
  'tools',
  'tool_kinds',
  'file_access',
]);
const COMPARED_FILE_ACCESS = new Set(['allow_read', 'allow_write']);
const COMPARED_SCHEDULE = new Set(['run_every_n_ticks', 'phase_offset']);
const COMPARED_MODEL = new Set(['key']);

/** Every agent of either side, by name, with what updating it from `source` would change. */
export function planAgentUpdates(
  current: readonly AgentDefinition[],
  source: readonly AgentDefinition[],
): AgentUpdate[] {
  const ours = new Map(current.map((agent) => [agent.name, agent]));
  const theirs = new Map(source.map((agent) => [agent.name, agent]));
  const names = [...new Set([...ours.keys(), ...theirs.keys()])].sort();
  return names.map((name) => diffAgent(name, ours.get(name), theirs.get(name)));
}

/** What replacing `before`'s definition with `after`'s changes, in plain words. */
export function diffAgent(
  name: string,
  before: AgentDefinition | undefined,
  after: AgentDefinition | undefined,
): AgentUpdate {
  if (!after)
    return {
      agent: name,
      status: 'removed',
      changes: [change('other', 'Not in the newer copy; it stays unless you remove it.', false)],
      instructionsDiff: null,
      widens: false,
      reachAdded: [],
    };
  if (!before) return newAgent(name, after);
  const changes = [
    ...textChanges(before, after),
    ...modelChanges(before, after),
    ...toolChanges(before, after),
    ...fileAccessChanges(before, after),
    ...messageChanges(before, after),
    ...scheduleChanges(before, after),
    ...toolFileChanges(before, after),
    ...otherChanges(before, after),
  ];
  const instructionsChange = before.resume.instructions !== after.resume.instructions;
  return {
    agent: name,
    status: changes.length > 0 ? 'changed' : 'unchanged',
    changes,
    instructionsDiff: instructionsChange
      ? diffLines(before.resume.instructions, after.resume.instructions)
      : null,
    widens: changes.some((item) => item.widens),
    reachAdded: [],
  };
}

function newAgent(name: string, after: AgentDefinition): AgentUpdate {
  const tools = after.resume.permissions.tools;
  const fileAccess = after.resume.permissions.file_access;
  const paths = [...(fileAccess?.allow_read ?? []), ...(fileAccess?.allow_write ?? [])];
  const toolFiles = Object.keys(after.toolFiles);
  const changes = [
    change('title', `A new agent: “${after.resume.title}”.`, false),
    ...(tools.length > 0 ? [change('tools', `Has the tools: ${list(tools)}.`, true)] : []),
    ...(paths.length > 0 ? [change('file_access', `May use the files: ${list(paths)}.`, true)] : []),
    ...(toolFiles.length > 0 ? [change('api_tools', `Brings tool files: ${list(toolFiles)}.`, true)] : []),
  ];
  return {
    agent: name,
    status: 'added',
    changes,
    instructionsDiff: diffLines('', after.resume.instructions).filter((line) => line.kind === 'added'),
    widens: changes.some((item) => item.widens),
    reachAdded: [],
  };
}

function textChanges(before: AgentDefinition, after: AgentDefinition): AgentChange[] {
  const changes: AgentChange[] = [];
  if (before.resume.title !== after.resume.title)
    changes.push(
      change('title', `Its title becomes “${after.resume.title}” (was “${before.resume.title}”).`),
    );
  if ((before.resume.short_description ?? '') !== (after.resume.short_description ?? ''))
    changes.push(change('description', 'Its description changes.'));
  if (before.resume.instructions !== after.resume.instructions) {
    const lines = diffLines(before.resume.instructions, after.resume.instructions);
    const added = lines.filter((line) => line.kind === 'added').length;
    const removed = lines.filter((line) => line.kind === 'removed').length;
    changes.push(
      change(
        'instructions',
        `Its instructions change: ${count(added, 'line')} added, ${count(removed, 'line')} removed.`,
      ),
    );
  }
  return changes;
}

function modelChanges(before: AgentDefinition, after: AgentDefinition): AgentChange[] {
  const was = before.resume.model;
  const now = after.resume.model;
  if (was.key !== now.key) return [change('model', `Thinks with “${now.key}” (was “${was.key}”).`)];
  if (!sameJson(rest(was, COMPARED_MODEL), rest(now, COMPARED_MODEL)))
    return [change('model', `Its model settings change (temperature or length of answers).`)];
  return [];
}

function toolChanges(before: AgentDefinition, after: AgentDefinition): AgentChange[] {
  const was = before.resume.permissions;
  const now = after.resume.permissions;
  const changes = [
    ...listChanges(was.tools, now.tools, 'tools', 'Gains the tools', 'Loses the tools', true),
    ...listChanges(
      was.tool_kinds ?? [],
      now.tool_kinds ?? [],
      'tools',
      'May now use tools of the kinds',
      'May no longer use tools of the kinds',
      true,
    ),
  ];
  if (before.resume.tools_profile !== after.resume.tools_profile)
    changes.push(
      change('tools', `Its tool profile becomes “${after.resume.tools_profile ?? 'the default'}”.`, true),
    );
  return changes;
}

function fileAccessChanges(before: AgentDefinition, after: AgentDefinition): AgentChange[] {
  const was = before.resume.permissions.file_access ?? {};
  const now = after.resume.permissions.file_access ?? {};
  return [
    ...listChanges(
      was.allow_read ?? [],
      now.allow_read ?? [],
      'file_access',
      'May now read',
      'May no longer read',
      true,
    ),
    ...listChanges(
      was.allow_write ?? [],
      now.allow_write ?? [],
      'file_access',
      'May now change',
      'May no longer change',
      true,
    ),
  ];
}

function messageChanges(before: AgentDefinition, after: AgentDefinition): AgentChange[] {
  const was = before.resume.permissions;
  const now = after.resume.permissions;
  return [
    ...listChanges(
      was.read_outboxes,
      now.read_outboxes,
      'messages',
      'Now reads messages from',
      'Stops reading messages from',
      false,
    ),
    ...listChanges(
      was.send_outboxes ?? [],
      now.send_outboxes ?? [],
      'messages',
      'May now send to',
      'May no longer send to',
      false,
    ),
  ];
}

function scheduleChanges(before: AgentDefinition, after: AgentDefinition): AgentChange[] {
  const was = before.resume.schedule;
  const now = after.resume.schedule;
  const changes: AgentChange[] = [];
  if (was.run_every_n_ticks !== now.run_every_n_ticks)
    changes.push(
      change(
        'schedule',
        `Takes a turn ${every(now.run_every_n_ticks)} (was ${every(was.run_every_n_ticks)}).`,
      ),
    );
  if (was.phase_offset !== now.phase_offset)
    changes.push(
      change(
        'schedule',
        `Its turns move to other ticks (offset ${now.phase_offset}, was ${was.phase_offset}).`,
      ),
    );
  if (!sameJson(rest(was, COMPARED_SCHEDULE), rest(now, COMPARED_SCHEDULE)))
    changes.push(change('schedule', 'Other schedule settings change.'));
  return changes;
}

function toolFileChanges(before: AgentDefinition, after: AgentDefinition): AgentChange[] {
  const paths = [...new Set([...Object.keys(before.toolFiles), ...Object.keys(after.toolFiles)])].sort();
  const changes: AgentChange[] = [];
  for (const [folder, aspect, what] of [
    ['skills/', 'skills', 'skill files'],
    ['api-tools/', 'api_tools', 'tool files'],
  ] as const) {
    const inFolder = paths.filter((path) => path.startsWith(folder));
    const added = inFolder.filter((path) => !(path in before.toolFiles));
    const removed = inFolder.filter((path) => !(path in after.toolFiles));
    const edited = inFolder.filter(
      (path) =>
        path in before.toolFiles &&
        path in after.toolFiles &&
        before.toolFiles[path] !== after.toolFiles[path],
    );
    if (added.length > 0) changes.push(change(aspect, `New ${what}: ${list(added)}.`, true));
    if (edited.length > 0) changes.push(change(aspect, `Changed ${what}: ${list(edited)}.`, true));
    if (removed.length > 0) changes.push(change(aspect, `Removed ${what}: ${list(removed)}.`));
  }
  return changes;
}

function otherChanges(before: AgentDefinition, after: AgentDefinition): AgentChange[] {
  const keys = (definition: AgentDefinition) => ({
    resume: rest(definition.raw, COMPARED_KEYS),
    permissions: rest(objectAt(definition.raw, 'permissions'), COMPARED_PERMISSIONS),
    fileAccess: rest(objectAt(objectAt(definition.raw, 'permissions'), 'file_access'), COMPARED_FILE_ACCESS),
  });
  const was = keys(before);
  const now = keys(after);
  const changed = [
    ...changedKeys(was.resume, now.resume),
    ...changedKeys(was.permissions, now.permissions).map((key) => `permissions.${key}`),
    ...changedKeys(was.fileAccess, now.fileAccess).map((key) => `permissions.file_access.${key}`),
  ];
  return changed.length > 0 ? [change('other', `Other settings change: ${list(changed)}.`)] : [];
}

function listChanges(
  was: readonly string[],
  now: readonly string[],
  aspect: AgentChangeAspect,
  gainWords: string,
  lossWords: string,
  gainWidens: boolean,
): AgentChange[] {
  const gained = now.filter((item) => !was.includes(item));
  const lost = was.filter((item) => !now.includes(item));
  return [
    ...(gained.length > 0 ? [change(aspect, `${gainWords}: ${list(gained)}.`, gainWidens)] : []),
    ...(lost.length > 0 ? [change(aspect, `${lossWords}: ${list(lost)}.`)] : []),
  ];
}

const change = (aspect: AgentChangeAspect, words: string, widens = false): AgentChange => ({
  aspect,
  words,
  widens,
});
const list = (items: readonly string[]) => items.join(', ');
const count = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;
const every = (ticks: number) => (ticks === 1 ? 'every tick' : `every ${ticks} ticks`);

function objectAt(value: unknown, key: string): Record<string, unknown> {
  const found =
    typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
  return typeof found === 'object' && found !== null && !Array.isArray(found)
    ? (found as Record<string, unknown>)
    : {};
}

function rest(value: object, known: ReadonlySet<string>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !known.has(key)));
}

function changedKeys(was: Record<string, unknown>, now: Record<string, unknown>): string[] {
  return [...new Set([...Object.keys(was), ...Object.keys(now)])]
    .filter((key) => !sameJson(was[key], now[key]))
    .sort();
}

function sameJson(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (typeof value === 'object' && value !== null)
    return `{${Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'undefined';
}
