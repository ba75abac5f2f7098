import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { z } from 'zod';
import type { Skill, SkillDispatch, SkillProblem } from './skill';

/** Agent Skills' limits: a name for the listing, a description short enough to sit in every prompt. */
export const MAX_SKILL_NAME_LENGTH = 64;
export const MAX_DESCRIPTION_LENGTH = 1024;

const SKILL_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
/** What every provider accepts as a function name. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

const Frontmatter = z.looseObject({
  name: z
    .string({ error: 'name must be text' })
    .max(MAX_SKILL_NAME_LENGTH, `name must be at most ${MAX_SKILL_NAME_LENGTH} characters`)
    .regex(
      SKILL_NAME,
      'name may use only letters, digits, "-" and "_", and must start with a letter or digit',
    )
    .optional(),
  description: z.string({ error: 'description must be text' }).trim().min(1, 'description must not be empty'),
  'command-dispatch': z
    .literal('tool', { error: 'command-dispatch may only be "tool" (the skill runs a tool)' })
    .optional(),
  'command-tool': z
    .string({ error: 'command-tool must be text' })
    .regex(TOOL_NAME, 'command-tool must be a tool name (letters, digits, "_" and "-")')
    .optional(),
  'command-arg-mode': z
    .literal('raw', { error: 'command-arg-mode may only be "raw" (the tool gets the request as text)' })
    .optional(),
  'disable-model-invocation': z
    .boolean({ error: 'disable-model-invocation must be true or false' })
    .optional(),
  metadata: z.unknown().optional(),
});
type Frontmatter = z.infer<typeof Frontmatter>;
const KNOWN_KEYS = new Set(Object.keys(Frontmatter.shape));
const DISPATCH_KEYS = ['command-dispatch', 'command-tool', 'command-arg-mode'] as const;

export interface SkillFileRead {
  /** null when an error keeps the skill out. */
  skill: Skill | null;
  problems: SkillProblem[];
}

interface Frame {
  /** The YAML between the `---` lines. */
  yaml: string;
  /** The 1-based line of the file where the YAML starts. */
  firstLine: number;
  body: string;
}

/**
 * Reads a SKILL.md: YAML frontmatter between `---` lines (`name`, `description`, and OpenClaw's
 * `command-dispatch: tool` with `command-tool`, also accepted under `metadata.openclaw` as older
 * skills write them), then markdown. Keys this app does not use are kept and reported. Never throws.
 */
export function parseSkillFile(text: string, where: { folder: string; file: string }): SkillFileRead {
  const problems: SkillProblem[] = [];
  const report = (severity: SkillProblem['severity'], field: string, message: string, line?: number) =>
    problems.push({ severity, file: where.file, field, message, ...(line === undefined ? {} : { line }) });
  const failed = () => ({ skill: null, problems });

  const frame = splitFrontmatter(text);
  if (!frame) {
    report(
      'error',
      '',
      'SKILL.md must start with frontmatter: a line "---", then "name:" and "description:", then a line "---"',
      1,
    );
    return failed();
  }
  const lines = new LineCounter();
  const document = parseDocument(frame.yaml, { lineCounter: lines });
  const fileLine = (offset: number) => frame.firstLine + lines.linePos(offset).line - 1;
  if (document.errors.length > 0) {
    for (const error of document.errors)
      report(
        'error',
        '',
        `invalid YAML: ${error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '')}`,
        frame.firstLine + (error.linePos?.[0].line ?? 1) - 1,
      );
    return failed();
  }
  const keyLines = new Map<string, number>();
  if (isMap(document.contents)) {
    for (const pair of document.contents.items)
      if (isScalar(pair.key) && pair.key.range)
        keyLines.set(String(pair.key.value), fileLine(pair.key.range[0]));
  }
  const raw: unknown = document.toJS() ?? {};
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    report('error', '', 'the frontmatter must be a list of "key: value" lines', frame.firstLine);
    return failed();
  }
  const frontmatter = raw as Record<string, unknown>;
  const lineOf = (field: string) => keyLines.get(field) ?? frame.firstLine;

  const checked = Frontmatter.safeParse(frontmatter);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      const field = issue.path.map(String).join('.');
      const missing = issue.path.length === 1 && !Object.hasOwn(frontmatter, field);
      report(
        'error',
        field,
        missing ? `missing required field "${field}"` : issue.message,
        lineOf(String(issue.path[0] ?? '')),
      );
    }
    return failed();
  }
  for (const key of Object.keys(frontmatter))
    if (!KNOWN_KEYS.has(key))
      report('warning', key, `"${key}" is not used by LeMMing Desktop; it is kept in the file`, lineOf(key));

  const dispatch = dispatchOf(
    checked.data,
    frontmatter,
    (field, message) => report('error', field, message, lineOf(field.split('.')[0]!)),
    (field, message) => report('warning', field, message, lineOf(field)),
  );
  if (dispatch === undefined) return failed();

  const name = checked.data.name ?? where.folder;
  if (checked.data.name === undefined)
    report(
      'warning',
      'name',
      `no name is given; the skill is called by its folder name "${where.folder}"`,
      frame.firstLine,
    );
  else if (name !== where.folder)
    report(
      'warning',
      'name',
      `the skill is named "${name}" but lives in folder "${where.folder}"`,
      lineOf('name'),
    );
  if (checked.data.description.length > MAX_DESCRIPTION_LENGTH)
    report(
      'warning',
      'description',
      `description is ${checked.data.description.length} characters; the model is shown the first ${MAX_DESCRIPTION_LENGTH}`,
      lineOf('description'),
    );

  return {
    skill: {
      name,
      folder: where.folder,
      file: where.file,
      description: checked.data.description,
      dispatch,
      shownToModel: checked.data['disable-model-invocation'] !== true,
      body: frame.body,
      frontmatter,
    },
    problems,
  };
}

