import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ResumeSchema } from './resume-schema';

const FIXTURES = resolve(import.meta.dirname, '../../../shared/fixtures/lemming-upstream');
const EXAMPLE_AGENTS = join(FIXTURES, 'example-org/agents');
const FAILURE_CASES_AGENTS = join(FIXTURES, 'engine-output/failure_cases/agents');

const valid = {
  name: 'writer',
  title: 'Writer',
  short_description: 'Writes things',
  instructions: 'Write.',
  model: { key: 'gpt-4o-mini', temperature: 0.2, max_tokens: 2048 },
  permissions: { read_outboxes: ['human'], tools: ['file_read'] },
  schedule: { run_every_n_ticks: 1, phase_offset: 0 },
  credits: { max_credits: 100, soft_cap: 50 },
};

function withField(path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(valid) as Record<string, unknown>;
  const parent = path.slice(0, -1).reduce((node, step) => node[step] as Record<string, unknown>, copy);
  const last = path.at(-1) as string;
  if (value === undefined) delete parent[last];
  else parent[last] = value;
  return copy;
}

function messages(input: unknown): string[] {
  const result = ResumeSchema.safeParse(input);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('ResumeSchema on LeMMing example resumes', () => {
  const resumeFiles = [
    ...readdirSync(EXAMPLE_AGENTS).map((folder) => join(EXAMPLE_AGENTS, folder, 'resume.json')),
    ...['broke', 'flaky'].map((folder) => join(FAILURE_CASES_AGENTS, folder, 'resume.json')),
  ];

  it.each(resumeFiles)('accepts %s', (file) => {
    expect(messages(JSON.parse(readFileSync(file, 'utf8')))).toEqual([]);
  });

  it('accepts the human pseudo-agent, whose model "none" is not in models.json', () => {
    const human = ResumeSchema.parse(
      JSON.parse(readFileSync(join(EXAMPLE_AGENTS, 'human', 'resume.json'), 'utf8')),
    );
    expect(human.model).toEqual({ key: 'none', temperature: 0 });
    expect(human.schedule.run_every_n_ticks).toBe(999999);
  });
});

describe("ResumeSchema follows LeMMing's loader coercions (reference §2.1)", () => {
  it('coerces run_every_n_ticks like Python int(): numeric strings and truncated floats', () => {
    expect(
      ResumeSchema.parse(withField(['schedule', 'run_every_n_ticks'], '2')).schedule.run_every_n_ticks,
    ).toBe(2);
    expect(
      ResumeSchema.parse(withField(['schedule', 'run_every_n_ticks'], ' 3 ')).schedule.run_every_n_ticks,
    ).toBe(3);
    expect(
      ResumeSchema.parse(withField(['schedule', 'run_every_n_ticks'], 2.7)).schedule.run_every_n_ticks,
    ).toBe(2);
  });

  it('rejects "2.5", zero and negative run_every_n_ticks', () => {
    expect(messages(withField(['schedule', 'run_every_n_ticks'], '2.5'))).toEqual([
      'schedule.run_every_n_ticks: run_every_n_ticks must be a whole number',
    ]);
    expect(messages(withField(['schedule', 'run_every_n_ticks'], 0))).toEqual([
      'schedule.run_every_n_ticks: run_every_n_ticks must be at least 1',
    ]);
    expect(messages(withField(['schedule', 'run_every_n_ticks'], '-1'))).toHaveLength(1);
  });

  it('keeps a clock schedule and the switch, and says which part of a wrong clock schedule is wrong', () => {
    const parsed = ResumeSchema.parse({
      ...withField(['schedule', 'clock'], '0 9 * * 1-5'),
      switched_off: true,
    });
    expect(parsed.schedule.clock).toBe('0 9 * * 1-5');
    expect(parsed.switched_off).toBe(true);
    expect(messages(withField(['schedule', 'clock'], '0 25 * * *'))).toEqual([
      'schedule.clock: the hour part "25": 25 is outside 0–23',
    ]);
    expect(messages(withField(['switched_off'], 'yes'))).toEqual([
      'switched_off: switched_off must be true or false',
    ]);
  });

  it('requires phase_offset to be a JSON integer, negative allowed', () => {
    expect(ResumeSchema.parse(withField(['schedule', 'phase_offset'], -1)).schedule.phase_offset).toBe(-1);
    expect(messages(withField(['schedule', 'phase_offset'], '1'))).toEqual([
      'schedule.phase_offset: phase_offset must be a whole number',
    ]);
    expect(messages(withField(['schedule', 'phase_offset'], 1.5))).toEqual([
      'schedule.phase_offset: phase_offset must be a whole number',
    ]);
    expect(messages(withField(['schedule', 'phase_offset'], true))).toHaveLength(1);
  });

  it('reads the legacy string model as {key}', () => {
    expect(ResumeSchema.parse(withField(['model'], 'gpt-4.1-mini')).model).toEqual({ key: 'gpt-4.1-mini' });
    expect(messages(withField(['model'], ''))).toEqual(['model.key: model.key must not be empty']);
    expect(messages(withField(['model'], 7))).toEqual([
      'model: model must be an object with a "key", or a model name',
    ]);
  });

  it('coerces temperature and max_tokens like float() and int(), and tolerates what LeMMing tolerates', () => {
    const model = ResumeSchema.parse(
      withField(['model'], { key: 'm', temperature: '0.5', max_tokens: '100' }),
    ).model;
    expect(model).toEqual({ key: 'm', temperature: 0.5, max_tokens: 100 });
    expect(messages(withField(['model', 'temperature'], 'hot'))).toEqual([
      'model.temperature: model.temperature must be a number',
    ]);
    expect(messages(withField(['model', 'max_tokens'], '2.5'))).toEqual([
      'model.max_tokens: model.max_tokens must be a whole number',
    ]);
    expect(messages(withField(['model', 'temperature'], 3))).toEqual([]);
  });

  it('accepts a missing credits object, and coerces numeric-string credits', () => {
    expect(ResumeSchema.parse(withField(['credits'], undefined)).credits).toBeUndefined();
    expect(ResumeSchema.parse(withField(['credits'], { max_credits: '10', soft_cap: 5 })).credits).toEqual({
      max_credits: 10,
      soft_cap: 5,
    });
    expect(messages(withField(['credits'], { max_credits: 10 }))).toEqual([
      'credits.soft_cap: soft_cap must be a number',
    ]);
  });

  it('allows empty instructions but not a blank title or name', () => {
    expect(messages(withField(['instructions'], ''))).toEqual([]);
    expect(messages(withField(['title'], '  '))).toEqual(['title: title must not be empty']);
    expect(messages(withField(['name'], ''))).toContain('name: name must not be empty');
  });

  it('keeps names exactly as written and refuses ones that cannot be a folder', () => {
    expect(ResumeSchema.parse(withField(['name'], 'Backend-Dev')).name).toBe('Backend-Dev');
    expect(messages(withField(['name'], ' writer'))).toEqual([
      'name: name may use only letters, digits, "_" and "-"',
    ]);
    expect(messages(withField(['name'], '../evil'))).toEqual([
      'name: name may use only letters, digits, "_" and "-"',
    ]);
  });

  it('requires lists of text for read_outboxes and tools', () => {
    expect(messages(withField(['permissions', 'tools'], 'file_read'))).toEqual([
      'permissions.tools: tools must be a list of names',
    ]);
    expect(messages(withField(['permissions', 'read_outboxes'], ['human', 3]))).toEqual([
      'permissions.read_outboxes.1: each entry of read_outboxes must be text',
    ]);
  });
});

describe("ResumeSchema accepts this app's additions and keeps unknown fields", () => {
  it('reads file_access, send_outboxes, tool_kinds, tools_profile and schema_version', () => {
    const resume = ResumeSchema.parse({
      ...valid,
      schema_version: 1,
      tools_profile: 'codex',
      permissions: {
        ...valid.permissions,
        send_outboxes: ['human'],
        tool_kinds: ['file'],
        file_access: { allow_read: ['shared'], allow_write: [] },
      },
    });
    expect(resume.permissions.file_access).toEqual({ allow_read: ['shared'], allow_write: [] });
    expect(resume.tools_profile).toBe('codex');
    expect(messages({ ...valid, tools_profile: 'vim' })).toEqual([
      'tools_profile: tools_profile must be one of lemming, codex, gemini, model-agnostic, auto',
    ]);
  });

  it('keeps unknown fields at every depth in its output', () => {
    const resume = ResumeSchema.parse({
      ...valid,
      x_top: 1,
      model: { ...valid.model, x_model: { deep: true } },
      permissions: { ...valid.permissions, x_perm: [1], file_access: { allow_read: [], x_fa: 'kept' } },
      schedule: { ...valid.schedule, x_sched: null },
    });
    expect(resume).toMatchObject({
      x_top: 1,
      model: { x_model: { deep: true } },
      permissions: { x_perm: [1], file_access: { x_fa: 'kept' } },
      schedule: { x_sched: null },
    });
  });
});
