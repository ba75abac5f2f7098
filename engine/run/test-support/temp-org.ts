import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { ResumeSchema, type Resume } from '../../org/resume-schema';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
export const UPSTREAM = resolve(REPO_ROOT, '..', 'shared', 'fixtures', 'lemming-upstream');
export const DEMO_ORG = join(REPO_ROOT, 'examples', 'demo-org');
/** The template gallery's source folder (the shipped form has the same layout). */
export const TEMPLATES = join(REPO_ROOT, 'templates');

/** Temporary folders for one test file; `cleanup` removes them all (call it in afterEach). */
export function tempOrgs() {
  const made: string[] = [];
  const base = () => {
    const dir = mkdtempSync(join(tmpdir(), 'lemming-engine-'));
    made.push(dir);
    return dir;
  };
  return {
    /** A fresh copy of `source` (fixtures are never touched in place). */
    copy(source: string): string {
      const target = join(base(), 'org');
      cpSync(source, target, { recursive: true });
      return target;
    },
    /** A new org built from files: `{ 'agents/a/resume.json': {...} }`; objects are written as JSON. */
    build(files: Record<string, unknown>): string {
      const target = join(base(), 'org');
      for (const [path, content] of Object.entries(files)) {
        const file = join(target, path);
        mkdirSync(dirname(file), { recursive: true });
        writeFileSync(file, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
      }
      return target;
    },
    cleanup(): void {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A valid resume; `overrides` replace top-level fields. */
export function resume(name: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    title: `${name} title`,
    short_description: `${name} agent`,
    instructions: `You are ${name}.`,
    model: { key: 'scripted' },
    permissions: { read_outboxes: ['*'], tools: [] },
    schedule: { run_every_n_ticks: 1, phase_offset: 0 },
    ...overrides,
  };
}

/** `resume(name, overrides)` as the engine holds it once read (parsed by ResumeSchema). */
export function parsedResume(name: string, overrides: Record<string, unknown> = {}): Resume {
  return ResumeSchema.parse(resume(name, overrides));
}

/**
 * The files of an org whose agents think with the scripted model (models.json key `scripted`), which
 * answers from `script` (script.json); each agent's resume is `resume(name, overrides)`.
 */
export function scriptedOrgFiles(
  script: unknown,
  agents: Record<string, Record<string, unknown>>,
): Record<string, unknown> {
  return {
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'script.json': script,
    ...Object.fromEntries(
      Object.entries(agents).map(([name, overrides]) => [
        `agents/${name}/resume.json`,
        resume(name, overrides),
      ]),
    ),
  };
}
