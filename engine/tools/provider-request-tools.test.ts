import { afterEach, describe, expect, it } from 'vitest';
import { sendJson, startLoopbackServer } from '../models/test-support/loopback-server';
import { OrgEngine } from '../run/org-engine';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { toolCatalog, type CatalogEntry, type CatalogEnvironment } from './tool-catalog';
import { toolSuccess } from './tool-result';
import type { ToolSpec } from './tool-spec';
import { trustAsIs } from '../trust/test-support/trust-as-is';

const orgs = tempOrgs();
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  orgs.cleanup();
});

const weatherSpec: ToolSpec = {
  name: 'fetch_weather',
  kind: 'network',
  title: 'Weather',
  definition: {
    name: 'fetch_weather',
    description: "Today's weather",
    parameters: { type: 'object', properties: {} },
  },
  run: async () => toolSuccess('sunny'),
};
const stockSpec: ToolSpec = {
  ...weatherSpec,
  name: 'stock_price',
  kind: 'org',
  title: 'Stock price',
  definition: { ...weatherSpec.definition, name: 'stock_price' },
};

/** The built-in catalog plus a network tool and a connector whose secret is missing. */
function catalogWithConnectors(
  context: { resume: Parameters<typeof toolCatalog>[0] },
  environment: CatalogEnvironment,
): CatalogEntry[] {
  return [
    ...toolCatalog(context.resume, environment),
    { spec: weatherSpec, grantedBy: ['fetch_weather', 'group:network'], readiness: { ready: true } },
    {
      spec: stockSpec,
      grantedBy: ['stock_price'],
      readiness: {
        ready: false,
        reason: 'the secret STOCKS_KEY is not set',
        fix: 'set the secret STOCKS_KEY',
      },
    },
  ];
}

describe('the tools in a provider request', () => {
  it("are exactly the resolver's available tools, for agents refused at every layer", async () => {
    const server = await startLoopbackServer((_request, response) =>
      sendJson(response, 200, {
        id: 'c',
        object: 'chat.completion',
        choices: [
          { index: 0, message: { role: 'assistant', content: '{"notes":"ok"}' }, finish_reason: 'stop' },
        ],
      }),
    );
    cleanups.push(() => server.close());
    const agents: Record<string, Record<string, unknown>> = {
      everything: { tools: ['group:memory', 'file_read', 'list_agents', 'fetch_weather', 'stock_price'] },
      allowlist: { tools: ['memory_read'] },
      org_deny: { tools: ['memory_read', 'memory_write', 'create_agent'] },
      org_kind: { tools: ['file_read', 'file_write', 'memory_read'] },
      agent_kind: { tools: ['memory_read', 'list_agents'], tool_kinds: ['memory'] },
      readiness: { tools: ['stock_price', 'memory_read'] },
      network: { tools: ['fetch_weather', 'memory_read'] },
    };
    const files: Record<string, unknown> = {
      'lemming/config/models.json': {
        m: {
          provider: 'openai-compatible',
          model_name: 'test',
          provider_config: { base_url: `${server.url}/v1`, max_retries: 0 },
        },
      },
      // create_agent is denied to everyone; network is left off, so fetch_weather is refused by kind for all.
      'lemming/config/policy.json': {
        tools: { deny: ['create_agent', 'memory_write'] },
        allowed_tool_kinds: ['memory', 'org', 'network'],
      },
      'lemming/config/credits.json': { broke: { model: 'm', cost_per_action: 0.01, credits_left: 0 } },
      'agents/broke/resume.json': resume('broke', {
        model: { key: 'm' },
        permissions: { read_outboxes: [], tools: ['memory_read'] },
      }),
    };
    for (const [name, permissions] of Object.entries(agents)) {
      files[`agents/${name}/resume.json`] = resume(name, {
        model: { key: 'm' },
        permissions: { read_outboxes: [], ...permissions },
      });
    }
    const org = orgs.build(files);
    const engine = await OrgEngine.open({
      trust: await trustAsIs(org),
      orgPath: org,
      env: {},
      catalog: catalogWithConnectors,
      concurrency: 1,
    });
    cleanups.push(() => engine.close());
    await engine.runTick();

    const offered = new Map<string, string[]>();
    for (const request of server.received) {
      const body = request.json as {
        messages: { content: string }[];
        tools?: { function: { name: string } }[];
      };
      const who = /You are: (\w+)/.exec(body.messages.map((message) => message.content).join('\n'))![1]!;
      offered.set(who, (body.tools ?? []).map((tool) => tool.function.name).sort());
    }
    const refusedBy = new Map<string, Set<string>>();
    for (const name of [...Object.keys(agents), 'broke']) {
      const verdicts = await engine.explainTools(name);
      const available = verdicts
        .filter((verdict) => verdict.available)
        .map((verdict) => verdict.name)
        .sort();
      for (const verdict of verdicts.filter((candidate) => !candidate.available)) {
        const layer = verdict.layers.find((candidate) => !candidate.passed)!.layer;
        refusedBy.set(layer, new Set([...(refusedBy.get(layer) ?? []), name]));
      }
      if (name === 'broke') {
        expect(offered.has('broke'), 'an agent without credits makes no call').toBe(false);
        expect(available).toEqual([]);
      } else {
        expect(offered.get(name), name).toEqual(available);
      }
    }
    // file tools are not an allowed kind, memory_write is denied, network is off and stock_price is not set up.
    expect(offered.get('everything')).toEqual(['list_agents', 'memory_read']);
    // Every layer refused something for some agent in this org.
    expect([...refusedBy.keys()].sort()).toEqual(['allowlist', 'credits', 'kind', 'org_deny', 'readiness']);
  });
});
