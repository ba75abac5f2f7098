import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { runCli } from './test-support/run-cli';

const orgs = tempOrgs();
afterEach(() => orgs.cleanup());

const lemming = (...argv: string[]) => runCli(argv);

const MODELS = {
  'lemming/config/models.json': {
    scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
  },
};
const SCRIPT = {
  'script.json': {
    default: [{ respond: { outbox_entries: [{ kind: 'message', payload: { text: 'hi' } }], notes: 'ok' } }],
  },
};

async function timelineEvents(org: string, kind: string) {
  const listed = await lemming('timeline', org, '--kind', kind, '--json', '--asc', '--limit', '1000');
  return (JSON.parse(listed.stdout).events as { event: Record<string, unknown> }[]).map((row) => row.event);
}

describe('pathological resumes', () => {
  it(
    'a 10,000-deep, a 50 MB and a binary resume are invalid with a reason in validate and run; the other agents complete',
    { timeout: 60_000 },
    async () => {
      const base = JSON.stringify(resume('deep'));
      const org = orgs.build({
        ...MODELS,
        ...SCRIPT,
        'agents/ok/resume.json': resume('ok'),
        'agents/deep/resume.json': `${base.slice(0, -1)}, "extra": ${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}}`,
        'agents/big/resume.json': resume('big', { instructions: 'x'.repeat(50 * 1024 * 1024) }),
      });
      mkdirSync(join(org, 'agents', 'bin'));
      writeFileSync(
        join(org, 'agents', 'bin', 'resume.json'),
        Buffer.from(Array.from({ length: 4096 }, (_, index) => index % 256)),
      );
      const validate = await lemming('validate', org, '--json');
      const report = JSON.parse(validate.stdout) as {
        agents: { folder: string; valid: boolean }[];
        errors: { file: string; message: string; line?: number }[];
      };
      expect(
        report.agents
          .filter((agent) => !agent.valid)
          .map((agent) => agent.folder)
          .sort(),
      ).toEqual(['big', 'bin', 'deep']);
      const reason = (folder: string) =>
        report.errors.find((error) => error.file === `agents/${folder}/resume.json`)?.message;
      expect(reason('deep')).toMatch(/nests more than 100 levels deep/);
      expect(reason('big')).toMatch(/is 52,4\d\d,\d\d\d bytes; at most 1,048,576 are read/);
      expect(reason('bin')).toMatch(/not text: it holds binary data/);

      const run = await lemming('run', org, '--ticks', '2');
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(
        /^invalid resume, deep will not run: agents\/deep\/resume\.json:1:\d+: the JSON nests more than 100 levels deep/m,
      );
      expect(run.stdout).toMatch(
        /^invalid resume, big will not run: agents\/big\/resume\.json: the file is/m,
      );
      expect(run.stdout).toMatch(
        /^invalid resume, bin will not run: agents\/bin\/resume\.json:1:1: the file is not text/m,
      );
      // Their due turns are recorded as skipped at every tick: when they would run cannot be read.
      expect(run.stdout).toMatch(/^tick 1: (\w+ skipped \(its resume cannot be used\), ){3}ok completed$/m);
      expect(run.stdout).toMatch(/^tick 2: (\w+ skipped \(its resume cannot be used\), ){3}ok completed$/m);

      const json = await lemming('run', org, '--json');
      expect(
        (JSON.parse(json.stdout) as { invalidResumes: { folder: string }[] }).invalidResumes.map(
          (agent) => agent.folder,
        ),
      ).toEqual(['big', 'bin', 'deep']);

      // One warning per invalid resume and run, not one per tick.
      const warnings = (await timelineEvents(org, 'warning')).filter(
        (event) => event.code === 'resume_invalid',
      );
      expect(warnings.map((event) => event.file)).toEqual([
        'agents/big/resume.json',
        'agents/bin/resume.json',
        'agents/deep/resume.json',
        'agents/big/resume.json',
        'agents/bin/resume.json',
        'agents/deep/resume.json',
      ]);
      expect(warnings[2]).toMatchObject({ line: 1, column: expect.any(Number) });

      const status = await lemming('status', org);
      expect(status.stdout).toMatch(
        /deep {2}INVALID: agents\/deep\/resume\.json:1:\d+: the JSON nests more than 100 levels deep/,
      );
    },
  );
});

