import { describe, expect, it } from 'vitest';
import { DEFAULT_ORG_POLICY, type OrgPolicy } from '../org/policy-file';
import { ResumeSchema, type Resume } from '../org/resume-schema';
import { applyChange, resolveTools, type PolicyInput, type ToolVerdict } from './policy-resolver';
import { toolCatalog, type CatalogEntry } from './tool-catalog';
import { toolSuccess } from './tool-result';
import type { ToolSpec } from './tool-spec';

function resume(permissions: Record<string, unknown>): Resume {
  return ResumeSchema.parse({
    name: 'ada',
    title: 'Ada',
    instructions: '',
    model: { key: 'm' },
    permissions: { read_outboxes: [], tools: [], ...permissions },
    schedule: { run_every_n_ticks: 1, phase_offset: 0 },
  });
}

const fetchWeather: ToolSpec = {
  name: 'fetch_weather',
  kind: 'network',
  title: 'Weather',
  definition: { name: 'fetch_weather', description: 'Weather', parameters: { type: 'object' } },
  run: async () => toolSuccess('sunny'),
};

function input(
  permissions: Record<string, unknown>,
  policy: Partial<OrgPolicy> = {},
  extra: CatalogEntry[] = [],
  credits: number | null = 10,
): PolicyInput {
  const agent = resume(permissions);
  return {
    resume: agent,
    policy: { ...DEFAULT_ORG_POLICY, ...policy },
    catalog: [
      ...toolCatalog(agent, { confinement: { kind: 'none', reason: 'not probed in this test' } }),
      ...extra,
    ],
    credits,
  };
}

