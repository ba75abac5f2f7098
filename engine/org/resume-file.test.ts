import { cp, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkResumeText, createResumeText, readResume, updateResume } from './resume-file';

const EXAMPLE_ORG = resolve(import.meta.dirname, '../../../shared/fixtures/lemming-upstream/example-org');

let org: string;

beforeEach(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'lemming-resume-'));
  org = join(dir, 'org');
  await cp(EXAMPLE_ORG, org, { recursive: true });
});

afterEach(async () => {
  await rm(join(org, '..'), { recursive: true, force: true });
});

const resumePath = (folder: string) => join(org, 'agents', folder, 'resume.json');

/** A resume with unknown fields at every depth, unusual spellings and an inline object. */
const DECORATED = `{
  "name": "decorated",
  "x_top_unknown": {"keep": ["me", 1.50, 1e3]},
  "title": "Caf\\u00e9 helper",
  "short_description": "d",
  "instructions": "i",
  "model": {"key": "gpt-4o", "temperature": 0.0, "x_model_unknown": true},
  "permissions": {
    "read_outboxes": ["human"],
    "tools": ["file_read"],
    "x_permissions_unknown": {"nested": {"deeper": [null]}},
    "file_access": {
      "allow_read": ["shared"],
      "x_file_access_unknown": 7
    }
  },
  "schedule": {
    "run_every_n_ticks": "2",
    "phase_offset": 0
  }
}
`;

describe('readResume', () => {
  it('reads a LeMMing resume with its text, raw document and parsed resume', async () => {
    const read = await readResume(org, 'log_summarizer');
    expect(read.ok).toBe(true);
    if (!read.ok) return;
    expect(read.text).toBe(await readFile(resumePath('log_summarizer'), 'utf8'));
    expect(read.value.schedule).toMatchObject({ run_every_n_ticks: 5, phase_offset: 1 });
    expect(read.raw.credits).toEqual({ max_credits: 350, soft_cap: 175 });
    expect(read.warnings).toEqual([]);
  });

  it('says when the agent has no resume.json', async () => {
    const read = await readResume(org, 'nobody');
    expect(read).toMatchObject({
      ok: false,
      error: [{ file: 'agents/nobody/resume.json', message: 'agents/nobody has no resume.json' }],
    });
  });

  it('refuses folder names that would leave agents/', async () => {
    for (const folder of ['..', '../agents/human', 'a/b', 'a\\b', '', '.hidden']) {
      const read = await readResume(org, folder);
      expect(read.ok).toBe(false);
      if (!read.ok) expect(read.error[0]?.message).toMatch(/is not an agent folder name/);
    }
  });
});