describe('problems are visible where the user looks', () => {
  it('a malformed models.json is named as such in each failed turn', async () => {
    const org = orgs.build({
      ...SCRIPT,
      'lemming/config/models.json': '{ "scripted": { "provider": "scripted", ',
      'agents/ok/resume.json': resume('ok'),
    });
    // A models.json that cannot be read could name anything: the person trusts the org as it is first.
    expect((await lemming('trust', org, '--yes')).code).toBe(0);
    expect((await lemming('run', org, '--ticks', '2')).code).toBe(0);
    const errors = await timelineEvents(org, 'error');
    expect(errors).toHaveLength(2);
    for (const error of errors)
      expect(error.message).toMatch(
        /^lemming\/config\/models\.json:1:\d+ is not valid \(invalid JSON.*\), so no model can be called until it is fixed\.$/,
      );
  });

  it('a models.json nested 10,000 deep fails each turn with its reason and halts nothing', async () => {
    const deep = `{ "scripted": { "provider": "scripted", "model_name": "s", "provider_config": { "x": ${'['.repeat(10_000)}${']'.repeat(10_000)} } } }`;
    const org = orgs.build({
      ...SCRIPT,
      'lemming/config/models.json': deep,
      'agents/ok/resume.json': resume('ok'),
    });
    expect((await lemming('trust', org, '--yes')).code).toBe(0);
    const run = await lemming('run', org, '--ticks', '2');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^tick 2: ok failed$/m);
    const [error] = await timelineEvents(org, 'error');
    expect(error!.message).toMatch(
      /^lemming\/config\/models\.json:1:\d+ is not valid \(the JSON nests more than 100 levels deep here\)/,
    );
  });

  it('an unreadable outbox file is warned about once, not every tick, and again when it changes', async () => {
    const org = orgs.build({
      ...MODELS,
      ...SCRIPT,
      'agents/ok/resume.json': resume('ok'),
      'agents/ok/outbox/00000001_abc.json': '{ "broken": ',
    });
    expect((await lemming('run', org, '--ticks', '3')).code).toBe(0);
    expect((await lemming('run', org, '--ticks', '2')).code).toBe(0);
    const unreadable = () =>
      timelineEvents(org, 'warning').then((events) =>
        events.filter((event) => event.code === 'outbox_unreadable'),
      );
    expect(await unreadable()).toHaveLength(1);
    writeFileSync(join(org, 'agents/ok/outbox/00000001_abc.json'), '{ "still broken": ');
    expect((await lemming('run', org)).code).toBe(0);
    expect(await unreadable()).toHaveLength(2);
  });
});

describe('smaller LeMMing differences', () => {
  it('validate warns of a resume named unlike its folder and of agents nested below agents/<team>/', async () => {
    const org = orgs.build({
      ...MODELS,
      'agents/folder_a/resume.json': resume('other_name'),
      'agents/eng/bob/resume.json': resume('bob'),
    });
    const report = JSON.parse((await lemming('validate', org, '--json')).stdout) as {
      warnings: { file: string; message: string }[];
    };
    expect(report.warnings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          file: 'agents/folder_a/resume.json',
          message: 'the agent is named "other_name" but lives in folder "folder_a"',
        }),
        expect.objectContaining({
          file: 'agents/eng/bob/resume.json',
          message: expect.stringContaining('LeMMing runs this nested agent, but this app does not'),
        }),
      ]),
    );
  });

  it('prunes outbox files older than max_outbox_age_ticks after each tick, as LeMMing does, and the timeline keeps every message', async () => {
    const org = orgs.build({
      ...MODELS,
      ...SCRIPT,
      'lemming/config/org_config.json': { base_turn_seconds: 1, max_outbox_age_ticks: 2 },
      'agents/ok/resume.json': resume('ok'),
      'agents/human/outbox/00000001_0123456789abcdef0123456789abcdef.json': {
        id: '0123456789abcdef0123456789abcdef',
        tick: 1,
        agent: 'human',
        kind: 'message',
        payload: { text: 'old' },
        tags: [],
        created_at: '2026-01-01T00:00:00+00:00',
      },
    });
    expect((await lemming('run', org, '--ticks', '5')).code).toBe(0);
    // After tick 5, LeMMing keeps files whose tick is at least 5 - 2 = 3.
    expect(
      readdirSync(join(org, 'agents/ok/outbox'))
        .filter((name) => name.endsWith('.json'))
        .map((name) => Number(name.slice(0, 8))),
    ).toEqual([3, 4, 5]);
    expect(readdirSync(join(org, 'agents/human/outbox'))).toEqual([]);
    expect(await timelineEvents(org, 'message')).toHaveLength(6);
    const pruned = await timelineEvents(org, 'outbox_pruned');
    expect(pruned.flatMap((event) => event.files as string[])).toHaveLength(3);
  });
});

describe('an org whose run lock cannot be taken', () => {
  it('is refused in one plain line naming the lock, with no stack trace', async () => {
    const org = orgs.build({ ...MODELS, ...SCRIPT, 'agents/ok/resume.json': resume('ok') });
    mkdirSync(join(org, '.lemming', 'run.lock'), { recursive: true });
    const run = await lemming('run', org, '--ticks', '1');
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/LeMMing cannot take its run lock \(\.lemming\/run\.lock in the org folder\)/),
    ]);
  });
});

describe('an agent whose resume.json cannot be read', () => {
  it('is named as unreadable, not invalid, and its turn is shown skipped while the others run', async () => {
    const org = orgs.build({ ...MODELS, ...SCRIPT, 'agents/ok/resume.json': resume('ok') });
    mkdirSync(join(org, 'agents', 'w1', 'resume.json'), { recursive: true });
    const run = await lemming('run', org, '--ticks', '1');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /^unreadable resume, w1's turns are skipped until it can be read: agents\/w1\/resume\.json: cannot read: EISDIR/m,
    );
    expect(run.stdout).not.toMatch(/invalid resume/);
    expect(run.stdout).toMatch(/^tick 1: w1 skipped \(its resume cannot be used\), ok completed$/m);
  });
});
