import { copyFile, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadComposedTools } from './loader';
import { composedToolReadiness, requiredSecrets } from './secrets';
import { loopbackHttp, secretTable, SERVICE_KEY, toolContext } from './test-support/composed-world';
import { composedWorld } from './test-support/composed-world-hooks';
import { composedToolSpecs } from './tool-specs';
import { refusesNothing } from '../../api/grant-refusal';

/** Copied verbatim from the Agent Development Guide, section "YAML API Tools" (comments included). */
const FIXTURE = path.join(import.meta.dirname, 'test-support', 'fixtures', 'save_post.yaml');
const HOST = 'demo.supabase.co';

const world = composedWorld();

beforeEach(async () => {
  await mkdir(path.join(world.org.org, 'agents', 'somi', 'api-tools'), { recursive: true });
  await copyFile(FIXTURE, path.join(world.org.org, 'agents', 'somi', 'api-tools', 'save_post.yaml'));
});

const settings = (overrides: Record<string, string> = {}) =>
  secretTable({
    SUPABASE_URL: `http://${HOST}:${world.server.port}`,
    SUPABASE_SERVICE_KEY: SERVICE_KEY,
    TENANT_ID: 'tenant-42',
    ...overrides,
  });

async function savePost(lookup = settings()) {
  const load = await loadComposedTools(world.org.org, 'somi');
  expect(load.problems).toEqual([]);
  const toolset = composedToolSpecs(load.tools, {
    lookup,
    refusal: refusesNothing,
    http: loopbackHttp([HOST, 'evil.example.test']),
  });
  expect(toolset.problems).toEqual([]);
  const [entry] = toolset.entries;
  if (!entry) throw new Error('save_post did not load');
  return entry;
}

