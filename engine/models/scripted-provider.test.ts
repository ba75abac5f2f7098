import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProvider } from './create-provider';
import type { ProviderConfig } from './models-file';
import { callError, modelEntry, testDeps } from './test-support/provider-test-kit';
import type { ModelRequest } from './types';

let orgPath: string;
beforeEach(async () => {
  orgPath = await mkdtemp(join(tmpdir(), 'scripted-provider-'));
  await mkdir(join(orgPath, 'scripts'));
});
afterEach(async () => {
  await rm(orgPath, { recursive: true, force: true });
});

async function scripted(
  scriptText: string,
  config: Omit<ProviderConfig, 'script'> = {},
  file = 'scripts/story.yaml',
) {
  await writeFile(join(orgPath, file), scriptText);
  return createProvider(
    modelEntry('scripted', { script: file, ...config }, 'demo'),
    testDeps([], { orgPath }),
  );
}

const turn = (agent: string, tick: number, inbox = 'Inbox: (empty)', round = 1): ModelRequest => ({
  model: 'demo',
  messages: [
    { role: 'system', content: 'You are in an org.' },
    { role: 'user', content: inbox },
  ],
  context: { agent, tick, round },
});

const STORY = `
description: A manager delegates a spec to a writer.
agents:
  manager:
    - when: { tick: 1 }
      respond:
        outbox_entries: [{ kind: request, payload: { text: Draft the login spec }, to: [writer] }]
        notes: Delegated.
    - when: { inbox_contains: spec is ready }
      respond: { notes: Approved. }
  writer:
    - when: { inbox_contains: Draft the login spec }
      respond:
        outbox_entries: [{ kind: response, payload: { text: The spec is ready. }, to: [manager] }]
  flaky:
    - respond: { error: { status: 500, message: upstream exploded } }
  rambler:
    - respond: { text: "Sure! Here is my answer, not JSON at all." }
  sleeper:
    - respond: { notes: too late, delay_ms: 60000 }
default:
  - respond: { notes: Nothing to do. }
`;