describe('updateResume', () => {
  beforeEach(async () => {
    await mkdir(join(org, 'agents', 'decorated'), { recursive: true });
    await writeFile(resumePath('decorated'), DECORATED);
  });

  it('keeps unknown fields at every depth and the bytes of everything untouched', async () => {
    const updated = await updateResume(org, 'decorated', [
      { path: ['permissions', 'tools'], value: ['file_read', 'file_write'] },
      { path: ['schedule', 'run_every_n_ticks'], value: 3 },
      { path: ['permissions', 'file_access', 'allow_read'], value: ['shared', 'workspace'] },
    ]);
    expect(updated.ok).toBe(true);
    const expected = DECORATED.replace('"tools": ["file_read"]', '"tools": ["file_read", "file_write"]')
      .replace('"run_every_n_ticks": "2"', '"run_every_n_ticks": 3')
      .replace('"allow_read": ["shared"]', '"allow_read": ["shared", "workspace"]');
    expect(await readFile(resumePath('decorated'), 'utf8')).toBe(expected);
  });

  it('adds a missing nested object at the end of its parent, in the file’s layout', async () => {
    const updated = await updateResume(org, 'human', [
      { path: ['permissions', 'file_access', 'allow_write'], value: ['shared'] },
    ]);
    expect(updated.ok && updated.changed).toBe(true);
    const text = await readFile(resumePath('human'), 'utf8');
    expect(text).toContain(
      '    "tools": [],\n    "file_access": {\n      "allow_write": [\n        "shared"\n      ]\n    }\n  },\n',
    );
    expect(text).toContain('"model": {"key": "none", "temperature": 0},');
  });

  it('refuses an edit that would make the resume invalid, and writes nothing', async () => {
    const before = await readFile(resumePath('decorated'), 'utf8');
    const updated = await updateResume(org, 'decorated', [
      { path: ['schedule', 'run_every_n_ticks'], value: 0 },
      { path: ['permissions', 'tools'], value: 'shell' },
    ]);
    expect(updated).toEqual({
      ok: false,
      error: [
        {
          file: 'agents/decorated/resume.json',
          field: 'permissions.tools',
          message: 'tools must be a list of names',
          line: 10,
          column: 14,
        },
        {
          file: 'agents/decorated/resume.json',
          field: 'schedule.run_every_n_ticks',
          message: 'run_every_n_ticks must be at least 1',
          line: 18,
          column: 26,
        },
      ],
    });
    expect(await readFile(resumePath('decorated'), 'utf8')).toBe(before);
  });

  it('repairs an invalid resume when the edit makes it valid', async () => {
    await writeFile(resumePath('decorated'), DECORATED.replace('"phase_offset": 0', '"phase_offset": "0"'));
    expect((await readResume(org, 'decorated')).ok).toBe(false);
    const updated = await updateResume(org, 'decorated', [{ path: ['schedule', 'phase_offset'], value: 0 }]);
    expect(updated.ok).toBe(true);
    expect((await readResume(org, 'decorated')).ok).toBe(true);
  });

  it('does not touch the file when nothing changes', async () => {
    const updated = await updateResume(org, 'echo_cli', [{ path: ['model', 'temperature'], value: 0 }]);
    expect(updated.ok && updated.changed).toBe(false);
    expect(await readFile(resumePath('echo_cli'), 'utf8')).toContain('"temperature": 0.0,');
  });

  it('loses no update when edits of one resume are made at the same time', async () => {
    const tools = Array.from({ length: 12 }, (_, index) => `tool_${index}`);
    const results = await Promise.all(
      tools.map((tool, index) =>
        updateResume(org, 'decorated', [{ path: ['x_counters', tool], value: index }]),
      ),
    );
    expect(results.every((result) => result.ok)).toBe(true);
    const read = await readResume(org, 'decorated');
    expect(read.ok && Object.keys(read.raw.x_counters as object)).toEqual(tools);
    expect(await readdir(join(org, 'agents', 'decorated'))).toEqual(['resume.json']);
  });

  it('reports a path that cannot be edited with its place in the file', async () => {
    const updated = await updateResume(org, 'decorated', [{ path: ['title', 'x'], value: 1 }]);
    expect(updated).toMatchObject({
      ok: false,
      error: [{ field: 'title.x', message: 'title is not an object or list', line: 4 }],
    });
  });
});

describe('createResumeText', () => {
  it('writes a resume LeMMing reads: normalized values, its field order, two-space indent', () => {
    const created = createResumeText({
      schedule: { phase_offset: 0, run_every_n_ticks: '2' },
      permissions: {
        tools: ['file_read'],
        read_outboxes: ['human'],
        file_access: { allow_read: ['shared'] },
      },
      model: 'gpt-4o-mini',
      instructions: 'Write specs.',
      title: 'Spec writer',
      name: 'specs',
      tools_profile: 'auto',
    });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    expect(created.text).toBe(
      [
        '{',
        '  "name": "specs",',
        '  "title": "Spec writer",',
        '  "short_description": "Spec writer",',
        '  "instructions": "Write specs.",',
        '  "model": {',
        '    "key": "gpt-4o-mini"',
        '  },',
        '  "permissions": {',
        '    "read_outboxes": [',
        '      "human"',
        '    ],',
        '    "tools": [',
        '      "file_read"',
        '    ],',
        '    "file_access": {',
        '      "allow_read": [',
        '        "shared"',
        '      ]',
        '    }',
        '  },',
        '  "schedule": {',
        '    "run_every_n_ticks": 2,',
        '    "phase_offset": 0',
        '  },',
        '  "tools_profile": "auto"',
        '}',
        '',
      ].join('\n'),
    );
    expect(created.warnings).toEqual([]);
    expect(checkResumeText(created.text, 'x').ok).toBe(true);
  });

  it('returns the problems of a draft that is not a valid resume', () => {
    const created = createResumeText({ name: 'x y', title: 't' });
    expect(created.ok).toBe(false);
    if (!created.ok) {
      expect(created.error.map((problem) => problem.field)).toEqual([
        'name',
        'instructions',
        'model',
        'permissions',
        'schedule',
      ]);
      expect(created.error[1]?.message).toBe('missing required field "instructions"');
    }
  });

  it('warns about what LeMMing would refuse to run', () => {
    const created = createResumeText({
      name: 'Backend-Dev',
      title: 'Backend',
      instructions: '',
      model: { key: 'm' },
      permissions: { read_outboxes: [], tools: [] },
      schedule: { run_every_n_ticks: 1, phase_offset: 0 },
    });
    expect(created.ok && created.warnings.map((warning) => warning.field)).toEqual(['name', 'instructions']);
  });
});
