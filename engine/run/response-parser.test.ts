import { describe, expect, it } from 'vitest';
import {
  interpretResponseValue,
  parseModelResponse,
  ParsedResponse,
  SNIPPET_LIMIT,
  type ContractWarningCode,
} from './response-parser';
import { seededRandom } from './test-support/seeded-random';

const LEMMING_EXAMPLE = `{
  "outbox_entries": [
    {"kind": "request", "payload": {"text": "Draft the login spec", "priority": "high"},
     "tags": ["delegation"], "to": ["spec_writer"]},
    {"kind": "response", "payload": {"text": "On it."}, "meta": {"to": "human"}}
  ],
  "tool_calls": [
    {"tool": "file_write", "args": {"path": "plan.md", "content": "- [ ] login spec\\n"}},
    {"tool": "memory_read", "args": {"key": "open_tasks"}}
  ],
  "memory_updates": [
    {"key": "open_tasks", "value": ["login spec"]},
    {"key": "stale_note", "op": "delete"}
  ],
  "notes": "Delegated the login spec."
}`;

const EXPECTED_EXAMPLE: ParsedResponse = {
  outboxEntries: [
    {
      kind: 'request',
      payload: { text: 'Draft the login spec', priority: 'high' },
      tags: ['delegation'],
      meta: {},
      recipients: ['spec_writer'],
      extra: {},
    },
    {
      kind: 'response',
      payload: { text: 'On it.' },
      tags: [],
      meta: { to: 'human' },
      recipients: ['human'],
      extra: {},
    },
  ],
  toolCalls: [
    { tool: 'file_write', args: { path: 'plan.md', content: '- [ ] login spec\n' }, extra: {} },
    { tool: 'memory_read', args: { key: 'open_tasks' }, extra: {} },
  ],
  memoryUpdates: [
    { key: 'open_tasks', op: 'set', value: ['login spec'], extra: {} },
    { key: 'stale_note', op: 'delete', value: null, extra: {} },
  ],
  notes: 'Delegated the login spec.',
  warnings: [],
  extra: {},
};

const codes = (result: ParsedResponse): ContractWarningCode[] =>
  result.warnings.map((warning) => warning.code);

describe('what LeMMing accepts', () => {
  it('reads the documented contract example exactly', () => {
    expect(parseModelResponse(LEMMING_EXAMPLE)).toEqual(EXPECTED_EXAMPLE);
  });

  it('reads a reply wrapped in a code fence, with or without a language tag, with CRLF line ends', () => {
    expect(parseModelResponse('```json\n' + LEMMING_EXAMPLE + '\n```')).toEqual(EXPECTED_EXAMPLE);
    expect(parseModelResponse('```\r\n' + LEMMING_EXAMPLE.replaceAll('\n', '\r\n') + '\r\n```\r\n')).toEqual(
      EXPECTED_EXAMPLE,
    );
    expect(parseModelResponse('  \n```json\n{"notes": "unclosed fence"}')).toMatchObject({
      notes: 'unclosed fence',
      warnings: [],
    });
  });

  it('treats every key as optional and null lists as empty', () => {
    expect(parseModelResponse('{"notes": "No action needed."}')).toEqual({
      ...emptyResult(),
      notes: 'No action needed.',
    });
    expect(
      parseModelResponse(
        '{"outbox_entries": null, "tool_calls": null, "memory_updates": null, "notes": null}',
      ),
    ).toEqual(emptyResult());
    expect(parseModelResponse('{}')).toEqual(emptyResult());
  });

  it('turns a string recipient into a list and prefers `to` over meta.to', () => {
    const result = parseModelResponse(
      '{"outbox_entries": [{"to": "manager", "meta": {"to": "human"}}, {"meta": {"to": ["a", "b"]}}, {"payload": {"text": "x"}}]}',
    );
    expect(result.outboxEntries.map((entry) => entry.recipients)).toEqual([['manager'], ['a', 'b'], null]);
    expect(result.outboxEntries[2]).toEqual({
      kind: 'message',
      payload: { text: 'x' },
      tags: [],
      meta: {},
      recipients: null,
      extra: {},
    });
  });

  it('converts non-text notes to text, with a warning', () => {
    expect(parseModelResponse('{"notes": 42}')).toMatchObject({
      notes: '42',
      warnings: [{ code: 'notes_not_text' }],
    });
    expect(parseModelResponse('{"notes": {"done": true}}')).toMatchObject({ notes: '{"done":true}' });
  });

  it('lower-cases memory ops and defaults them to set', () => {
    const result = parseModelResponse(
      '{"memory_updates": [{"key": "a", "value": 1, "op": " APPEND "}, {"key": "b", "value": {"x": 1}, "op": "Merge"}, {"key": "c"}]}',
    );
    expect(result.memoryUpdates).toEqual([
      { key: 'a', op: 'append', value: 1, extra: {} },
      { key: 'b', op: 'merge', value: { x: 1 }, extra: {} },
      { key: 'c', op: 'set', value: null, extra: {} },
    ]);
    expect(result.warnings).toEqual([]);
  });
});

