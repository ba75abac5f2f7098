import { describe, expect, it } from 'vitest';
import type { AgentDefinition } from './agent-definition';
import { diffAgent, planAgentUpdates } from './agent-update-diff';
import { ResumeSchema } from './resume-schema';

type Raw = Record<string, unknown>;

const baseResume = (name: string): Raw => ({
  name,
  title: 'Writer',
  short_description: 'Writes the brief',
  instructions: 'Read the sources.\nWrite the weekly brief.\nSign it.',
  model: { key: 'scripted' },
  permissions: { read_outboxes: ['editor'], tools: ['file_read'] },
  schedule: { run_every_n_ticks: 1, phase_offset: 0 },
  credits: { max_credits: 100, soft_cap: 50 },
});

function definition(raw: Raw, toolFiles: Record<string, string> = {}): AgentDefinition {
  const name = raw.name as string;
  return {
    name,
    folder: name,
    resumeText: JSON.stringify(raw),
    raw,
    resume: ResumeSchema.parse(raw),
    toolFiles,
  };
}

function changed(patch: (raw: Raw) => void, toolFiles: Record<string, string> = {}) {
  const after = structuredClone(baseResume('writer'));
  patch(after);
  return diffAgent('writer', definition(baseResume('writer')), definition(after, toolFiles));
}

describe('diffAgent', () => {
  it('finds nothing to change in an agent defined alike', () => {
    expect(changed(() => {})).toMatchObject({
      status: 'unchanged',
      changes: [],
      instructionsDiff: null,
      widens: false,
    });
  });

  it('shows new instructions in words and as a line diff', () => {
    const update = changed((raw) => {
      raw.instructions = 'Read the sources.\nWrite the daily brief.\nSign it.';
    });
    expect(update).toMatchObject({ status: 'changed', widens: false });
    expect(update.changes).toEqual([
      {
        aspect: 'instructions',
        words: 'Its instructions change: 1 line added, 1 line removed.',
        widens: false,
      },
    ]);
    expect(update.instructionsDiff).toEqual([
      { kind: 'same', text: 'Read the sources.' },
      { kind: 'removed', text: 'Write the weekly brief.' },
      { kind: 'added', text: 'Write the daily brief.' },
      { kind: 'same', text: 'Sign it.' },
    ]);
  });

  it('marks new tools and new file access as reaching further, and lost ones as not', () => {
    const update = changed((raw) => {
      raw.permissions = {
        read_outboxes: ['editor'],
        tools: ['shell'],
        file_access: { allow_read: ['../shared'], allow_write: [] },
      };
    });
    expect(update.changes).toEqual([
      { aspect: 'tools', words: 'Gains the tools: shell.', widens: true },
      { aspect: 'tools', words: 'Loses the tools: file_read.', widens: false },
      { aspect: 'file_access', words: 'May now read: ../shared.', widens: true },
    ]);
    expect(update.widens).toBe(true);
  });

  it('says who the agent hears from and when it runs, in plain words', () => {
    const update = changed((raw) => {
      raw.permissions = { read_outboxes: ['editor', 'researcher'], tools: ['file_read'] };
      raw.schedule = { run_every_n_ticks: 3, phase_offset: 1 };
    });
    expect(update.changes.map((item) => item.words)).toEqual([
      'Now reads messages from: researcher.',
      'Takes a turn every 3 ticks (was every tick).',
      'Its turns move to other ticks (offset 1, was 0).',
    ]);
    expect(update.widens).toBe(false);
  });

  it('names a new model, and leaves the credit caps out (the person’s budget is kept)', () => {
    const update = changed((raw) => {
      raw.model = { key: 'gpt-big' };
      raw.credits = { max_credits: 9999, soft_cap: 9000 };
    });
    expect(update.changes).toEqual([
      { aspect: 'model', words: 'Thinks with “gpt-big” (was “scripted”).', widens: false },
    ]);
  });

  it('lists new, changed and removed tool files; new and changed ones reach further', () => {
    const before = definition(baseResume('writer'), {
      'skills/a/SKILL.md': '1',
      'api-tools/stock.json': '2',
    });
    const after = definition(baseResume('writer'), {
      'skills/a/SKILL.md': '9',
      'api-tools/weather.json': '3',
    });
    const update = diffAgent('writer', before, after);
    expect(update.changes).toEqual([
      { aspect: 'skills', words: 'Changed skill files: skills/a/SKILL.md.', widens: true },
      { aspect: 'api_tools', words: 'New tool files: api-tools/weather.json.', widens: true },
      { aspect: 'api_tools', words: 'Removed tool files: api-tools/stock.json.', widens: false },
    ]);
  });

  it('still notices a change to a setting it has no words for', () => {
    const update = changed((raw) => {
      raw.workflow_description = 'New flow';
      raw.permissions = { read_outboxes: ['editor'], tools: ['file_read'], x_quota: 3 };
    });
    expect(update.changes).toEqual([
      {
        aspect: 'other',
        words: 'Other settings change: workflow_description, permissions.x_quota.',
        widens: false,
      },
    ]);
  });
});

describe('planAgentUpdates', () => {
  it('lists every agent of either side: new ones added, gone ones kept', () => {
    const plan = planAgentUpdates(
      [definition(baseResume('writer')), definition(baseResume('old_hand'))],
      [
        definition(baseResume('writer')),
        definition({ ...baseResume('checker'), permissions: { read_outboxes: [], tools: ['http_request'] } }),
      ],
    );
    expect(plan.map((agent) => [agent.agent, agent.status, agent.widens])).toEqual([
      ['checker', 'added', true],
      ['old_hand', 'removed', false],
      ['writer', 'unchanged', false],
    ]);
    expect(plan[0]?.changes.map((item) => item.words)).toEqual([
      'A new agent: “Writer”.',
      'Has the tools: http_request.',
    ]);
    expect(plan[1]?.changes[0]?.words).toBe('Not in the newer copy; it stays unless you remove it.');
  });
});
