import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { discoverAgents } from './discover';
import { importLegacyResume } from './import-legacy-resume';
import { parseLegacyResumeTxt } from './legacy-resume-txt';
import { ResumeSchema } from './resume-schema';

const EXAMPLE_ORG = resolve(import.meta.dirname, '../../../shared/fixtures/lemming-upstream/example-org');
const foldersWithTxt = readdirSync(join(EXAMPLE_ORG, 'agents')).filter((folder) =>
  existsSync(join(EXAMPLE_ORG, 'agents', folder, 'resume.txt')),
);

describe('parseLegacyResumeTxt on the LeMMing example resume.txt files', () => {
  it('finds the three example files', () => {
    expect(foldersWithTxt).toEqual(['log_summarizer', 'spec_writer', 'ui_copy_editor']);
  });

  it.each(foldersWithTxt)(
    'maps agents/%s/resume.txt to a valid resume matching its resume.json',
    (folder) => {
      const text = readFileSync(join(EXAMPLE_ORG, 'agents', folder, 'resume.txt'), 'utf8');
      const parsed = parseLegacyResumeTxt(text, folder);
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      const resume = ResumeSchema.parse(parsed.value);
      const current = ResumeSchema.parse(
        JSON.parse(readFileSync(join(EXAMPLE_ORG, 'agents', folder, 'resume.json'), 'utf8')),
      );
      for (const field of [
        'name',
        'title',
        'short_description',
        'model',
        'permissions',
        'schedule',
        'credits',
      ] as const) {
        expect(resume[field], field).toEqual(current[field]);
      }
      expect(resume.workflow_description).toMatch(/^\S.*\S$/);
      expect(resume.instructions.startsWith('[') || resume.instructions.endsWith(']')).toBe(false);
      expect(parsed.warnings).toEqual([]);
      expect(parsed.value.legacy_resume_txt).toBeUndefined();
    },
  );
});

describe('parseLegacyResumeTxt on the older config keys', () => {
  const older = [
    'Name: researcher',
    'Role: Researcher',
    'Description: Finds things.',
    'Team: blue',
    '',
    '[INSTRUCTIONS]',
    '  Search, then report.',
    '',
    '[CONFIG]',
    '{"model": "gpt-4o", "read_from": ["manager"], "send_to": ["manager"], "tools": ["file_read"], "org_speed_multiplier": "3", "priority": 2}',
  ].join('\n');

  it('maps model text, read_from, send_to, tools and org_speed_multiplier, keeping leftovers', () => {
    const parsed = parseLegacyResumeTxt(older, 'researcher');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toEqual({
      name: 'researcher',
      title: 'Researcher',
      short_description: 'Finds things.',
      workflow_description: '',
      instructions: 'Search, then report.',
      model: { key: 'gpt-4o', temperature: 0.2, max_tokens: 2048 },
      permissions: { read_outboxes: ['manager'], tools: ['file_read'], send_outboxes: ['manager'] },
      schedule: { run_every_n_ticks: '3', phase_offset: 0 },
      legacy_resume_txt: { header: { team: 'blue' }, config: { priority: 2 } },
    });
    expect(ResumeSchema.parse(parsed.value).schedule.run_every_n_ticks).toBe(3);
  });

  it("uses migrate-resumes' defaults for what is missing, and says the agent will read every outbox", () => {
    const parsed = parseLegacyResumeTxt('[INSTRUCTIONS]\nDo.\n[CONFIG]\n{}', 'log_reader');
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.value).toMatchObject({
      title: 'Log Reader',
      short_description: 'A LeMMing agent.',
      model: { key: 'gpt-4.1-mini' },
      permissions: { read_outboxes: ['*'], tools: ['memory_read', 'memory_write'] },
      schedule: { run_every_n_ticks: 1, phase_offset: 0 },
    });
    expect(parsed.warnings.map((warning) => warning.field)).toEqual(['permissions.read_outboxes']);
  });

  it('keeps an empty read_from empty instead of widening it', () => {
    const parsed = parseLegacyResumeTxt('[INSTRUCTIONS]\nDo.\n[CONFIG]\n{"read_from": []}', 'quiet');
    expect(parsed.ok && parsed.value.permissions).toEqual({
      read_outboxes: [],
      tools: ['memory_read', 'memory_write'],
    });
  });

  it('warns when the Name header differs from the folder the agent is named after', () => {
    const parsed = parseLegacyResumeTxt('Name: someone\n[INSTRUCTIONS]\nDo.\n[CONFIG]\n{}', 'folder_name');
    expect(parsed.ok && parsed.value.name).toBe('folder_name');
    expect(parsed.ok && parsed.warnings.map((warning) => warning.field)).toContain('name');
  });
});

