import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_POLICY, type OrgPolicy } from '../../org/policy-file';
import { TOOLS_PROFILES } from '../../api/agent-schemas';
import { type Resume } from '../../org/resume-schema';
import { openFileSecretStore } from '../../secrets/file-secret-store';
import { secretPresence } from '../../secrets/secret-store';
import { memoryReadTool } from '../lemming-core-tools';
import { resolveTools } from '../policy-resolver';
import { toolCatalog, type CatalogEntry } from '../tool-catalog';
import { BUILTIN_CONNECTORS } from './builtin-connectors';
import { connectorCatalog, withConnectorReadiness, type ComposedConnectorInput } from './catalog';
import { Connector } from './connector';
import { fetchWeather } from '../test-support/weather-tool';
import { parsedResume } from '../../run/test-support/temp-org';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Secret presence from a real secrets file holding the given secrets. */
async function presence(secrets: Record<string, string>): Promise<(name: string) => boolean> {
  const dir = mkdtempSync(join(tmpdir(), 'lemming-connectors-'));
  made.push(dir);
  const opened = await openFileSecretStore(join(dir, 'secrets.json'));
  if (!opened.ok) throw new Error(opened.error);
  for (const [name, value] of Object.entries(secrets)) await opened.value.store.set(name, value);
  return secretPresence(opened.value.store);
}

const weather: ComposedConnectorInput = {
  name: 'fetch_weather',
  description: "Today's weather for a city.",
  file: 'tools/weather.yaml',
  agent: null,
  toolKind: 'network',
  secrets: [
    { name: 'WEATHER_KEY', description: 'API key from weather.example' },
    { name: 'WEATHER_ACCOUNT' },
  ],
  problems: [],
};

const find = (connectors: Connector[], id: string): Connector => {
  const found = connectors.find((connector) => connector.id === id);
  if (!found) throw new Error(`no connector ${id}`);
  return found;
};

const policy = (changes: Partial<OrgPolicy> = {}): OrgPolicy => ({ ...DEFAULT_ORG_POLICY, ...changes });