function verdict(of: PolicyInput, name: string): ToolVerdict {
  const found = resolveTools(of).find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no verdict for ${name}`);
  return found;
}

const failingLayer = (found: ToolVerdict) => found.layers.find((layer) => !layer.passed)?.layer ?? null;

describe('the policy resolver', () => {
  const cases: {
    what: string;
    input: PolicyInput;
    tool: string;
    layer: string | null;
    reason?: RegExp;
    fix?: RegExp;
  }[] = [
    { what: 'granted by name', input: input({ tools: ['memory_read'] }), tool: 'memory_read', layer: null },
    {
      what: 'granted by its group',
      input: input({ tools: ['group:memory'] }),
      tool: 'memory_write',
      layer: null,
    },
    {
      what: 'not granted',
      input: input({ tools: ['memory_read'] }),
      tool: 'memory_write',
      layer: 'allowlist',
      reason: /does not grant it/,
      fix: /add "memory_write" to ada's permissions.tools/,
    },
    {
      what: 'nothing is granted implicitly',
      input: input({ tools: [] }),
      tool: 'list_agents',
      layer: 'allowlist',
    },
    {
      what: 'denied by the org',
      input: input({ tools: ['memory_read'] }, { tools: { deny: ['memory_read'] } }),
      tool: 'memory_read',
      layer: 'org_deny',
      reason: /tools.deny/,
      fix: /remove "memory_read" from tools.deny/,
    },
    {
      what: 'kind not allowed by the org',
      input: input({ tools: ['file_read'] }, { allowed_tool_kinds: ['memory', 'org'] }),
      tool: 'file_read',
      layer: 'kind',
      reason: /does not allow file tools/,
      fix: /add "file" to allowed_tool_kinds/,
    },
    {
      what: 'kind not allowed for the agent',
      input: input({ tools: ['list_agents'], tool_kinds: ['memory'] }),
      tool: 'list_agents',
      layer: 'kind',
      reason: /permissions.tool_kinds/,
      fix: /add "org" to ada's permissions.tool_kinds/,
    },
    {
      what: 'network is off by default',
      input: input({ tools: ['fetch_weather'] }, {}, [
        { spec: fetchWeather, grantedBy: ['fetch_weather'], readiness: { ready: true } },
      ]),
      tool: 'fetch_weather',
      layer: 'kind',
      reason: /network access is off/,
      fix: /set network.enabled to true/,
    },
    {
      what: 'a connector that is not configured',
      input: input({ tools: ['fetch_weather'] }, { network: { enabled: true, private_hosts: [] } }, [
        {
          spec: fetchWeather,
          grantedBy: ['fetch_weather'],
          readiness: {
            ready: false,
            reason: 'the secret WEATHER_KEY is not set',
            fix: 'set the secret WEATHER_KEY',
          },
        },
      ]),
      tool: 'fetch_weather',
      layer: 'readiness',
      reason: /WEATHER_KEY is not set/,
      fix: /set the secret WEATHER_KEY/,
    },
    {
      what: 'no credits',
      input: input({ tools: ['memory_read'] }, {}, [], 0),
      tool: 'memory_read',
      layer: 'credits',
      reason: /no credits/,
      fix: /top up ada's credits/,
    },
  ];

  for (const testCase of cases) {
    it(`${testCase.what}: ${testCase.layer ?? 'available'}`, () => {
      const found = verdict(testCase.input, testCase.tool);
      expect(failingLayer(found)).toBe(testCase.layer);
      expect(found.available).toBe(testCase.layer === null);
      expect(found.layers.map((layer) => layer.layer)).toEqual([
        'allowlist',
        'org_deny',
        'kind',
        'readiness',
        'credits',
      ]);
      if (testCase.reason)
        expect(found.layers.find((layer) => !layer.passed)!.reason).toMatch(testCase.reason);
      if (testCase.fix) expect(found.fix?.summary).toMatch(testCase.fix);
    });
  }

  it('says every verdict and fix in plain words too, with no file, field or tool id in them', () => {
    const jargon =
      /\.json|permissions\.|allowed_tool_kinds|tools\.deny|network\.enabled|tool_kinds|group:|\b[a-z]+_[a-z]+\b/;
    for (const testCase of cases) {
      const found = verdict(testCase.input, testCase.tool);
      for (const layer of found.layers)
        expect(layer.plain, `${testCase.what}: ${layer.layer}`).not.toMatch(jargon);
      if (testCase.layer !== null) expect(found.fix?.plain, testCase.what).not.toMatch(jargon);
    }
    const network = verdict(
      cases.find((c) => c.what === 'network is off by default')!.input,
      'fetch_weather',
    );
    expect(network.layers.find((layer) => !layer.passed)?.plain).toBe('internet access is off for this org');
    expect(network.fix?.plain).toBe('turn internet access on for the org');
    const notGranted = verdict(cases.find((c) => c.what === 'not granted')!.input, 'memory_write');
    expect(notGranted.fix?.plain).toBe('switch “Save a memory” on for ada');
  });

  it('every suggested fix makes the tool available when applied (checked by resolving again)', () => {
    for (const testCase of cases.filter((candidate) => candidate.layer !== null)) {
      const found = verdict(testCase.input, testCase.tool);
      const entry = testCase.input.catalog.find((candidate) => candidate.spec.name === testCase.tool);
      const fixed = found.fix!.changes.reduce(
        (current, change) =>
          applyChange(
            current,
            change,
            current.catalog.find((candidate) => candidate.spec.name === testCase.tool) ?? entry,
          ),
        testCase.input,
      );
      expect(verdict(fixed, testCase.tool).available, testCase.what).toBe(true);
    }
  });

  it('a tool refused by several layers gets a fix with a change for each, in layer order', () => {
    const refused = input({ tools: [], tool_kinds: ['memory'] }, { tools: { deny: ['list_agents'] } });
    expect(verdict(refused, 'list_agents').fix?.changes).toEqual([
      { kind: 'grant_tool', tool: 'list_agents' },
      { kind: 'undeny_tool', tool: 'list_agents' },
      { kind: 'allow_agent_kind', toolKind: 'org' },
    ]);
  });
});