describe('scripted provider', () => {
  it('plays a multi-agent story from a YAML script', async () => {
    const provider = await scripted(STORY);

    const manager1 = await provider.complete(turn('manager', 1));
    const writer2 = await provider.complete(turn('writer', 2, 'From manager: Draft the login spec'));
    const manager3 = await provider.complete(turn('manager', 3, 'From writer: The spec is ready.'));
    const idle = await provider.complete(turn('manager', 4));

    expect(JSON.parse(manager1.text)).toEqual({
      outbox_entries: [{ kind: 'request', payload: { text: 'Draft the login spec' }, to: ['writer'] }],
      notes: 'Delegated.',
    });
    expect(JSON.parse(writer2.text)).toEqual({
      outbox_entries: [{ kind: 'response', payload: { text: 'The spec is ready.' }, to: ['manager'] }],
    });
    expect(JSON.parse(manager3.text)).toEqual({ notes: 'Approved.' });
    expect(JSON.parse(idle.text)).toEqual({ notes: 'Nothing to do.' });
    expect(manager1.raw).toMatchObject({ rule: 'agents.manager[0]', when: { tick: 1 } });
    expect(idle.raw).toMatchObject({ rule: 'default[0]' });
    expect(provider.nativeTools).toBe(false);
  });

  it('answers the same request the same way every time, usage included', async () => {
    const provider = await scripted(STORY);
    const answers = await Promise.all([1, 2, 3].map(() => provider.complete(turn('manager', 1))));
    const withoutLatency = answers.map(({ latencyMs: _latency, ...rest }) => rest);
    expect(withoutLatency[1]).toEqual(withoutLatency[0]);
    expect(withoutLatency[2]).toEqual(withoutLatency[0]);
    const inputChars = 'You are in an org.'.length + 'Inbox: (empty)'.length;
    expect(answers[0]?.usage).toEqual({
      inputTokens: Math.ceil(inputChars / 4),
      outputTokens: Math.ceil((answers[0]?.text.length ?? 0) / 4),
    });
  });

  it('fails with a typed HTTP error when the script says so', async () => {
    const provider = await scripted(STORY);
    const error = await callError(provider.complete(turn('flaky', 1)));
    expect(error).toMatchObject({ kind: 'server', status: 500, retryable: true, attempts: 1 });
    expect(error.message).toBe('model "demo" (scripted) returned HTTP 500: upstream exploded');
  });

  it('returns garbage text verbatim for the parser to deal with', async () => {
    const provider = await scripted(STORY);
    expect((await provider.complete(turn('rambler', 1))).text).toBe(
      'Sure! Here is my answer, not JSON at all.',
    );
  });

  it('times out when a delay reaches timeout_ms', async () => {
    const provider = await scripted(STORY, { timeout_ms: 100 });
    const started = performance.now();
    const error = await callError(provider.complete(turn('sleeper', 1)));
    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
    expect(error.message).toBe('model "demo" (scripted) did not answer within 100 ms (timeout_ms)');
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('can be cancelled during a delay', async () => {
    const provider = await scripted(STORY);
    const controller = new AbortController();
    const pending = callError(provider.complete({ ...turn('sleeper', 1), signal: controller.signal }));
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toMatchObject({ kind: 'cancelled' });
  });

  it('drives a native tool loop by round from a JSON script', async () => {
    const provider = await scripted(
      JSON.stringify({
        agents: {
          writer: [
            {
              when: { round: 1 },
              respond: {
                tool_calls: [
                  { id: 'w1', name: 'file_write', arguments: { path: 'spec.md', content: '# Login' } },
                ],
              },
            },
            { when: { round: 2 }, respond: { text: 'Wrote spec.md.' } },
          ],
        },
      }),
      { native_tools: true },
      'scripts/tools.json',
    );

    const first = await provider.complete(turn('writer', 1, 'go', 1));
    const second = await provider.complete(turn('writer', 1, 'go', 2));

    expect(provider.nativeTools).toBe(true);
    expect(first).toMatchObject({
      text: '',
      toolCalls: [
        {
          id: 'w1',
          name: 'file_write',
          arguments: { path: 'spec.md', content: '# Login' },
          rawArguments: '{"path":"spec.md","content":"# Login"}',
        },
      ],
      finishReason: 'tool_calls',
    });
    expect(second).toMatchObject({ text: 'Wrote spec.md.', toolCalls: [], finishReason: 'stop' });
  });

  it('reports an invalid script with its file, rule and field', async () => {
    const provider = await scripted(
      'agents:\n  manager:\n    - when: { tik: 1 }\n      respond: { notes: x }\n',
    );
    const error = await callError(provider.complete(turn('manager', 1)));
    expect(error.kind).toBe('model_setup');
    expect(error.message).toBe(
      'model "demo" (scripted): script scripts/story.yaml is invalid: agents.manager[0].when: unknown condition "tik"; conditions are tick, tick_every, round, inbox_contains',
    );
  });

  it('reports a missing script, a missing script setting and an unanswered call as configuration errors', async () => {
    const missingFile = createProvider(
      modelEntry('scripted', { script: 'scripts/none.yaml' }, 'demo'),
      testDeps([], { orgPath }),
    );
    expect((await callError(missingFile.complete(turn('a', 1)))).message).toBe(
      'model "demo" (scripted): script scripts/none.yaml is invalid: the file does not exist',
    );

    const noScript = createProvider(modelEntry('scripted', {}, 'demo'), testDeps([], { orgPath }));
    expect((await callError(noScript.complete(turn('a', 1)))).message).toContain(
      'needs provider_config.script',
    );

    const narrow = await scripted(
      'agents:\n  manager:\n    - when: { tick: 1 }\n      respond: { notes: x }\n',
    );
    const unanswered = await callError(narrow.complete(turn('manager', 2)));
    expect(unanswered.kind).toBe('model_setup');
    expect(unanswered.message).toBe(
      'model "demo" (scripted): no rule in scripts/story.yaml answers agent "manager" at tick 2, round 1; add a matching rule or a default',
    );
  });
});