describe('where LeMMing gives up and we do not', () => {
  it('finds the JSON object inside prose, after "Sure!" and before a sign-off', () => {
    const reply =
      'Sure! Here is my answer:\n```json\n' + LEMMING_EXAMPLE + '\n```\nLet me know if you need more.';
    const result = parseModelResponse(reply);
    expect({ ...result, warnings: [] }).toEqual(EXPECTED_EXAMPLE);
    expect(codes(result)).toEqual(['json_found_in_text']);
    expect(parseModelResponse('I will delegate. {"notes": "ok", "tool_calls": []} Done.')).toMatchObject({
      notes: 'ok',
    });
  });

  it('prefers an object with contract fields over an example object quoted earlier', () => {
    const result = parseModelResponse(
      'The format {"key": "value"} is what memory looks like. {"notes": "the real reply"}',
    );
    expect(result.notes).toBe('the real reply');
    expect(result.extra).toEqual({});
  });

  it('is not fooled by braces inside strings', () => {
    expect(parseModelResponse('Reply: {"notes": "a } and a { inside", "outbox_entries": []}')).toMatchObject({
      notes: 'a } and a { inside',
    });
  });

  it('removes trailing commas, with a warning', () => {
    const result = parseModelResponse(
      '{"outbox_entries": [{"payload": {"text": "a, b,",},},], "notes": "x",}',
    );
    expect(result.outboxEntries).toEqual([
      { kind: 'message', payload: { text: 'a, b,' }, tags: [], meta: {}, recipients: null, extra: {} },
    ]);
    expect(codes(result)).toEqual(['json_repaired']);
  });

  it('uses a single object where a list belongs, and a text payload as payload.text, with warnings', () => {
    const result = parseModelResponse('{"outbox_entries": {"payload": "hello", "tags": "urgent"}}');
    expect(result.outboxEntries).toEqual([
      {
        kind: 'message',
        payload: { text: 'hello' },
        tags: ['urgent'],
        meta: {},
        recipients: null,
        extra: {},
      },
    ]);
    expect(codes(result)).toEqual(['field_not_a_list', 'payload_not_an_object', 'tags_not_a_list']);
  });

  it('keeps the extra keys the model put in entries, tool calls and memory updates', () => {
    const result = parseModelResponse(
      '{"outbox_entries": [{"kind": "status", "importance": "high", "reply_to": "abc"}], "tool_calls": [{"tool": "shell", "args": {"command": "ls"}, "why": "look"}], ' +
        '"memory_updates": [{"key": "k", "value": 1, "ttl": 3}]}',
    );
    expect(result.outboxEntries[0]?.extra).toEqual({ importance: 'high', reply_to: 'abc' });
    expect(result.toolCalls[0]?.extra).toEqual({ why: 'look' });
    expect(result.memoryUpdates[0]?.extra).toEqual({ ttl: 3 });
    expect(result.warnings).toEqual([]);
  });

  it('warns about unknown top-level fields and keeps them in extra', () => {
    const result = parseModelResponse('{"notes": "n", "thoughts": "private", "messages": [1]}');
    expect(result.extra).toEqual({ thoughts: 'private', messages: [1] });
    expect(result.warnings).toMatchObject([
      { code: 'unknown_field', message: expect.stringContaining('thoughts, messages') },
    ]);
  });

  it('accepts a non-text kind as text, and a `recipients` list in place of `to`', () => {
    const result = parseModelResponse('{"outbox_entries": [{"kind": 5, "recipients": ["qa"]}]}');
    expect(result.outboxEntries[0]).toMatchObject({ kind: '5', recipients: ['qa'] });
    expect(codes(result)).toEqual(['kind_not_text']);
  });

  it('ignores malformed recipients with a warning instead of guessing', () => {
    const result = parseModelResponse('{"outbox_entries": [{"to": ["a", 3]}, {"to": 7}]}');
    expect(result.outboxEntries.map((entry) => entry.recipients)).toEqual([null, null]);
    expect(codes(result)).toEqual(['recipients_invalid', 'recipients_invalid']);
  });
});

