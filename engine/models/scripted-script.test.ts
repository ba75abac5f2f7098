import { describe, expect, it } from 'vitest';
import { parseScript, selectRule, type Script } from './scripted-script';

function script(source: string, file = 'scripts/story.yaml'): Script {
  const parsed = parseScript(source, file);
  if (!parsed.ok) throw new Error(JSON.stringify(parsed.error));
  return parsed.value;
}

const STORY = `
agents:
  manager:
    - when: { tick: 1 }
      respond:
        outbox_entries:
          - { kind: request, payload: { text: Draft the login spec }, to: [writer] }
        notes: Delegated.
    - when: { inbox_contains: "spec is ready" }
      respond: { notes: Reviewed the spec. }
    - when: { tick_every: [2, 0] }
      respond: { notes: Even tick check-in. }
  writer:
    - when: { round: 1 }
      respond:
        tool_calls: [{ name: file_write, arguments: { path: spec.md, content: "# Login" } }]
    - respond: { text: "spec written" }
default:
  - respond: { notes: Nothing to do. }
`;

describe('selectRule', () => {
  const story = script(STORY);
  const pick = (agent: string, tick: number, round = 1, inbox = '') =>
    selectRule(story, { agent, tick, round }, inbox);

  it("takes the first of the agent's rules whose conditions hold", () => {
    expect(pick('manager', 1)?.path).toBe('agents.manager[0]');
    expect(pick('manager', 4)?.path).toBe('agents.manager[2]');
    expect(pick('manager', 4, 1, 'writer: the spec is ready')?.path).toBe('agents.manager[1]');
  });

  it('falls back to default for unmatched calls and unknown agents', () => {
    expect(pick('manager', 3)?.path).toBe('default[0]');
    expect(pick('someone_else', 1)?.path).toBe('default[0]');
    expect(pick('constructor', 1)?.path).toBe('default[0]');
  });

  it('uses floored modulo for tick_every, like the scheduler', () => {
    const every = script('default:\n  - when: { tick_every: [3, -1] }\n    respond: { notes: x }');
    expect(
      [1, 2, 3, 4, 5, 6].filter((tick) => selectRule(every, { agent: 'a', tick, round: 1 }, '')),
    ).toEqual([2, 5]);
  });

  it('matches rounds within a turn', () => {
    expect(pick('writer', 5, 1)?.path).toBe('agents.writer[0]');
    expect(pick('writer', 5, 2)?.path).toBe('agents.writer[1]');
  });

  it('without run context, matches only rules that need none', () => {
    expect(selectRule(story, undefined, '')?.path).toBe('default[0]');
    expect(selectRule(story, undefined, 'spec is ready')?.path).toBe('default[0]');
    expect(
      selectRule(script('default:\n  - when: { tick: 1 }\n    respond: { notes: x }'), undefined, ''),
    ).toBeUndefined();
  });
});

describe('parseScript replies', () => {
  it('turns a LeMMing contract into its JSON text', () => {
    const rule = script(STORY).agents?.manager?.[0];
    expect(rule?.respond).toEqual({
      kind: 'answer',
      text: JSON.stringify({
        outbox_entries: [{ kind: 'request', payload: { text: 'Draft the login spec' }, to: ['writer'] }],
        notes: 'Delegated.',
      }),
      toolCalls: [],
      delayMs: 0,
    });
  });

  it('reads native tool calls, giving them stable ids', () => {
    expect(script(STORY).agents?.writer?.[0]?.respond).toEqual({
      kind: 'answer',
      text: '',
      toolCalls: [
        {
          id: 'call_0',
          name: 'file_write',
          arguments: { path: 'spec.md', content: '# Login' },
          rawArguments: '{"path":"spec.md","content":"# Login"}',
        },
      ],
      delayMs: 0,
    });
  });

  it('keeps a contract whose tool_calls use LeMMing\'s "tool" key as a contract', () => {
    const rule = script('default:\n  - respond: { tool_calls: [{ tool: file_read, args: { path: a.md } }] }')
      .default?.[0];
    expect(rule?.respond).toEqual({
      kind: 'answer',
      text: '{"tool_calls":[{"tool":"file_read","args":{"path":"a.md"}}]}',
      toolCalls: [],
      delayMs: 0,
    });
  });

  it('reads errors and delays', () => {
    const parsed = script(
      'default:\n  - respond: { error: { status: 503, message: overloaded }, delay_ms: 20 }',
    );
    expect(parsed.default?.[0]?.respond).toEqual({
      kind: 'error',
      status: 503,
      message: 'overloaded',
      delayMs: 20,
    });
  });

  it('reads JSON scripts too', () => {
    const parsed = parseScript(
      JSON.stringify({ default: [{ respond: { text: 'not json at all' } }] }),
      'story.json',
    );
    expect(parsed).toMatchObject({
      ok: true,
      value: { default: [{ respond: { kind: 'answer', text: 'not json at all' } }] },
    });
  });
});