/** The `---` block at the top (after an optional BOM), or null when there is none. */
function splitFrontmatter(text: string): Frame | null {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  if (lines[0]?.trimEnd() !== '---') return null;
  const end = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\s*$/.test(line));
  if (end < 0) return null;
  return {
    yaml: lines.slice(1, end).join('\n'),
    firstLine: 2,
    body: lines
      .slice(end + 1)
      .join('\n')
      .replace(/^\n+/, ''),
  };
}

/**
 * The dispatch, from top-level keys or `metadata.openclaw`; null for a skill that only instructs,
 * undefined when the keys contradict each other or are incomplete (an error was reported).
 */
function dispatchOf(
  data: Frontmatter,
  frontmatter: Record<string, unknown>,
  error: (field: string, message: string) => void,
  warning: (field: string, message: string) => void,
): SkillDispatch | null | undefined {
  const nested = openClawMetadata(frontmatter.metadata);
  for (const key of DISPATCH_KEYS) {
    if (nested[key] !== undefined && data[key] !== undefined && nested[key] !== data[key]) {
      error(
        `metadata.openclaw.${key}`,
        `metadata.openclaw.${key} says ${JSON.stringify(nested[key])} but ${key} says ${JSON.stringify(data[key])}; keep one`,
      );
      return undefined;
    }
  }
  const nestedChecked = Frontmatter.pick({
    'command-dispatch': true,
    'command-tool': true,
    'command-arg-mode': true,
  }).safeParse(nested);
  if (!nestedChecked.success) {
    const issue = nestedChecked.error.issues[0]!;
    error(`metadata.openclaw.${issue.path.map(String).join('.')}`, issue.message);
    return undefined;
  }
  const mode = data['command-dispatch'] ?? nestedChecked.data['command-dispatch'];
  const tool = data['command-tool'] ?? nestedChecked.data['command-tool'];
  const argMode = data['command-arg-mode'] ?? nestedChecked.data['command-arg-mode'];
  if (mode === undefined) {
    if (tool !== undefined)
      warning('command-tool', 'command-tool is ignored without "command-dispatch: tool"');
    return null;
  }
  if (tool === undefined) {
    error('command-tool', 'command-dispatch: tool needs command-tool, the name of the tool the skill runs');
    return undefined;
  }
  return { tool, argMode: argMode === 'raw' ? 'raw' : 'object' };
}

function openClawMetadata(metadata: unknown): Record<string, unknown> {
  const openclaw =
    typeof metadata === 'object' && metadata !== null
      ? (metadata as Record<string, unknown>).openclaw
      : undefined;
  if (typeof openclaw !== 'object' || openclaw === null || Array.isArray(openclaw)) return {};
  const picked: Record<string, unknown> = {};
  for (const key of DISPATCH_KEYS)
    if ((openclaw as Record<string, unknown>)[key] !== undefined)
      picked[key] = (openclaw as Record<string, unknown>)[key];
  return picked;
}
