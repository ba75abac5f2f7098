import type { Problem } from '../api/problem';
import type { Result, ResultWith } from '../api/result';
import { fileProblem } from '../files/json-problems';
import { lineAndColumn, parseJsonText } from '../files/json-text';
import { agentPaths } from './org-layout';
import type { ResumeDraft } from './resume-file';

/**
 * LeMMing's legacy resume.txt (reference/lemming-engine.md §2.4): header lines (`Name:`, `Role:`,
 * `Description:`, `Workflow:`), then `[INSTRUCTIONS]` and free text, then `[CONFIG]` and JSON.
 * The JSON holds either the current shape (model object, permissions, schedule, credits) or the
 * older keys (`model` as text, `read_from`, `tools`, `org_speed_multiplier`, `send_to`).
 *
 * Mapped as LeMMing's migrate-resumes does, except that nothing is dropped: credits and the Workflow
 * header are kept, and every header line or config key that has no place in a resume is kept under
 * `legacy_resume_txt` (a field LeMMing ignores). Defaults apply only to missing keys: an empty
 * read_from stays empty, where migrate-resumes' `or` would widen it to every outbox.
 */
export type LegacyResumeParse = ResultWith<ResumeDraft, Problem[], { warnings: Problem[] }>;

const INSTRUCTIONS_MARKER = '[INSTRUCTIONS]';
const CONFIG_MARKER = '[CONFIG]';

/** migrate-resumes' defaults. */
const DEFAULT_MODEL_KEY = 'gpt-4.1-mini';
const DEFAULT_TEMPERATURE = 0.2;
const DEFAULT_MAX_TOKENS = 2048;
const DEFAULT_TOOLS = ['memory_read', 'memory_write'];
const DEFAULT_READ_OUTBOXES = ['*'];
const DEFAULT_SHORT_DESCRIPTION = 'A LeMMing agent.';

const HEADER_FIELDS: Record<string, string> = {
  role: 'title',
  description: 'short_description',
  workflow: 'workflow_description',
};

export function parseLegacyResumeTxt(
  text: string,
  folder: string,
  file = agentPaths(folder).legacyResume,
): LegacyResumeParse {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const instructionsAt = body.indexOf(INSTRUCTIONS_MARKER);
  const configAt = instructionsAt < 0 ? -1 : body.indexOf(CONFIG_MARKER, instructionsAt);
  if (instructionsAt < 0 || configAt < 0) {
    const missing = instructionsAt < 0 ? INSTRUCTIONS_MARKER : CONFIG_MARKER;
    return {
      ok: false,
      error: [
        fileProblem(
          file,
          `resume.txt needs a ${missing} section (after the header, ${INSTRUCTIONS_MARKER} then ${CONFIG_MARKER})`,
        ),
      ],
    };
  }

  const configStart = configAt + CONFIG_MARKER.length;
  const config = parseConfig(body, configStart, file);
  if (!config.ok) return config;

  const header = parseHeader(body.slice(0, instructionsAt));
  const warnings: Problem[] = [];
  const headerName = header.get('name');
  if (headerName !== undefined && headerName !== folder) {
    warnings.push(
      fileProblem(
        file,
        `the header says Name: ${headerName}, but the agent is named after its folder, "${folder}"`,
        'name',
      ),
    );
  }

  const draft: Record<string, unknown> = {
    name: folder,
    title: header.get('role') ?? titleCase(folder.replaceAll('_', ' ')),
    short_description: header.get('description') ?? DEFAULT_SHORT_DESCRIPTION,
    workflow_description: header.get('workflow') ?? '',
    instructions: body.slice(instructionsAt + INSTRUCTIONS_MARKER.length, configAt).trim(),
  };
  const mapped = mapConfig(config.value, file, warnings);
  Object.assign(draft, mapped.fields);

  const leftoverHeader = Object.fromEntries(
    [...header].filter(([key]) => key !== 'name' && !(key in HEADER_FIELDS)),
  );
  const legacy = {
    ...(Object.keys(leftoverHeader).length ? { header: leftoverHeader } : {}),
    ...(Object.keys(mapped.leftover).length ? { config: mapped.leftover } : {}),
  };
  if (Object.keys(legacy).length) draft.legacy_resume_txt = legacy;
  return { ok: true, value: draft, warnings };
}

function parseHeader(text: string): Map<string, string> {
  const header = new Map<string, string>();
  for (const line of text.trim().split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon >= 0) header.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return header;
}

type ConfigParse = Result<Record<string, unknown>, Problem[]>;

/** The JSON after [CONFIG]; its errors are placed on the line of resume.txt they are on. */
function parseConfig(body: string, start: number, file: string): ConfigParse {
  const parsed = parseJsonText(body.slice(start));
  if (!parsed.ok) {
    const origin = lineAndColumn(body, start);
    const line = origin.line + parsed.error.line - 1;
    const column = parsed.error.line === 1 ? origin.column - 1 + parsed.error.column : parsed.error.column;
    return {
      ok: false,
      error: [
        { file, field: '[CONFIG]', message: `${parsed.error.message} in the [CONFIG] section`, line, column },
      ],
    };
  }
  if (typeof parsed.value !== 'object' || parsed.value === null || Array.isArray(parsed.value)) {
    return {
      ok: false,
      error: [fileProblem(file, 'the [CONFIG] section must be a JSON object', '[CONFIG]')],
    };
  }
  return { ok: true, value: parsed.value as Record<string, unknown> };
}

function mapConfig(
  config: Record<string, unknown>,
  file: string,
  warnings: Problem[],
): { fields: Record<string, unknown>; leftover: Record<string, unknown> } {
  const used = new Set<string>();
  const take = (key: string): unknown => {
    if (!Object.hasOwn(config, key)) return undefined;
    used.add(key);
    return config[key];
  };
  const isObject = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value);

  const model = take('model');
  const fields: Record<string, unknown> = {
    model: isObject(model)
      ? model
      : { key: model ?? DEFAULT_MODEL_KEY, temperature: DEFAULT_TEMPERATURE, max_tokens: DEFAULT_MAX_TOKENS },
  };

  const permissions = take('permissions');
  if (isObject(permissions)) {
    fields.permissions = { read_outboxes: DEFAULT_READ_OUTBOXES, tools: DEFAULT_TOOLS, ...permissions };
  } else {
    const readFrom = take('read_from');
    const tools = take('tools');
    const sendTo = take('send_to');
    if (readFrom === undefined) {
      warnings.push(
        fileProblem(
          file,
          'no read_from in [CONFIG]: the agent reads every outbox, as LeMMing migrates it',
          'permissions.read_outboxes',
        ),
      );
    }
    fields.permissions = {
      read_outboxes: readFrom ?? DEFAULT_READ_OUTBOXES,
      tools: tools ?? DEFAULT_TOOLS,
      ...(sendTo === undefined ? {} : { send_outboxes: sendTo }),
    };
  }

  const schedule = take('schedule');
  fields.schedule = isObject(schedule)
    ? schedule
    : { run_every_n_ticks: take('org_speed_multiplier') ?? 1, phase_offset: 0 };

  const credits = take('credits');
  if (credits !== undefined) fields.credits = credits;

  const leftover = Object.fromEntries(Object.entries(config).filter(([key]) => !used.has(key)));
  return { fields, leftover };
}

/** Python's str.title() for ASCII: each run of letters starts upper case, the rest lower case. */
function titleCase(text: string): string {
  return text.replace(/[A-Za-z]+/g, (word) => word[0]?.toUpperCase() + word.slice(1).toLowerCase());
}
