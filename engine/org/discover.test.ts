import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readTextFile } from '../files/read-text-file';
import { discoverAgents, ResumeCache, type DiscoveredAgent, type ResumeReader } from './discover';
import { MAX_RESUME_BYTES } from './resume-file';
import { openOrg } from './open-org';

const EXAMPLE_ORG = resolve(import.meta.dirname, '../../../shared/fixtures/lemming-upstream/example-org');

let org: string;

beforeEach(async () => {
  org = await mkdtemp(join(tmpdir(), 'lemming-discover-'));
});

afterEach(async () => {
  await rm(org, { recursive: true, force: true });
});

function resume(name: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify(
    {
      name,
      title: `${name} title`,
      short_description: 'd',
      instructions: 'i',
      model: { key: 'gpt-4o-mini' },
      permissions: { read_outboxes: [], tools: [] },
      schedule: { run_every_n_ticks: 1, phase_offset: 0 },
      ...extra,
    },
    null,
    2,
  );
}

async function writeAgent(folder: string, text: string, file = 'resume.json'): Promise<void> {
  await mkdir(join(org, 'agents', folder), { recursive: true });
  await writeFile(join(org, 'agents', folder, file), text);
}

function byFolder(agents: DiscoveredAgent[], folder: string): DiscoveredAgent {
  const agent = agents.find((candidate) => candidate.folder === folder);
  if (!agent) throw new Error(`no agent in ${folder}`);
  return agent;
}

describe('discoverAgents on the LeMMing example org', () => {
  it('finds every example agent valid, skips agent_template, and warns about nothing', async () => {
    await cp(EXAMPLE_ORG, org, { recursive: true });
    const agents = await discoverAgents(org);
    expect(agents.map((agent) => agent.folder)).toEqual([
      'echo_cli',
      'human',
      'log_summarizer',
      'manager',
      'manager_cli',
      'spec_writer',
      'ui_copy_editor',
    ]);
    expect(agents.every((agent) => agent.valid && agent.warnings.length === 0)).toBe(true);
  });
});

describe('discoverAgents looks only at agents/<folder>/resume.json', () => {
  it('ignores a resume.json an agent wrote deeper in its own folders', async () => {
    await writeAgent('worker', resume('worker'));
    await mkdir(join(org, 'agents', 'worker', 'workspace', 'sub'), { recursive: true });
    await writeFile(
      join(org, 'agents', 'worker', 'workspace', 'sub', 'resume.json'),
      resume('escalated', { permissions: { read_outboxes: ['*'], tools: ['shell'] } }),
    );
    await mkdir(join(org, 'agents', 'worker', 'outbox'), { recursive: true });
    await writeFile(join(org, 'agents', 'worker', 'outbox', 'resume.json'), resume('sneaky'));

    const agents = await discoverAgents(org);
    expect(agents.map((agent) => agent.folder)).toEqual(['worker']);
  });

  it('skips agent_template, hidden folders, loose files and folders without a resume', async () => {
    await writeAgent('agent_template', resume('agent_template'));
    await writeAgent('.trash', resume('trash'));
    await mkdir(join(org, 'agents', 'empty'), { recursive: true });
    await writeFile(join(org, 'agents', 'resume.json'), resume('loose'));
    await writeAgent('real', resume('real'));
    expect((await discoverAgents(org)).map((agent) => agent.folder)).toEqual(['real']);
  });

  it('returns nothing for an org without an agents folder', async () => {
    expect(await discoverAgents(org)).toEqual([]);
  });
});