describe('parseLegacyResumeTxt reports broken files', () => {
  it('needs both sections, in order', () => {
    expect(parseLegacyResumeTxt('Name: x\n[CONFIG]\n{}', 'x')).toMatchObject({
      ok: false,
      error: [{ message: expect.stringMatching(/needs a \[INSTRUCTIONS\] section/) }],
    });
    expect(parseLegacyResumeTxt('[CONFIG]\n{}\n[INSTRUCTIONS]\nDo.', 'x')).toMatchObject({
      ok: false,
      error: [{ message: expect.stringMatching(/needs a \[CONFIG\] section/) }],
    });
  });

  it('places a JSON error in the [CONFIG] section on its line of resume.txt', () => {
    const text = 'Name: x\n\n[INSTRUCTIONS]\nDo.\n\n[CONFIG]\n{\n  "model": "m",\n  "tools": [1,]\n}\n';
    expect(parseLegacyResumeTxt(text, 'x')).toMatchObject({
      ok: false,
      error: [{ file: 'agents/x/resume.txt', field: '[CONFIG]', line: 9, column: 15 }],
    });
  });

  it('needs the config to be an object', () => {
    expect(parseLegacyResumeTxt('[INSTRUCTIONS]\nDo.\n[CONFIG]\n[1]', 'x')).toMatchObject({
      ok: false,
      error: [{ message: 'the [CONFIG] section must be a JSON object' }],
    });
  });
});

describe('importLegacyResume', () => {
  let org: string;

  beforeEach(async () => {
    org = await mkdtemp(join(tmpdir(), 'lemming-legacy-'));
    await cp(
      join(EXAMPLE_ORG, 'agents', 'spec_writer', 'resume.txt'),
      join(org, 'agents', 'spec_writer', 'resume.txt'),
    );
  });

  afterEach(async () => {
    await rm(org, { recursive: true, force: true });
  });

  it('writes a resume.json that discovery then finds valid, leaving resume.txt alone', async () => {
    const before = await discoverAgents(org);
    expect(before.map((agent) => agent.valid)).toEqual([false]);

    const imported = await importLegacyResume(org, 'spec_writer');
    expect(imported.ok).toBe(true);
    const written = await readFile(join(org, 'agents', 'spec_writer', 'resume.json'), 'utf8');
    expect(imported.ok && imported.text).toBe(written);
    expect(written.startsWith('{\n  "name": "spec_writer",\n  "title": "Org spec snapshotter",\n')).toBe(
      true,
    );

    const after = await discoverAgents(org);
    expect(after.map((agent) => [agent.folder, agent.valid])).toEqual([['spec_writer', true]]);
    expect(await readFile(join(org, 'agents', 'spec_writer', 'resume.txt'), 'utf8')).toBe(
      await readFile(join(EXAMPLE_ORG, 'agents', 'spec_writer', 'resume.txt'), 'utf8'),
    );
  });

  it('refuses to overwrite an existing resume.json', async () => {
    await writeFile(join(org, 'agents', 'spec_writer', 'resume.json'), '{"mine": true}');
    const imported = await importLegacyResume(org, 'spec_writer');
    expect(imported).toMatchObject({
      ok: false,
      error: [{ message: 'agents/spec_writer already has a resume.json; nothing was imported' }],
    });
    expect(await readFile(join(org, 'agents', 'spec_writer', 'resume.json'), 'utf8')).toBe('{"mine": true}');
  });

  it('reports what the imported resume would get wrong, and writes nothing', async () => {
    await mkdir(join(org, 'agents', 'odd'), { recursive: true });
    await writeFile(
      join(org, 'agents', 'odd', 'resume.txt'),
      '[INSTRUCTIONS]\nDo.\n[CONFIG]\n{"org_speed_multiplier": "2.5"}',
    );
    const imported = await importLegacyResume(org, 'odd');
    expect(imported).toMatchObject({
      ok: false,
      error: [
        {
          file: 'agents/odd/resume.txt',
          field: 'schedule.run_every_n_ticks',
          message: 'after import: run_every_n_ticks must be a whole number',
        },
      ],
    });
    expect(existsSync(join(org, 'agents', 'odd', 'resume.json'))).toBe(false);
  });
});
