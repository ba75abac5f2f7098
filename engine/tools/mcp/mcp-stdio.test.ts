import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { referenceServers } from './test-support/reference-servers';
import { lemming, SCRIPTED_MODELS, callOnce, trustOrg } from './test-support/mcp-cli';

const orgs = tempOrgs();
afterEach(() => orgs.cleanup());

interface ToolResultEvent {
  agent: string;
  tool: string;
  result: { success: boolean; output: string | null; error: string | null };
}

/** The tool results the timeline holds, read with `lemming timeline --json` as a user would. */
export async function toolResults(org: string): Promise<ToolResultEvent[]> {
  const timeline = await lemming(['timeline', org, '--kind', 'tool_result', '--json']);
  return (JSON.parse(timeline.stdout) as { events: { event: ToolResultEvent }[] }).events.map(
    (row) => row.event,
  );
}

/**
 * An org whose mcp.json runs the reference "everything" server and whose agent ada is granted `tools`
 * (all of the server's, unless given); `files` adds files of the org. Trusted by its person.
 */
function everythingOrg(
  files: Record<string, unknown> = {},
  tools = ['group:mcp:everything'],
): Promise<string> {
  return trustOrg(
    orgs.build({
      'lemming/config/mcp.json': { mcpServers: { everything: referenceServers.everything() } },
      'agents/ada/resume.json': resume('ada', { permissions: { read_outboxes: [], tools } }),
      ...files,
    }),
  );
}

/** `lemming call <org> ada <tool> <args>`: ada's call of one tool, outside a run. */
function callAsAda(org: string, tool: string, args: unknown = {}) {
  return lemming(['call', org, 'ada', tool, JSON.stringify(args)]);
}