describe('parseScript problems', () => {
  it('names the file, the rule and the field', () => {
    const parsed = parseScript(
      `
agents:
  manager:
    - respond: { notes: fine }
    - when: { tik: 3 }
      respond: { notes: typo }
  writer:
    - respond: { error: { status: 42, message: nope } }
    - respond: { text: 5 }
    - respond: [not, an, object]
    - when: { tick_every: [0, 1] }
      respond: { notes: x }
    - responds: { notes: x }
default: nope
`,
      'scripts/story.yaml',
    );
    expect(parsed).toEqual({
      ok: false,
      error: [
        {
          file: 'scripts/story.yaml',
          field: 'agents.manager[1].when',
          message: 'unknown condition "tik"; conditions are tick, tick_every, round, inbox_contains',
        },
        {
          file: 'scripts/story.yaml',
          field: 'agents.writer[0].respond.error.status',
          message: 'error.status must be at least 100',
        },
        { file: 'scripts/story.yaml', field: 'agents.writer[1].respond.text', message: 'text must be text' },
        {
          file: 'scripts/story.yaml',
          field: 'agents.writer[2].respond',
          message: 'respond must be an object: a LeMMing contract, { text }, { tool_calls } or { error }',
        },
        {
          file: 'scripts/story.yaml',
          field: 'agents.writer[3].when.tick_every[0]',
          message: 'tick_every[0] (every N ticks) must be at least 1',
        },
        {
          file: 'scripts/story.yaml',
          field: 'agents.writer[4].respond',
          message: 'respond must be an object: a LeMMing contract, { text }, { tool_calls } or { error }',
        },
        {
          file: 'scripts/story.yaml',
          field: 'agents.writer[4]',
          message: 'unknown rule field "responds"; a rule has when, respond and comment',
        },
        { file: 'scripts/story.yaml', field: 'default', message: 'must be a list of rules' },
      ],
    });
  });

  it('gives the line of a YAML syntax error', () => {
    const parsed = parseScript('default:\n  - respond: { notes: [unclosed }\n', 'story.yaml');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error[0]).toMatchObject({ file: 'story.yaml', field: '', line: 2 });
    expect(parsed.error[0]?.message).toMatch(/^invalid YAML: /);
  });

  it('gives line and column of a JSON syntax error', () => {
    const parsed = parseScript('{\n  "default": [\n    {"respond": {"notes": "x"}}\n  ],\n}', 'story.json');
    expect(parsed).toEqual({
      ok: false,
      error: [
        {
          file: 'story.json',
          field: '',
          message: expect.stringMatching(/^invalid JSON/),
          line: 5,
          column: 1,
        },
      ],
    });
  });

  it('refuses unknown top-level fields', () => {
    expect(parseScript('agent:\n  manager: []', 'story.yaml')).toEqual({
      ok: false,
      error: [
        {
          file: 'story.yaml',
          field: '',
          message: 'unknown top-level field "agent"; a script has agents, default and description',
        },
      ],
    });
  });
});