describe("tool calls, which crash LeMMing's tick when malformed", () => {
  it('skips string items, non-object args and agent_path with warnings, keeping the good calls', () => {
    const result = parseModelResponse(
      JSON.stringify({
        tool_calls: [
          'file_read',
          { tool: 'file_read', args: ['notes.md'] },
          { tool: 'file_read', args: { path: 'x', agent_path: '/etc' } },
          { args: { path: 'x' } },
          { tool: 'file_list' },
          { tool: 'file_read', args: { path: 'ok.md' } },
        ],
      }),
    );
    expect(result.toolCalls).toEqual([
      { tool: 'file_list', args: {}, extra: {} },
      { tool: 'file_read', args: { path: 'ok.md' }, extra: {} },
    ]);
    expect(codes(result)).toEqual([
      'tool_call_not_an_object',
      'tool_args_not_an_object',
      'tool_args_agent_path',
      'tool_name_missing',
    ]);
    expect(result.warnings[2]?.snippet).toContain('agent_path');
  });

  it('accepts OpenAI-style name and JSON-string arguments', () => {
    const result = parseModelResponse(
      JSON.stringify({
        tool_calls: [
          { name: 'file_read', arguments: '{"path": "a.md"}', id: 'call_1' },
          { name: 'x', arguments: 'not json' },
        ],
      }),
    );
    expect(result.toolCalls).toEqual([
      { tool: 'file_read', args: { path: 'a.md' }, extra: { id: 'call_1' } },
    ]);
    expect(codes(result)).toEqual(['tool_args_not_an_object']);
  });
});

describe('memory updates', () => {
  it('skips items without a usable key or with an unknown op (LeMMing aborts the tick on "write")', () => {
    const result = parseModelResponse(
      JSON.stringify({
        memory_updates: [
          { value: 1 },
          { key: '../escape', value: 1 },
          { key: 5, value: 1 },
          { key: 'k', op: 'write', value: 1 },
          { key: 'k', op: 3 },
          'k',
          { key: 'ok', value: 2 },
        ],
      }),
    );
    expect(result.memoryUpdates).toEqual([{ key: 'ok', op: 'set', value: 2, extra: {} }]);
    expect(codes(result)).toEqual([
      'memory_key_missing',
      'memory_key_invalid',
      'memory_key_invalid',
      'memory_op_unknown',
      'memory_op_unknown',
      'memory_update_not_an_object',
    ]);
  });
});