describe('the connector catalog', () => {
  it('lists the built-in primitives by kind, each valid against the schema the app shares', async () => {
    const connectors = connectorCatalog({ policy: policy(), hasSecret: await presence({}) });
    expect(connectors.map((connector) => connector.id)).toEqual([
      'builtin:files',
      'builtin:shell',
      'builtin:web',
      'builtin:memory',
      'builtin:org',
    ]);
    for (const connector of connectors) expect(Connector.parse(connector)).toEqual(connector);
    expect(find(connectors, 'builtin:web')).toMatchObject({
      name: 'Web requests',
      tools: ['http_request'],
      toolKinds: ['network'],
      readiness: { ready: true },
      config: { file: 'lemming/config/policy.json', pointer: '/network' },
    });
  });

  it('says which org-level permissions the org meets, network included, and denied tools', async () => {
    const hasSecret = await presence({});
    const closed = find(
      connectorCatalog({ policy: policy({ tools: { deny: ['file_write'] } }), hasSecret }),
      'builtin:web',
    );
    expect(closed.permissions).toEqual([
      {
        scope: 'agent',
        requirement: 'add "http_request" or "group:network" to the agent\'s permissions.tools',
        plain: 'switched on for each agent that should use it (on its page, or under Tools below)',
        met: null,
      },
      {
        scope: 'org',
        requirement: '"network" is in allowed_tool_kinds (lemming/config/policy.json)',
        plain: 'internet tools are allowed for the org',
        met: true,
      },
      {
        scope: 'org',
        requirement: 'network.enabled is true (lemming/config/policy.json)',
        plain: 'internet access is on for the org',
        met: false,
      },
    ]);
    const open = find(
      connectorCatalog({ policy: policy({ network: { enabled: true, private_hosts: [] } }), hasSecret }),
      'builtin:web',
    );
    expect(
      open.permissions
        .filter((permission) => permission.scope === 'org')
        .every((permission) => permission.met),
    ).toBe(true);
    const files = find(
      connectorCatalog({
        policy: policy({ tools: { deny: ['file_write'] }, allowed_tool_kinds: ['memory'] }),
        hasSecret,
      }),
      'builtin:files',
    );
    expect(
      files.permissions
        .filter((permission) => permission.met === false)
        .map((permission) => permission.requirement),
    ).toEqual([
      '"file" is in allowed_tool_kinds (lemming/config/policy.json)',
      '"file_write" is not in tools.deny (lemming/config/policy.json)',
    ]);
  });

  it('says plainly when the shell is not confined on this machine', async () => {
    const hasSecret = await presence({});
    const unconfined = find(
      connectorCatalog({
        policy: policy(),
        hasSecret,
        confinement: { kind: 'none', reason: 'bubblewrap is not installed' },
      }),
      'builtin:shell',
    );
    expect(unconfined.readiness).toEqual({
      ready: true,
      note: expect.stringMatching(
        /^Shell access is not confined on this machine \(bubblewrap is not installed\)/,
      ),
      plainNote: expect.stringMatching(/^Shell commands are not walled off on this computer/),
    });
    const confined = find(
      connectorCatalog({
        policy: policy(),
        hasSecret,
        confinement: { kind: 'sandbox-exec', sandboxExecPath: '/usr/bin/sandbox-exec' },
      }),
      'builtin:shell',
    );
    expect(confined.readiness).toEqual({
      ready: true,
      note: expect.stringMatching(/confined by the macOS sandbox/),
      plainNote: expect.stringMatching(/^Shell commands run walled off/),
    });
  });

  it('a composed tool is ready only when every secret it needs is set, and says which are missing and how to set them', async () => {
    const none = find(
      connectorCatalog({ policy: policy(), hasSecret: await presence({}), composed: [weather] }),
      'composed:org:fetch_weather',
    );
    expect(none).toMatchObject({
      name: 'Fetch weather',
      kind: 'composed',
      tools: ['fetch_weather'],
      source: { file: 'tools/weather.yaml', agent: null },
      secrets: [
        { name: 'WEATHER_KEY', description: 'API key from weather.example', isSet: false },
        { name: 'WEATHER_ACCOUNT', description: 'used by Fetch weather', isSet: false },
      ],
      readiness: {
        ready: false,
        reason: 'it needs the secrets WEATHER_KEY and WEATHER_ACCOUNT, which are not set',
        fix: 'set WEATHER_KEY and WEATHER_ACCOUNT in the Tool Store (or: lemming secret set WEATHER_KEY; lemming secret set WEATHER_ACCOUNT)',
      },
    });
    expect(none.configSchema).toEqual({
      type: 'object',
      properties: {
        WEATHER_KEY: {
          type: 'string',
          title: 'WEATHER_KEY',
          description: 'API key from weather.example',
          writeOnly: true,
        },
        WEATHER_ACCOUNT: {
          type: 'string',
          title: 'WEATHER_ACCOUNT',
          description: 'used by Fetch weather',
          writeOnly: true,
        },
      },
      required: ['WEATHER_KEY', 'WEATHER_ACCOUNT'],
      additionalProperties: false,
    });

    const one = find(
      connectorCatalog({
        policy: policy(),
        hasSecret: await presence({ WEATHER_KEY: 'k-123456' }),
        composed: [weather],
      }),
      'composed:org:fetch_weather',
    );
    expect(one.readiness).toMatchObject({
      ready: false,
      reason: 'it needs the secret WEATHER_ACCOUNT, which is not set',
    });
    const both = find(
      connectorCatalog({
        policy: policy(),
        hasSecret: await presence({ WEATHER_KEY: 'k-123456', WEATHER_ACCOUNT: 'acct-1' }),
        composed: [weather],
      }),
      'composed:org:fetch_weather',
    );
    expect(both.readiness).toEqual({ ready: true });
    expect(JSON.stringify(both)).not.toContain('k-123456');
  });

  it('a composed tool with load errors or an impossible secret name is not ready, pointing at its file', async () => {
    const hasSecret = await presence({});
    const broken = find(
      connectorCatalog({
        policy: policy(),
        hasSecret,
        composed: [{ ...weather, problems: ['url: unknown placeholder {{params.cty}}', 'name: required'] }],
      }),
      'composed:org:fetch_weather',
    );
    expect(broken.readiness).toEqual({
      ready: false,
      reason: 'tools/weather.yaml has errors: url: unknown placeholder {{params.cty}} (and 1 more problem)',
      fix: 'fix tools/weather.yaml',
      plain: {
        reason: 'its tool file has mistakes, so it cannot be used',
        fix: 'have its tool file corrected (what is wrong is under Advanced)',
      },
    });
    const badName = find(
      connectorCatalog({
        policy: policy(),
        hasSecret,
        composed: [{ ...weather, secrets: [{ name: 'weather-key' }] }],
      }),
      'composed:org:fetch_weather',
    );
    expect(badName.readiness).toMatchObject({
      ready: false,
      reason: expect.stringMatching(/cannot have: "weather-key" is not a valid secret name/),
      fix: 'rename the secret in tools/weather.yaml',
    });
  });

  it("says which agents are granted each connector, by tool or group; an agent's own tool only for that agent", async () => {
    const agents = [
      { name: 'ada', folder: 'ada', tools: ['file_read', 'fetch_weather'] },
      { name: 'bob', folder: 'bob', tools: ['group:network', 'group:fs'] },
      { name: 'cy', folder: 'cy', tools: ['memory_read'] },
    ];
    const own: ComposedConnectorInput = {
      ...weather,
      name: 'stock_price',
      file: 'agents/cy/api-tools/stock.yaml',
      agent: 'cy',
      secrets: [],
    };
    const connectors = connectorCatalog({
      policy: policy(),
      hasSecret: await presence({}),
      composed: [weather, own],
      agents,
    });
    expect(find(connectors, 'builtin:files').grantedTo).toEqual(['ada', 'bob']);
    expect(find(connectors, 'builtin:web').grantedTo).toEqual(['bob']);
    expect(find(connectors, 'composed:org:fetch_weather').grantedTo).toEqual(['ada', 'bob']);
    expect(find(connectors, 'composed:agent:cy:stock_price')).toMatchObject({
      grantedTo: [],
      readiness: { ready: true },
      source: { agent: 'cy' },
    });
  });

  it('has a connector, of the same kind, for every tool the built-in catalog offers in every tools profile', () => {
    for (const profile of TOOLS_PROFILES) {
      for (const entry of toolCatalog(resume(['group:fs'], profile), {
        confinement: { kind: 'none', reason: 'not probed' },
      })) {
        const connector = BUILTIN_CONNECTORS.find((candidate) => candidate.tools.includes(entry.spec.name));
        expect(connector?.toolKind, `${entry.spec.name} (${profile})`).toBe(entry.spec.kind);
      }
    }
  });
});

