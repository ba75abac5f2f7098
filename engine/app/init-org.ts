import type { Problem } from '../api/problem';
import { mkdir, readdir, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Result } from '../api/result';
import { MODELS_FILE } from '../models/models-file';
import { writeFileAtomic } from '../files/atomic-write';
import { CREDITS_FILE, defaultCreditEntry } from '../org/credits-file';
import { fileProblem } from '../files/json-problems';
import { formatJsonDocument } from '../files/json-style';
import { DEFAULT_ORG_CONFIG, ORG_CONFIG_FILE } from '../org/org-config-file';
import { createResumeText, resumeFileOf } from '../org/resume-file';
import { FIRST_TICK, TICK_FILE } from '../org/tick-file';
import { agentPaths } from '../org/org-layout';

export interface InitOrgOptions {
  /** The heading of the org's README.md; the folder's name when not given. */
  name?: string;
  /** Set up a folder that already holds files: only what is missing is created, nothing is overwritten. */
  force?: boolean;
  /** The content of models.json (its shape belongs to engine/models); an empty registry when not given. */
  models?: Record<string, unknown>;
}

/** A new org: where it is, and the files created and those already there (kept as they were). */
export interface InitializedOrg {
  path: string;
  created: string[];
  kept: string[];
}

export type InitOrgResult = Result<InitializedOrg, Problem[]>;

/** Files operating systems drop into folders on their own; they do not make a folder "in use". */
export const SYSTEM_FILES = new Set(['.DS_Store', 'Thumbs.db', 'desktop.ini']);

/** LeMMing's human pseudo-agent: the CLI and the app write human messages to its outbox; it never runs. */
const HUMAN_RESUME = {
  name: 'human',
  title: 'Human Operator',
  short_description: 'Human-in-the-loop interaction point',
  workflow_description: 'Receives agent messages and sends instructions',
  instructions: 'You are the human operator interface.',
  model: { key: 'none', temperature: 0 },
  permissions: { read_outboxes: ['*'], tools: [] },
  schedule: { run_every_n_ticks: 999999, phase_offset: 0 },
  credits: { max_credits: 999999, soft_cap: 999999 },
};

/**
 * Creates a new org LeMMing can open too: the human pseudo-agent, LeMMing's default config files
 * (tick.json at tick 1), an empty models registry unless one is given, and shared/. A folder that
 * already holds files is refused unless `force` is set.
 */
export async function initOrg(path: string, options: InitOrgOptions = {}): Promise<InitOrgResult> {
  const orgPath = resolve(path);
  const existing = await stat(orgPath).catch(() => null);
  if (existing && !existing.isDirectory()) {
    return { ok: false, error: [fileProblem('', `${orgPath} is a file, not a folder`)] };
  }
  if (existing && !options.force) {
    const entries = (await readdir(orgPath)).filter((entry) => !SYSTEM_FILES.has(entry));
    if (entries.length > 0) {
      return {
        ok: false,
        error: [
          fileProblem(
            '',
            `${orgPath} is not empty; choose an empty folder, or set up the org alongside what is there`,
          ),
        ],
      };
    }
  }

  const human = createResumeText(HUMAN_RESUME);
  if (!human.ok) return human;
  const files: [string, string][] = [
    [resumeFileOf('human'), human.text],
    [ORG_CONFIG_FILE, formatJsonDocument(DEFAULT_ORG_CONFIG)],
    [CREDITS_FILE, formatJsonDocument({ human: defaultCreditEntry(human.value) })],
    [TICK_FILE, formatJsonDocument({ current_tick: FIRST_TICK })],
    [MODELS_FILE, formatJsonDocument(options.models ?? {})],
    ['README.md', readme(options.name?.trim() || basename(orgPath))],
  ];

  const created: string[] = [];
  const kept: string[] = [];
  try {
    for (const folder of [agentPaths('human').outbox, 'shared'])
      await mkdir(join(orgPath, folder), { recursive: true });
    for (const [file, text] of files) {
      if (await stat(join(orgPath, file)).catch(() => null)) {
        kept.push(file);
        continue;
      }
      await writeFileAtomic(join(orgPath, file), text);
      created.push(file);
    }
  } catch (error) {
    return {
      ok: false,
      error: [fileProblem('', `cannot create the org in ${orgPath}: ${(error as Error).message}`)],
    };
  }
  return { ok: true, value: { path: orgPath, created, kept } };
}

function readme(name: string): string {
  return [
    `# ${name}`,
    '',
    'An organization of AI agents, run by LeMMing Desktop (and readable by LeMMing).',
    '',
    '- `agents/<name>/resume.json`: each agent, its instructions, model, permissions and schedule',
    '- `shared/`: files every agent can read and write',
    '- `lemming/config/`: org settings, models, credits and the next tick',
    '',
  ].join('\n');
}
