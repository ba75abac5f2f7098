import { spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { lemmingCheckout } from '../../test/test-support/lemming-checkout';
import { readDepartments, saveDepartmentFile } from './departments-folder';

const FIXTURES = resolve(import.meta.dirname, '../../../shared/fixtures/lemming-upstream');
const LEMMING_CHECKOUT = lemmingCheckout();

let org: string;

beforeEach(async () => {
  org = await mkdtemp(join(tmpdir(), 'lemming-departments-'));
});

afterEach(async () => {
  await rm(org, { recursive: true, force: true });
});

async function writeDepartment(name: string, text: string): Promise<void> {
  await mkdir(join(org, 'departments'), { recursive: true });
  await writeFile(join(org, 'departments', `${name}.json`), text);
}

describe('departments/*.json', () => {
  it("reads LeMMing's example departments", async () => {
    await cp(join(FIXTURES, 'example-org', 'departments'), join(org, 'departments'), { recursive: true });
    const read = await readDepartments(org);
    expect(read.problems).toEqual([]);
    expect(read.departments.map((department) => department.name)).toEqual(['content_team', 'research']);
    expect(read.departments[1]).toMatchObject({
      description: 'Handles research tasks and information gathering',
      version: '1.0.0',
      author: 'LeMMing Team',
      tags: ['research', 'information', 'analysis'],
      agents: [],
      file: 'departments/research.json',
    });
    expect(read.departments[1]?.readme).toContain('# Research Department');
  });

  it("gives a LeMMing file, which lists no agents, LeMMing's members: the agents whose folder holds its name", async () => {
    for (const folder of ['research_lead', 'market_research', 'writer'])
      await mkdir(join(org, 'agents', folder), { recursive: true });
    await writeDepartment('research', '{"name": "research", "description": "Finds things out"}');
    await writeDepartment('desk', '{"name": "desk", "description": "Writes", "agents": ["writer"]}');
    const read = await readDepartments(org);
    expect(read.departments.map(({ name, agents }) => ({ name, agents }))).toEqual([
      { name: 'desk', agents: ['writer'] },
      { name: 'research', agents: ['market_research', 'research_lead'] },
    ]);
  });

  it('means no departments when the folder is missing', async () => {
    expect(await readDepartments(org)).toEqual({ departments: [], problems: [], warnings: [] });
  });

  it('reports a bad file with its file, field and line, and still reads its neighbours', async () => {
    await writeDepartment('good', '{"name": "good", "description": "fine"}');
    await writeDepartment('bad', '{\n  "name": "bad",\n  "description": "x",\n  "tags": "one"\n}');
    await writeDepartment('broken', '{"name": ');
    const read = await readDepartments(org);
    expect(read.departments.map((department) => department.name)).toEqual(['good']);
    expect(read.problems).toEqual([
      expect.objectContaining({ file: 'departments/bad.json', field: 'tags', line: 4 }),
      expect.objectContaining({ file: 'departments/broken.json', field: '' }),
    ]);
  });

  it('says when a department is missing its description', async () => {
    await writeDepartment('quiet', '{"name": "quiet"}');
    expect((await readDepartments(org)).problems).toEqual([
      expect.objectContaining({ field: 'description', message: 'missing required field "description"' }),
    ]);
  });

  it('warns when the name inside differs from the file name', async () => {
    await writeDepartment('ops', '{\n  "name": "operations",\n  "description": "x"\n}');
    expect((await readDepartments(org)).warnings).toEqual([
      expect.objectContaining({ file: 'departments/ops.json', field: 'name', line: 2 }),
    ]);
  });

  it('writes a new department with the keys LeMMing writes, in its order, and reads it back', async () => {
    const saved = await saveDepartmentFile(
      org,
      { name: 'desk', description: 'Watches sources', agents: ['ada', 'bo'], tags: ['news'] },
      new Date('2026-01-02T03:04:05Z'),
    );
    expect(saved.ok).toBe(true);
    const written = JSON.parse(await readFile(join(org, 'departments', 'desk.json'), 'utf8')) as object;
    expect(Object.keys(written)).toEqual([
      'name',
      'description',
      'version',
      'created_at',
      'dependencies',
      'tags',
      'author',
      'contact',
      'readme',
      'agents',
    ]);
    expect(written).toMatchObject({ version: '1.0.0', created_at: '2026-01-02T03:04:05.000Z' });
    expect((await readDepartments(org)).departments).toEqual([
      {
        name: 'desk',
        description: 'Watches sources',
        version: '1.0.0',
        tags: ['news'],
        author: '',
        readme: '',
        agents: ['ada', 'bo'],
        file: 'departments/desk.json',
      },
    ]);
  });

  it('edits an existing file in place: its version, unknown keys and spacing stay', async () => {
    const before =
      '{\n    "name": "desk",\n    "description": "old",\n    "version": "2.1",\n    "x_owner": {"team": 7}\n}\n';
    await writeDepartment('desk', before);
    const saved = await saveDepartmentFile(org, { name: 'desk', description: 'new', agents: ['ada'] });
    expect(saved.ok).toBe(true);
    const after = await readFile(join(org, 'departments', 'desk.json'), 'utf8');
    expect(after).toContain('"version": "2.1"');
    expect(after).toContain('"x_owner": {"team": 7}');
    expect(after).toContain('    "description": "new"');
    expect(JSON.parse(after)).toMatchObject({ agents: ['ada'] });
  });

  it('refuses to save over a file it cannot read as a department, and leaves it alone', async () => {
    await writeDepartment('desk', '{"name": "desk", "description": "x", "tags": 3}');
    const saved = await saveDepartmentFile(org, { name: 'desk', description: 'y', agents: [] });
    expect(saved).toMatchObject({ ok: false, error: [expect.objectContaining({ field: 'tags' })] });
    expect(await readFile(join(org, 'departments', 'desk.json'), 'utf8')).toContain('"tags": 3');
  });

  it.skipIf(LEMMING_CHECKOUT === null)(
    "is read by LeMMing's department-list and department-show, and reads what its department-create writes (needs a LeMMing checkout at $LEMMING_CHECKOUT or /tmp/c-lemming)",
    async () => {
      await saveDepartmentFile(org, {
        name: 'desk',
        description: 'Watches sources and writes a weekly brief',
        agents: ['ada'],
        tags: ['news', 'weekly'],
        author: 'Kim',
        readme: '# The desk',
      });
      const lemming = (...args: string[]) =>
        spawnSync('python3', ['-m', 'lemming.cli', '--base-path', org, ...args], {
          cwd: LEMMING_CHECKOUT!,
          encoding: 'utf8',
          timeout: 30_000,
        });
      const list = lemming('department-list');
      expect(list.status).toBe(0);
      expect(list.stdout).toContain('desk v1.0.0');
      expect(list.stdout).toContain('Watches sources and writes a weekly brief');
      expect(list.stdout).toContain('Author: Kim');
      expect(list.stdout).toContain('Tags: news, weekly');
      const show = lemming('department-show', 'desk');
      expect(show.status).toBe(0);
      expect(show.stdout).toContain('# The desk');

      // Its department-create writes the file, then exits 1 in its own logging (an `extra` key "name"
      // clashes with LogRecord's), so only the file is looked at.
      lemming('department-create', 'ops', '-d', 'Keeps the lights on', '-a', 'Sam');
      expect(
        (await readDepartments(org)).departments.find((department) => department.name === 'ops'),
      ).toMatchObject({
        description: 'Keeps the lights on',
        author: 'Sam',
        version: '1.0.0',
        agents: [],
      });
    },
  );
});