describe('replies that are not usable', () => {
  it('reports prose, empty replies and non-objects with a snippet of at most 200 characters', () => {
    const prose = parseModelResponse('I am sorry, I cannot help with that. '.repeat(20));
    expect(prose).toMatchObject({
      ...emptyResult(),
      warnings: [{ code: 'not_json', message: expect.stringContaining('not JSON') }],
    });
    expect(prose.warnings[0]?.snippet?.length).toBe(SNIPPET_LIMIT);
    expect(codes(parseModelResponse('   \n '))).toEqual(['empty_response']);
    expect(codes(parseModelResponse('[1, 2]'))).toEqual(['not_an_object']);
    expect(codes(parseModelResponse('"just a string"'))).toEqual(['not_an_object']);
    expect(codes(parseModelResponse('```json\n```'))).toEqual(['not_json']);
  });

  it('refuses absurdly nested replies without overflowing the stack', () => {
    const deep = '['.repeat(1_000_000) + ']'.repeat(1_000_000);
    expect(codes(parseModelResponse(deep))).toEqual(['not_an_object']);
    const deepObject = `{"notes": "x", "extra": ${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(parseModelResponse(deepObject)).toMatchObject({
      notes: '',
      warnings: [{ code: 'too_deeply_nested' }],
    });
  });

  it('never throws, even on values that throw when read', () => {
    const hostile = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('boom');
        },
      },
    );
    expect(interpretResponseValue(hostile)).toMatchObject({
      warnings: [{ code: 'parser_failed', message: expect.stringContaining('boom') }],
    });
    expect(parseModelResponse(undefined as unknown as string)).toMatchObject({
      warnings: [{ code: 'parser_failed' }],
    });
  });
});

describe('fuzzing', () => {
  const random = seededRandom(2026);
  const integer = (n: number) => Math.floor(random() * n);
  const FIELD_NAMES = [
    'outbox_entries',
    'tool_calls',
    'memory_updates',
    'notes',
    'kind',
    'payload',
    'tags',
    'meta',
    'to',
    'tool',
    'args',
    'name',
    'arguments',
    'key',
    'op',
    'value',
    'agent_path',
    'text',
    '__proto__',
    'x',
  ];
  const ALPHABET = [
    '{',
    '}',
    '[',
    ']',
    '"',
    ',',
    ':',
    '\\',
    ' ',
    '\n',
    '\r',
    '`',
    'a',
    '1',
    'é',
    '\u{1F600}',
    '\uD800',
    'null',
    'true',
    '-',
    '.',
    'e',
  ];

  function randomValue(depth: number): unknown {
    switch (integer(depth > 4 ? 6 : 9)) {
      case 0:
        return null;
      case 1:
        return random() < 0.5;
      case 2:
        return (random() - 0.5) * 10 ** integer(30);
      case 3:
        return ['set', 'APPEND', 'merge', 'delete', 'write', 'file_read', 'human', ''][integer(8)];
      case 4:
        return Array.from({ length: integer(6) }, () => ALPHABET[integer(ALPHABET.length)]).join('');
      case 5:
        return integer(100);
      case 6:
      case 7:
        return Array.from({ length: integer(4) }, () => randomValue(depth + 1));
      default:
        return Object.fromEntries(
          Array.from({ length: integer(5) }, () => [
            FIELD_NAMES[integer(FIELD_NAMES.length)],
            randomValue(depth + 1),
          ]),
        );
    }
  }

  function mangle(text: string): string {
    const cut = integer(text.length + 1);
    switch (integer(5)) {
      case 0:
        return text.slice(0, cut);
      case 1:
        return text.slice(0, cut) + ALPHABET[integer(ALPHABET.length)] + text.slice(cut);
      case 2:
        return `Sure! \`\`\`json\n${text}\n\`\`\` hope that helps`;
      case 3:
        return text.slice(0, cut) + text.slice(cut + 1 + integer(5));
      default:
        return text;
    }
  }

  function expectWellFormed(result: ParsedResponse) {
    expect(ParsedResponse.safeParse(result).success).toBe(true);
    for (const warning of result.warnings)
      if (warning.snippet) expect(warning.snippet.length).toBeLessThanOrEqual(SNIPPET_LIMIT);
    for (const call of result.toolCalls) expect(Object.hasOwn(call.args, 'agent_path')).toBe(false);
  }

  it('returns a well-formed result for random JSON values, as text and as values', () => {
    for (let trial = 0; trial < 3000; trial += 1) {
      const value = randomValue(0);
      expectWellFormed(parseModelResponse(JSON.stringify(value) ?? ''));
      expectWellFormed(interpretResponseValue(value));
    }
  });

  it('returns a well-formed result for mangled and random text', () => {
    for (let trial = 0; trial < 3000; trial += 1) {
      const text =
        trial % 3 === 0
          ? Array.from({ length: integer(80) }, () => ALPHABET[integer(ALPHABET.length)]).join('')
          : mangle(
              JSON.stringify({
                outbox_entries: [randomValue(1)],
                tool_calls: randomValue(1),
                memory_updates: [randomValue(2)],
                notes: randomValue(3),
              }),
            );
      expectWellFormed(parseModelResponse(text));
    }
  });
});

function emptyResult(): ParsedResponse {
  return { outboxEntries: [], toolCalls: [], memoryUpdates: [], notes: '', warnings: [], extra: {} };
}