describe('MCP servers over stdio (the reference servers)', () => {
  it(
    'lemming connectors starts them and lists their tools with descriptions, schemas and annotations',
    { timeout: 60_000 },
    async () => {
      const org = await everythingOrg();
      const text = await lemming(['connectors', org]);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/ready\s+everything \(mcp:everything\)/);
      expect(text.stdout).toContain('status: running');
      expect(text.stdout).toMatch(/tool mcp__everything__echo.*: Echoes back the input/);
      expect(text.stdout).toContain('with your rights');
      expect(text.stdout).toMatch(/granted to: ada/);

      const json = await lemming(['connectors', org, '--json']);
      const card = (
        JSON.parse(json.stdout) as {
          connectors: {
            id: string;
            mcp?: { tools: { name: string; inputSchema: unknown; annotations: unknown }[] };
          }[];
        }
      ).connectors.find((connector) => connector.id === 'mcp:everything');
      const echo = card?.mcp?.tools.find((tool) => tool.name === 'echo');
      expect(echo?.inputSchema).toMatchObject({
        type: 'object',
        properties: { message: { type: 'string' } },
      });
      expect(card?.mcp?.tools.some((tool) => Object.keys(tool.annotations as object).length > 0)).toBe(true);
    },
  );

  it(
    'an agent granted mcp__everything__echo calls it in a turn and the result is in the timeline; one not granted gets the reason',
    { timeout: 60_000 },
    async () => {
      const org = await everythingOrg(
        {
          'lemming/config/models.json': SCRIPTED_MODELS,
          'script.json': callOnce('mcp__everything__echo', { message: 'hello from ada' }),
          'agents/bob/resume.json': resume('bob', {
            permissions: { read_outboxes: [], tools: ['memory_read'] },
          }),
        },
        ['mcp__everything__echo'],
      );
      // Its server's hints are not trusted here, so the call asks first: the person approves it on the command line.
      const run = await lemming(['run', org, '--ticks', '1', '--approve', 'mcp__everything__echo']);
      expect(run.code, run.stderr + run.stdout).toBe(0);
      const results = await toolResults(org);
      const ada = results.find((event) => event.agent === 'ada');
      expect(ada).toMatchObject({
        tool: 'mcp__everything__echo',
        result: { success: true, output: 'Echo: hello from ada' },
      });
      const bob = results.find((event) => event.agent === 'bob');
      expect(bob?.result.success).toBe(false);
      expect(bob?.result.error).toMatch(
        /not permitted for bob: its resume does not grant it \(add "mcp__everything__echo" to permissions.tools\)/,
      );

      const tools = await lemming(['tools', org, 'bob']);
      expect(tools.stdout).toContain('mcp__everything__echo');
    },
  );

  it(
    "checks the arguments against the server's input schema before calling it",
    { timeout: 60_000 },
    async () => {
      const org = await everythingOrg();
      const bad = await callAsAda(org, 'mcp__everything__echo', { message: 42 });
      expect(bad.stdout + bad.stderr).toMatch(
        /do not fit mcp__everything__echo's input schema: message must be string/,
      );
      const good = await callAsAda(org, 'mcp__everything__echo', { message: 'hi' });
      expect(good.stdout).toContain('Echo: hi');
    },
  );

  it(
    'the org deny list, tool kinds and per-tool costs apply to MCP tools; images come back as references',
    { timeout: 60_000 },
    async () => {
      const org = await everythingOrg({
        'lemming/config/policy.json': {
          tools: { deny: ['mcp__everything__get-env'] },
          tool_costs: { mcp__everything__echo: 2 },
        },
      });
      const denied = await callAsAda(org, 'mcp__everything__get-env');
      expect(denied.stdout + denied.stderr).toMatch(
        /the org denies it to every agent \(tools\.deny in lemming\/config\/policy\.json\)/,
      );

      const paid = await callAsAda(org, 'mcp__everything__echo', { message: 'paid' });
      expect(paid.stdout).toContain('Echo: paid');
      const credits = await lemming(['timeline', org, '--kind', 'credit', '--json']);
      expect(credits.stdout).toContain('tool mcp__everything__echo');

      const image = await callAsAda(org, 'mcp__everything__get-tiny-image');
      // The image is referred to; its bytes are kept beside the timeline, not printed.
      expect(image.stdout).toMatch(/\[image: image\/png, \d+ bytes\]/);
      expect(image.stdout).not.toMatch(/iVBOR/);

      writeFileSync(
        join(org, 'lemming/config/policy.json'),
        JSON.stringify({ allowed_tool_kinds: ['file', 'memory'] }),
      );
      const kind = await callAsAda(org, 'mcp__everything__echo', { message: 'no' });
      expect(kind.stdout + kind.stderr).toMatch(/the org does not allow mcp tools \(allowed_tool_kinds/);
    },
  );

  it('the filesystem server works only on the folder its config gives it', { timeout: 60_000 }, async () => {
    const org = orgs.build({
      'shared/notes/plan.md': 'the plan\n',
      'agents/ada/workspace/secret.md': 'not for the server\n',
      'agents/ada/resume.json': resume('ada', {
        permissions: { read_outboxes: [], tools: ['group:mcp:files'] },
      }),
    });
    const allowed = join(org, 'shared', 'notes');
    mkdirSync(join(org, 'lemming/config'), { recursive: true });
    writeFileSync(
      join(org, 'lemming/config/mcp.json'),
      JSON.stringify({ mcpServers: { files: referenceServers.filesystem(allowed) } }),
    );
    await trustOrg(org);
    const inside = await callAsAda(org, 'mcp__files__read_text_file', { path: join(allowed, 'plan.md') });
    expect(inside.stdout).toContain('the plan');
    const outside = await callAsAda(org, 'mcp__files__read_text_file', {
      path: join(org, 'agents/ada/workspace/secret.md'),
    });
    expect(outside.stdout + outside.stderr).not.toContain('not for the server');
    expect(outside.stdout + outside.stderr).toMatch(/outside allowed directories|Access denied/i);
    const escape = await callAsAda(org, 'mcp__files__read_text_file', {
      path: join(allowed, '..', '..', 'agents/ada/workspace/secret.md'),
    });
    expect(escape.stdout + escape.stderr).not.toContain('not for the server');
  });
});