function resume(tools: string[], profile: (typeof TOOLS_PROFILES)[number] = 'lemming'): Resume {
  return parsedResume('ada', { permissions: { read_outboxes: [], tools }, tools_profile: profile });
}

describe("connector readiness as the resolver's readiness layer", () => {
  const catalog: CatalogEntry[] = [
    { spec: fetchWeather, grantedBy: ['fetch_weather', 'group:network'], readiness: { ready: true } },
    { spec: memoryReadTool, grantedBy: ['memory_read', 'group:memory'], readiness: { ready: true } },
  ];
  const open = policy({ network: { enabled: true, private_hosts: [] } });

  it("refuses a tool whose connector lacks a secret, with the connector's reason and fix, and leaves other tools alone", async () => {
    const connectors = connectorCatalog({
      policy: open,
      hasSecret: await presence({ WEATHER_KEY: 'k-123456' }),
      composed: [weather],
    });
    const verdicts = resolveTools({
      resume: resume(['fetch_weather', 'memory_read']),
      policy: open,
      catalog: withConnectorReadiness(catalog, connectors),
      credits: 5,
    });
    const [weatherVerdict, memoryVerdict] = verdicts;
    expect(weatherVerdict).toMatchObject({
      available: false,
      fix: { summary: expect.stringMatching(/^set WEATHER_ACCOUNT in the Tool Store/) },
    });
    expect(weatherVerdict!.layers.find((layer) => !layer.passed)).toEqual({
      layer: 'readiness',
      passed: false,
      reason: 'it needs the secret WEATHER_ACCOUNT, which is not set',
      plain: 'it is not set up yet: it needs the key WEATHER_ACCOUNT, which is not set yet',
    });
    expect(memoryVerdict!.available).toBe(true);
  });

  it('lets the tool through once the secret is set', async () => {
    const connectors = connectorCatalog({
      policy: open,
      hasSecret: await presence({ WEATHER_KEY: 'k-123456', WEATHER_ACCOUNT: 'acct-1' }),
      composed: [weather],
    });
    const verdicts = resolveTools({
      resume: resume(['fetch_weather']),
      policy: open,
      catalog: withConnectorReadiness(catalog, connectors),
      credits: 5,
    });
    expect(verdicts[0]!.available).toBe(true);
  });
});