describe('discoverAgents reports invalid resumes instead of failing', () => {
  it('reports invalid JSON with its line and column', async () => {
    await writeAgent('broken', '{\n  "name": "broken",\n  "title": "x",,\n}');
    const agent = byFolder(await discoverAgents(org), 'broken');
    expect(agent.valid).toBe(false);
    if (agent.valid) return;
    expect(agent.name).toBe('broken');
    expect(agent.problems).toHaveLength(1);
    expect(agent.problems[0]).toMatchObject({
      file: 'agents/broken/resume.json',
      field: '',
      line: 3,
      column: 16,
    });
    expect(agent.problems[0]?.message).toMatch(/^invalid JSON/);
  });

  it('names each schema problem with its field and line, and says when a field is missing', async () => {
    await writeAgent(
      'bad',
      '{\n  "name": "bad",\n  "title": 5,\n  "instructions": "",\n  "model": {"key": "m"},\n  "permissions": {"tools": []},\n  "schedule": {"run_every_n_ticks": "2.5", "phase_offset": 0}\n}',
    );
    const agent = byFolder(await discoverAgents(org), 'bad');
    if (agent.valid) throw new Error('expected invalid');
    expect(agent.title).toBeNull();
    expect(agent.problems).toEqual([
      { file: 'agents/bad/resume.json', field: 'title', message: 'title must be text', line: 3, column: 12 },
      {
        file: 'agents/bad/resume.json',
        field: 'permissions.read_outboxes',
        message: 'missing required field "permissions.read_outboxes"',
        line: 6,
        column: 18,
      },
      {
        file: 'agents/bad/resume.json',
        field: 'schedule.run_every_n_ticks',
        message: 'run_every_n_ticks must be a whole number',
        line: 7,
        column: 37,
      },
    ]);
  });

  it('lists a folder with only a legacy resume.txt as invalid, offering the import', async () => {
    await writeAgent('old', 'Name: old\nRole: Old\n\n[INSTRUCTIONS]\nDo.\n\n[CONFIG]\n{}\n', 'resume.txt');
    const agent = byFolder(await discoverAgents(org), 'old');
    if (agent.valid) throw new Error('expected invalid');
    expect(agent.problems).toEqual([
      {
        file: 'agents/old/resume.txt',
        field: '',
        message: 'this agent only has a legacy resume.txt; import it to create its resume.json',
      },
    ]);
  });

  it('makes a second agent claiming a taken name invalid, in code-point order of folders', async () => {
    await writeAgent('b_copy', resume('alpha'));
    await writeAgent('a_first', resume('alpha'));
    const agents = await discoverAgents(org);
    expect(byFolder(agents, 'a_first').valid).toBe(true);
    const copy = byFolder(agents, 'b_copy');
    expect(copy.valid).toBe(false);
    if (!copy.valid)
      expect(copy.problems[0]?.message).toBe('the name "alpha" is already used by agents/a_first');
  });

  it('warns when the name differs from the folder, and when LeMMing would not run the resume', async () => {
    await writeAgent('folder_name', resume('Other-Name', { short_description: '', instructions: '' }));
    const agent = byFolder(await discoverAgents(org), 'folder_name');
    expect(agent.valid).toBe(true);
    expect(agent.warnings.map((warning) => `${warning.field}: ${warning.message}`)).toEqual([
      'name: the agent is named "Other-Name" but lives in folder "folder_name"',
      'short_description: LeMMing skips this agent: it needs a short_description',
      `name: LeMMing's validate rejects this and its run will not start: name must start with a lowercase letter and use only lowercase letters, digits and "_"`,
      `instructions: LeMMing's validate rejects this and its run will not start: instructions must not be empty`,
    ]);
  });
});

describe('openOrg', () => {
  it('counts agents and invalid agents', async () => {
    await writeAgent('good', resume('good'));
    await writeAgent('bad', '{');
    const opened = await openOrg(org);
    expect(opened.summary).toMatchObject({ agentCount: 2, invalidAgentCount: 1 });
    expect(opened.agents.map((agent) => [agent.folder, agent.valid])).toEqual([
      ['bad', false],
      ['good', true],
    ]);
  });

  it('fails only when the folder itself is missing', async () => {
    await expect(openOrg(join(org, 'nope'))).rejects.toThrow(/No folder/);
  });
});

describe('discoverAgents with a resume cache', () => {
  const resumeOf = (agents: DiscoveredAgent[], folder: string) => {
    const agent = agents.find((candidate) => candidate.folder === folder);
    if (!agent?.valid) throw new Error(`${folder} is not a valid agent`);
    return agent.resume;
  };

  it('reuses the checked resume while the file is unchanged and sees an edit at once', async () => {
    await writeAgent('alpha', resume('alpha'));
    await writeAgent('beta', resume('beta'));
    const cache = new ResumeCache();
    const first = await discoverAgents(org, cache);
    const second = await discoverAgents(org, cache);
    expect(resumeOf(second, 'alpha')).toBe(resumeOf(first, 'alpha'));
    expect(Object.isFrozen(resumeOf(second, 'alpha').permissions)).toBe(true);

    await writeAgent('alpha', resume('alpha', { title: 'Edited title' }));
    const third = await discoverAgents(org, cache);
    expect(resumeOf(third, 'alpha').title).toBe('Edited title');
    expect(resumeOf(third, 'beta')).toBe(resumeOf(first, 'beta'));
  });

  it('finds the same agents and problems as a discovery without a cache', async () => {
    await writeAgent('alpha', resume('alpha'));
    await writeAgent('broken', '{ "name": "broken",');
    await writeAgent('twin', resume('alpha'));
    const cache = new ResumeCache();
    await discoverAgents(org, cache);
    expect(await discoverAgents(org, cache)).toEqual(await discoverAgents(org));
  });
});

describe('discoverAgents when a resume cannot be read', () => {
  it('tries a failed read again, so a read error of a moment does not take the agent out', async () => {
    await writeAgent('w1', resume('w1'));
    let failures = 2;
    const flakyReader: ResumeReader = async (path, options) =>
      failures-- > 0
        ? { found: false, missing: false, message: 'cannot read: EIO: i/o error, read' }
        : readTextFile(path, options);
    expect(byFolder(await discoverAgents(org, undefined, flakyReader), 'w1').valid).toBe(true);
  });

  it('reports a read that keeps failing as a read error, not as an invalid resume', async () => {
    await mkdir(join(org, 'agents', 'w1', 'resume.json'), { recursive: true });
    const agent = byFolder(await discoverAgents(org), 'w1');
    expect(agent).toMatchObject({ valid: false, readError: expect.stringMatching(/^cannot read: EISDIR/) });
  });

  it('counts a resume over the size limit as invalid, not as unreadable', async () => {
    await writeAgent('w1', `${resume('w1')}${' '.repeat(MAX_RESUME_BYTES)}`);
    const agent = byFolder(await discoverAgents(org), 'w1');
    expect(agent.valid).toBe(false);
    expect(agent).not.toHaveProperty('readError');
  });
});