describe('the OpenClaw save_post.yaml example from the guide', () => {
  it('is the guide’s text, comments and all', async () => {
    const text = await readFile(FIXTURE, 'utf8');
    expect(text).toContain(
      'name: save_post                           # Tool name (must match [a-z][a-z0-9_]*)',
    );
    expect(text).toContain('url: "{{env.SUPABASE_URL}}/rest/v1/posts"');
    expect(text).toContain('  - "*.supabase.co"');
  });

  it('loads unchanged into a network tool with a JSON Schema the model can use', async () => {
    const { tool, spec } = await savePost();
    expect(spec.name).toBe('save_post');
    expect(spec.kind).toBe('network');
    expect(spec.title).toBe('Save post');
    expect(tool.dialect).toBe('openclaw');
    expect(tool.source).toEqual({ file: 'agents/somi/api-tools/save_post.yaml', scope: 'agent', path: [] });
    expect(spec.definition).toEqual({
      name: 'save_post',
      description: 'Save a post to the content calendar',
      parameters: {
        type: 'object',
        properties: {
          platform: {
            type: 'string',
            description: 'Target platform',
            enum: ['youtube', 'instagram', 'facebook', 'linkedin', 'tiktok'],
          },
          content: { type: 'string', description: 'Post body text' },
          title: { type: 'string', description: 'Short title for calendar display' },
          scheduled_date: { type: 'string', description: 'ISO 8601 datetime' },
          status: {
            type: 'string',
            description: 'Post status',
            enum: ['draft', 'scheduled'],
            default: 'draft',
          },
        },
        required: ['platform', 'content', 'scheduled_date'],
        additionalProperties: false,
      },
    });
    expect(requiredSecrets(tool)).toEqual(['SUPABASE_SERVICE_KEY', 'SUPABASE_URL', 'TENANT_ID']);
  });

  it('sends exactly the request its template describes to the PostgREST endpoint', async () => {
    const { spec } = await savePost();
    const content = 'Launch day: "LeMMing" ships {{env.SUPABASE_SERVICE_KEY}} \\ ${secrets.X}';
    const result = await spec.run(
      { platform: 'linkedin', content, scheduled_date: '2026-03-02T09:00:00Z' },
      toolContext(world.org.org),
    );

    expect(world.server.received).toHaveLength(1);
    const [request] = world.server.received;
    expect(request?.method).toBe('POST');
    expect(request?.target).toBe('/rest/v1/posts');
    expect(request?.headers).toMatchObject({
      host: `${HOST}:${world.server.port}`,
      authorization: `Bearer ${SERVICE_KEY}`,
      apikey: SERVICE_KEY,
      'content-type': 'application/json',
    });
    expect(request?.body).toBe(
      JSON.stringify({
        tenant_id: 'tenant-42',
        agent_slug: 'somi',
        platform: 'linkedin',
        content,
        scheduled_date: '2026-03-02T09:00:00Z',
        status: 'draft',
      }),
    );

    expect(result.success).toBe(true);
    expect(result.error).toBeNull();
    expect(JSON.parse(result.output ?? '')).toEqual({
      status: 201,
      summary: 'Post saved to calendar.',
      body: '',
    });
    expect(world.server.tables.get('posts')).toEqual([{ id: 1, ...JSON.parse(request?.body ?? '') }]);
    expect(result.output).not.toContain(SERVICE_KEY);
  });

  it('sends a title when one is given and leaves it out when not', async () => {
    const { spec } = await savePost();
    await spec.run(
      { platform: 'youtube', content: 'a', scheduled_date: 'd', title: 'T', status: 'scheduled' },
      toolContext(world.org.org),
    );
    await spec.run({ platform: 'youtube', content: 'b', scheduled_date: 'd' }, toolContext(world.org.org));
    expect(world.server.received.map((request) => JSON.parse(request.body))).toEqual([
      {
        tenant_id: 'tenant-42',
        agent_slug: 'somi',
        platform: 'youtube',
        content: 'a',
        title: 'T',
        scheduled_date: 'd',
        status: 'scheduled',
      },
      {
        tenant_id: 'tenant-42',
        agent_slug: 'somi',
        platform: 'youtube',
        content: 'b',
        scheduled_date: 'd',
        status: 'draft',
      },
    ]);
  });

  it('answers a refused key with its error template, without echoing the key', async () => {
    const { spec } = await savePost(settings({ SUPABASE_SERVICE_KEY: 'wrong-key-123456' }));
    const result = await spec.run(
      { platform: 'tiktok', content: 'x', scheduled_date: 'd' },
      toolContext(world.org.org),
    );
    expect(result).toEqual({
      success: false,
      output: null,
      error: 'Save error (401): Invalid API key',
      failure: { kind: 'auth', status: 401, retryable: false },
    });
    expect(world.server.received[0]?.headers.apikey).toBe('wrong-key-123456');
  });

  it('refuses arguments its parameters do not allow, before anything is sent', async () => {
    const { spec } = await savePost();
    const context = toolContext(world.org.org);
    expect((await spec.run({ platform: 'myspace', content: 'x', scheduled_date: 'd' }, context)).error).toBe(
      'invalid arguments for save_post: argument \'platform\' must be one of "youtube", "instagram", "facebook", "linkedin", "tiktok"',
    );
    expect((await spec.run({ platform: 'youtube', content: 5, scheduled_date: 'd' }, context)).error).toBe(
      "invalid arguments for save_post: argument 'content' must be text (a string)",
    );
    expect((await spec.run({ platform: 'youtube', content: 'x' }, context)).error).toBe(
      "invalid arguments for save_post: missing required argument 'scheduled_date'",
    );
    expect(
      (await spec.run({ platform: 'youtube', content: 'x', scheduled_date: 'd', colour: 'red' }, context))
        .error,
    ).toBe("invalid arguments for save_post: unknown argument 'colour'");
    expect(world.server.received).toEqual([]);
  });

  it('is not ready, and sends nothing, until its settings are filled in', async () => {
    const lookup = secretTable({ SUPABASE_URL: `http://${HOST}:${world.server.port}`, TENANT_ID: '' });
    const { tool, spec, readiness } = await savePost(lookup);
    expect(readiness).toEqual({
      ready: false,
      reason: 'missing config/secret SUPABASE_SERVICE_KEY, TENANT_ID',
      fix: 'Fill in SUPABASE_SERVICE_KEY, TENANT_ID in the settings of the save_post connector (Tool Store).',
    });
    expect(composedToolReadiness(tool, settings(), refusesNothing)).toEqual({ ready: true });
    const result = await spec.run(
      { platform: 'youtube', content: 'x', scheduled_date: 'd' },
      toolContext(world.org.org),
    );
    expect(result.error).toBe(
      'save_post is not set up: missing config/secret SUPABASE_SERVICE_KEY, TENANT_ID',
    );
    expect(world.server.received).toEqual([]);
  });

  it('refuses a base URL outside allowed_hosts', async () => {
    const { spec } = await savePost(
      settings({ SUPABASE_URL: `http://evil.example.test:${world.server.port}` }),
    );
    const result = await spec.run(
      { platform: 'youtube', content: 'x', scheduled_date: 'd' },
      toolContext(world.org.org),
    );
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/^save_post: the request was not completed \(host_not_allowed\)/);
    expect(result.error).not.toContain(SERVICE_KEY);
    expect(world.server.received).toEqual([]);
  });
});
