import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sendJson, startLoopbackServer, type LoopbackServer } from '../models/test-support/loopback-server';
import { readAttachment, ATTACHMENTS_FOLDER } from '../timeline/attachments';
import { referenceServers } from '../tools/mcp/test-support/reference-servers';
import { trustAsIs } from '../trust/test-support/trust-as-is';
import { ApprovalDesk } from '../app/approvals';
import { OrgEngine } from './org-engine';
import { resume, tempOrgs } from './test-support/temp-org';

const orgs = tempOrgs();
const engines: OrgEngine[] = [];
const servers: LoopbackServer[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) {
    await engine.stopMcpServers();
    engine.close();
  }
  for (const server of servers.splice(0)) await server.close();
  orgs.cleanup();
});

type Body = { messages: { role: string; content: unknown }[] };

/** An OpenAI-compatible model on loopback: it calls the reference server's get-tiny-image (`calls` times in one round), then finishes. */
async function modelServer(calls = 1): Promise<LoopbackServer> {
  const server = await startLoopbackServer((_, response, index) => {
    const message =
      index === 0
        ? {
            role: 'assistant',
            content: null,
            tool_calls: Array.from({ length: calls }, (_, call) => ({
              id: `c${call + 1}`,
              type: 'function',
              function: { name: 'mcp__everything__get-tiny-image', arguments: '{}' },
            })),
          }
        : { role: 'assistant', content: JSON.stringify({ notes: 'saw it' }) };
    sendJson(response, 200, {
      id: `chatcmpl-${index}`,
      object: 'chat.completion',
      model: 'v',
      choices: [{ index: 0, message, finish_reason: index === 0 ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    });
  });
  servers.push(server);
  return server;
}

async function turnWithImage(input: string[] | undefined) {
  const server = await modelServer();
  const org = imageOrg(server, input);
  const engine = await OrgEngine.open({ trust: await trustAsIs(org), orgPath: org, env: {} });
  engines.push(engine);
  await engine.runTick();
  return { org, events: eventsOf(engine), bodies: server.received.map((request) => request.json as Body) };
}

function imageOrg(server: LoopbackServer, input: string[] | undefined): string {
  return orgs.build({
    'lemming/config/models.json': {
      v: {
        provider: 'openai-compatible',
        model_name: 'v',
        stream: false,
        ...(input ? { input } : {}),
        provider_config: { base_url: `${server.url}/v1`, max_retries: 0 },
      },
    },
    'lemming/config/mcp.json': { mcpServers: { everything: referenceServers.everything() } },
    'lemming/config/credits.json': { ada: { model: 'v', cost_per_action: 0, credits_left: 1000 } },
    'agents/ada/resume.json': resume('ada', {
      model: { key: 'v' },
      permissions: { read_outboxes: [], tools: ['mcp__everything__get-tiny-image'] },
    }),
  });
}

function eventsOf(engine: OrgEngine) {
  return engine.timeline.page({ direction: 'asc', limit: 1000, cursor: null }).rows.map((row) => ({
    kind: row.kind,
    json: row.json,
    event: JSON.parse(row.json) as Record<string, any>,
  }));
}

describe("a tool's image", { timeout: 60_000 }, () => {
  it('is given to a model that takes images, and kept beside the timeline by its sha256, never in an event', async () => {
    const { org, events, bodies } = await turnWithImage(['text', 'image']);
    const result = events.find((row) => row.kind === 'tool_result')!.event.result;
    expect(result.output).toMatch(/\[image: image\/png, \d+ bytes\]/);
    const [attachment] = result.attachments;
    expect(attachment).toMatchObject({
      kind: 'image',
      mime_type: 'image/png',
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    const bytes = await readAttachment(org, attachment.sha256);
    expect(bytes?.length).toBe(attachment.bytes);
    expect(bytes!.subarray(1, 4).toString('latin1')).toBe('PNG');

    const base64 = bytes!.toString('base64');
    const second = bodies[1]!.messages;
    expect(second.at(-1)).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'The images and sounds the tool results above refer to, in order:' },
        { type: 'image_url', image_url: { url: `data:image/png;base64,${base64}` } },
      ],
    });
    // The timeline holds the reference only: neither the tool result nor the model call's prompt has the bytes.
    for (const row of events) expect(row.json).not.toContain(base64.slice(0, 40));
    const prompt = events.filter((row) => row.kind === 'model_call')[1]!.event.prompt;
    expect(prompt.find((message: any) => message.role === 'tool').media).toEqual([
      { kind: 'image', mimeType: 'image/png', sha256: attachment.sha256 },
    ]);
  });

  it('is not given to a model not set up to take images, and the model is told so', async () => {
    const { org, bodies } = await turnWithImage(undefined);
    const second = bodies[1]!.messages;
    expect(second.at(-1)!.role).toBe('tool');
    expect(JSON.stringify(second)).not.toContain('image_url');
    expect(JSON.parse(second.at(-1)!.content as string).output).toMatch(
      /\[not shown to you: image image\/png \(\d+ bytes\): this model is not set up to take images\]$/,
    );
    // Still kept for the person to see in the inspector.
    expect(readdirSync(join(org, ATTACHMENTS_FOLDER))).toHaveLength(1);
  });

  it('a kept image that was changed afterwards is not given out as it', async () => {
    const { org, events } = await turnWithImage(['text', 'image']);
    const { sha256 } = events.find((row) => row.kind === 'tool_result')!.event.result.attachments[0];
    const path = join(org, ATTACHMENTS_FOLDER, sha256);
    expect(existsSync(path)).toBe(true);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, Buffer.concat([readFileSync(path), Buffer.from('x')]));
    expect(await readAttachment(org, sha256)).toBeNull();
    expect(await readAttachment(org, '../../etc/passwd')).toBeNull();
  });

  it('of a call run before its turn parked again is kept: the person sees it, and the model is given it', async () => {
    // Each call of a server whose hints the person does not trust asks first: the turn parks on the
    // first, runs it once allowed, parks on the second, and goes on once that is allowed too.
    const server = await modelServer(2);
    const org = imageOrg(server, ['text', 'image']);
    const desk = new ApprovalDesk(() => undefined);
    const engine = await OrgEngine.open({
      trust: await trustAsIs(org),
      orgPath: org,
      env: {},
      approvals: desk,
    });
    engines.push(engine);
    desk.attach(engine.parked);
    await engine.runTick();
    // What the turn staged, the first call's result with it, is committed when the turn completes.
    for (const _call of ['c1', 'c2']) {
      const [request] = desk.pending();
      expect(request).toMatchObject({ tool: 'mcp__everything__get-tiny-image' });
      await desk.answer({ id: request!.id, answer: 'approve_once' });
      await engine.resumeAnswered();
    }
    expect(desk.pending()).toEqual([]);

    const events = eventsOf(engine);
    const results = events.filter((row) => row.kind === 'tool_result').map((row) => row.event);
    expect(results.map((result) => result.call_id)).toEqual(['c1', 'c2']);
    for (const result of results) {
      const [attachment] = result.result.attachments;
      expect(attachment).toMatchObject({ kind: 'image', mime_type: 'image/png' });
      expect((await readAttachment(org, attachment.sha256))?.length).toBe(attachment.bytes);
    }
    expect(events.filter((row) => row.kind === 'turn_completed')).toHaveLength(1);
    // The model's next call is given both images, the first kept through the second park.
    const second = server.received.map((request) => request.json as Body)[1]!.messages;
    expect(JSON.stringify(second).match(/data:image\/png;base64,/g)).toHaveLength(2);
    const prompt = events.filter((row) => row.kind === 'model_call')[1]!.event.prompt;
    expect(
      prompt.filter((message: any) => message.role === 'tool').map((message: any) => message.media),
    ).toEqual([
      [expect.objectContaining({ kind: 'image', mimeType: 'image/png' })],
      [expect.objectContaining({ kind: 'image', mimeType: 'image/png' })],
    ]);
  });
});
