import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ipcHarnesses, valueOf, type IpcHarness } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());
const openDemo = () => harnesses.openDemo();

interface Verdict {
  name: string;
  available: boolean;
  layers: { layer: string; passed: boolean; reason: string }[];
  fix: { changes: { kind: string }[]; summary: string } | null;
}

async function verdict(harness: IpcHarness, agent: string, tool: string): Promise<Verdict> {
  const { tools } = valueOf<{ tools: Verdict[] }>(await harness.dispatch('tools.explain', { agent }));
  return tools.find((candidate) => candidate.name === tool)!;
}

const policyFile = (org: string) => join(org, 'lemming', 'config', 'policy.json');
const resumeOf = (org: string, agent: string) =>
  JSON.parse(readFileSync(join(org, 'agents', agent, 'resume.json'), 'utf8'));

describe('tools channels', () => {
  it('explain says, layer by layer, why a tool is missing and what fixes it', async () => {
    const { harness } = await openDemo();
    expect(await verdict(harness, 'researcher', 'file_write')).toMatchObject({
      available: false,
      layers: [
        {
          layer: 'allowlist',
          passed: false,
          reason: 'its resume does not grant it (add "file_write" to permissions.tools)',
        },
        ...Array(4).fill(expect.anything()),
      ],
      fix: {
        changes: [{ kind: 'grant_tool', tool: 'file_write' }],
        summary: `add "file_write" to researcher's permissions.tools`,
      },
    });
    expect(await verdict(harness, 'researcher', 'memory_write')).toMatchObject({
      available: true,
      fix: null,
    });
  });

  it("applyFix writes the resolver's own fix to the resume and the org policy, and the tool becomes available", async () => {
    const { harness, org } = await openDemo();
    writeFileSync(
      policyFile(org),
      JSON.stringify({ tools: { deny: ['file_read'] }, allowed_tool_kinds: ['memory', 'org'] }, null, 2),
    );
    expect((await verdict(harness, 'writer', 'file_read')).fix?.changes.map((change) => change.kind)).toEqual(
      ['grant_tool', 'undeny_tool', 'allow_org_kind'],
    );
    const policyBefore = readFileSync(policyFile(org), 'utf8');
    expect(await harness.dispatch('tools.applyFix', { agent: 'writer', tool: 'file_read' })).toMatchObject({
      ok: false,
      error: {
        code: 'needs_confirmation',
        message: expect.stringContaining('changes the whole org, not only writer'),
      },
    });
    expect(readFileSync(policyFile(org), 'utf8')).toBe(policyBefore);
    expect(resumeOf(org, 'writer').permissions.tools).toEqual(['memory_read', 'memory_write']);
    const fixed = valueOf<{ applied: unknown[]; needsUser: unknown[]; tool: Verdict }>(
      await harness.dispatch('tools.applyFix', { agent: 'writer', tool: 'file_read', confirmOrgWide: true }),
    );
    expect(fixed.tool.available).toBe(true);
    expect(fixed.applied).toHaveLength(3);
    expect(fixed.needsUser).toEqual([]);
    expect(resumeOf(org, 'writer').permissions.tools).toEqual(['memory_read', 'memory_write', 'file_read']);
    expect(JSON.parse(readFileSync(policyFile(org), 'utf8'))).toEqual({
      tools: { deny: [] },
      allowed_tool_kinds: ['memory', 'org', 'file'],
    });
  });

  it('applyFix hands back what only the user can do, and refuses a tool the agent cannot have', async () => {
    const { harness, org } = await openDemo();
    const researcher = join(org, 'agents', 'researcher', 'resume.json');
    writeFileSync(
      researcher,
      readFileSync(researcher, 'utf8').replace('"max_credits": 60', '"max_credits": 0'),
    );
    valueOf(await harness.dispatch('run.step', {}));
    const broke = valueOf<{ applied: unknown[]; needsUser: unknown[]; tool: Verdict }>(
      await harness.dispatch('tools.applyFix', { agent: 'researcher', tool: 'memory_write' }),
    );
    expect(broke).toMatchObject({
      applied: [],
      needsUser: [{ change: { kind: 'top_up_credits' }, summary: "top up researcher's credits" }],
      tool: { available: false },
    });
    valueOf(await harness.dispatch('credits.topUp', { agent: 'researcher', amount: 5 }));
    expect((await verdict(harness, 'researcher', 'memory_write')).available).toBe(true);

    expect(await harness.dispatch('tools.applyFix', { agent: 'writer', tool: 'teleport' })).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'writer has no tool named "teleport" in this org.' },
    });
  });

  it('setEnabled grants and withdraws one tool, expanding a group so nothing else changes', async () => {
    const { harness, org } = await openDemo();
    const on = valueOf<{ tool: Verdict; grants: string[] }>(
      await harness.dispatch('tools.setEnabled', { agent: 'writer', tool: 'list_agents', enabled: true }),
    );
    expect(on.grants).toEqual(['memory_read', 'memory_write', 'list_agents']);
    expect(on.tool.available).toBe(true);

    const text = readFileSync(join(org, 'agents', 'writer', 'resume.json'), 'utf8');
    writeFileSync(
      join(org, 'agents', 'writer', 'resume.json'),
      text.replace('"memory_read", "memory_write", "list_agents"', '"group:memory", "list_agents"'),
    );
    const off = valueOf<{ tool: Verdict; grants: string[] }>(
      await harness.dispatch('tools.setEnabled', { agent: 'writer', tool: 'memory_write', enabled: false }),
    );
    expect(off.grants).toEqual(['memory_read', 'list_agents']);
    expect(off.tool).toMatchObject({
      available: false,
      layers: [{ layer: 'allowlist', passed: false }, ...Array(4).fill(expect.anything())],
    });
    expect(resumeOf(org, 'writer').permissions.tools).toEqual(['memory_read', 'list_agents']);
    expect(harness.events).toContainEqual({ name: 'agents.changed', payload: { names: ['writer'] } });
  });

  it("setEnabled and the catalog cover the org's composed tools (connectors) as well as built-in ones", async () => {
    const { harness, org } = await openDemo();
    mkdirSync(join(org, 'tools'));
    writeFileSync(
      join(org, 'tools', 'weather.yaml'),
      [
        'name: fetch_weather',
        'description: Weather for a city',
        'parameters:',
        '  city: {type: string, required: true}',
        'request:',
        '  method: GET',
        '  url: "https://weather.example/v1/today?city={{params.city}}"',
        'allowed_hosts: ["weather.example"]',
        '',
      ].join('\n'),
    );
    const catalog = valueOf<{ tools: { name: string; source: string }[] }>(
      await harness.dispatch('tools.catalog', {}),
    );
    expect(catalog.tools).toContainEqual(
      expect.objectContaining({ name: 'fetch_weather', source: 'connector' }),
    );
    const on = valueOf<{ tool: Verdict; grants: string[] }>(
      await harness.dispatch('tools.setEnabled', { agent: 'writer', tool: 'fetch_weather', enabled: true }),
    );
    expect(on.grants).toEqual(['memory_read', 'memory_write', 'fetch_weather']);
    expect(on.tool.layers[0]).toMatchObject({ layer: 'allowlist', passed: true });
    expect(resumeOf(org, 'writer').permissions.tools).toContain('fetch_weather');
  });

  it('the catalog describes every tool and says which agent has which', async () => {
    const { harness } = await openDemo();
    const catalog = valueOf<{ tools: any[]; grants: any[] }>(await harness.dispatch('tools.catalog', {}));
    expect(catalog.tools.find((tool) => tool.name === 'memory_write')).toMatchObject({
      kind: 'memory',
      title: expect.any(String),
      description: expect.stringMatching(/memory/i),
      grantedBy: ['memory_write', 'group:memory'],
      source: 'built_in',
    });
    expect(catalog.tools.find((tool) => tool.name === 'http_request')?.requiredPermissions).toContain(
      'network access turned on for the org (network.enabled in lemming/config/policy.json)',
    );
    expect(catalog.grants.find((grant) => grant.agent === 'manager')).toEqual({
      agent: 'manager',
      enabled: ['memory_read', 'memory_write', 'list_agents'],
      available: ['memory_read', 'memory_write', 'list_agents'],
    });
  });
});

describe('connectors channels', () => {
  const WEATHER = (keyName: string) =>
    `name: fetch_weather\ndescription: Today's weather\nparameters:\n  city: {type: string, required: true}\nrequest:\n  method: GET\n  url: "https://weather.example/today?city={{params.city}}"\n  headers: {x-api-key: "{{env.${keyName}}}"}\nallowed_hosts: ["weather.example"]\n`;

  it('lists built-in and composed connectors, with settings, secret presence and load errors', async () => {
    const { harness, org } = await openDemo();
    mkdirSync(join(org, 'tools'));
    writeFileSync(join(org, 'tools', 'weather.yaml'), WEATHER('WEATHER_KEY'));
    writeFileSync(join(org, 'tools', 'broken.yaml'), 'name: broken\nrequest: [\n');
    const { connectors, loadErrors } = valueOf<{ connectors: any[]; loadErrors: any[] }>(
      await harness.dispatch('connectors.list', {}),
    );
    expect(connectors.map((connector) => connector.id)).toEqual([
      'builtin:files',
      'builtin:shell',
      'builtin:web',
      'builtin:memory',
      'builtin:org',
      'composed:org:fetch_weather',
    ]);
    expect(connectors.find((connector) => connector.id === 'builtin:web')).toMatchObject({
      settings: {},
      config: { file: 'lemming/config/policy.json', pointer: '/network' },
    });
    expect(connectors.at(-1)).toMatchObject({
      secrets: [{ name: 'WEATHER_KEY', isSet: false }],
      readiness: { ready: false },
      source: { file: 'tools/weather.yaml', agent: null },
      configSchema: { properties: { WEATHER_KEY: { writeOnly: true } } },
    });
    expect(loadErrors).toEqual([
      expect.objectContaining({ file: 'tools/broken.yaml', line: expect.any(Number) }),
    ]);
  });

  it("a built-in connector's settings are written to policy.json; unknown fields and bad values are refused", async () => {
    const { harness, org } = await openDemo();
    const saved = await harness.dispatch('connectors.setConfig', {
      connector: 'builtin:web',
      values: { enabled: true, private_hosts: ['nas.local'] },
    });
    expect(saved).toMatchObject({
      ok: true,
      value: { settings: { enabled: true, private_hosts: ['nas.local'] } },
    });
    expect(JSON.parse(readFileSync(policyFile(org), 'utf8'))).toEqual({
      network: { enabled: true, private_hosts: ['nas.local'] },
    });

    expect(
      await harness.dispatch('connectors.setConfig', {
        connector: 'builtin:web',
        values: { proxy: 'http://x' },
      }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_change',
        issues: [{ path: 'values.proxy', message: 'Web requests has no setting or secret named proxy' }],
      },
    });
    expect(
      await harness.dispatch('connectors.setConfig', {
        connector: 'builtin:web',
        values: { enabled: 'yes' },
      }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_change',
        issues: [expect.objectContaining({ message: 'network.enabled must be true or false' })],
      },
    });
    const policyBefore = readFileSync(policyFile(org), 'utf8');
    expect(
      await harness.dispatch('connectors.setConfig', {
        connector: 'builtin:web',
        values: { private_hosts: ['nas.local', 'not a host!!', '*.home.lan'] },
      }),
    ).toMatchObject({
      ok: false,
      error: {
        code: 'invalid_change',
        issues: [
          {
            path: 'values.private_hosts[1]',
            message: expect.stringContaining('"not a host!!" is not a host name'),
          },
          {
            path: 'values.private_hosts[2]',
            message: expect.stringContaining('name each private host exactly'),
          },
        ],
      },
    });
    expect(readFileSync(policyFile(org), 'utf8')).toBe(policyBefore);
    expect(
      await harness.dispatch('connectors.setConfig', { connector: 'builtin:nothing', values: { a: 1 } }),
    ).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    });
  });

  it('a connector is usable only when the policy resolver lets its tools work in the org, not when its secrets are set', async () => {
    const { harness, org } = await openDemo();
    mkdirSync(join(org, 'tools'));
    writeFileSync(join(org, 'tools', 'weather.yaml'), WEATHER('WEATHER_KEY'));
    valueOf(
      await harness.dispatch('connectors.setConfig', {
        connector: 'composed:org:fetch_weather',
        values: { WEATHER_KEY: 'wk-0123456789abcdef' },
      }),
    );
    const card = async (id: string) =>
      valueOf<{ connectors: { id: string; readiness: unknown; usable: unknown }[] }>(
        await harness.dispatch('connectors.list', {}),
      ).connectors.find((connector) => connector.id === id);
    expect(await card('composed:org:fetch_weather')).toMatchObject({
      readiness: { ready: true },
      usable: { ready: false, reason: expect.stringContaining('network access is off for this org') },
    });
    expect(await card('builtin:web')).toMatchObject({ usable: { ready: false } });
    valueOf(
      await harness.dispatch('connectors.setConfig', { connector: 'builtin:web', values: { enabled: true } }),
    );
    expect(await card('composed:org:fetch_weather')).toMatchObject({ usable: { ready: true } });
    expect(await card('builtin:web')).toMatchObject({ usable: { ready: true } });
    writeFileSync(
      policyFile(org),
      JSON.stringify({ network: { enabled: true }, tools: { deny: ['fetch_weather'] } }),
    );
    expect(await card('composed:org:fetch_weather')).toMatchObject({
      usable: { ready: false, reason: expect.stringContaining('the org denies it') },
    });
  });

  it('a composed connector is ready once its secret is set through the drawer, and not after it is cleared', async () => {
    const { harness, org } = await openDemo();
    mkdirSync(join(org, 'tools'));
    writeFileSync(join(org, 'tools', 'weather.yaml'), WEATHER('WEATHER_KEY'));
    const set = await harness.dispatch('connectors.setConfig', {
      connector: 'composed:org:fetch_weather',
      values: { WEATHER_KEY: 'wk-0123456789abcdef' },
    });
    expect(set).toMatchObject({
      ok: true,
      value: { secrets: [{ name: 'WEATHER_KEY', isSet: true }], readiness: { ready: true } },
    });
    expect(valueOf<{ secrets: any[] }>(await harness.dispatch('secrets.list', {})).secrets).toEqual([
      expect.objectContaining({ name: 'WEATHER_KEY', isSet: true, usedBy: ['connector "Fetch weather"'] }),
    ]);
    expect(
      await harness.dispatch('connectors.setConfig', {
        connector: 'composed:org:fetch_weather',
        values: { WEATHER_KEY: true },
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_change' },
    });
    const cleared = await harness.dispatch('connectors.setConfig', {
      connector: 'composed:org:fetch_weather',
      values: { WEATHER_KEY: null },
    });
    expect(cleared).toMatchObject({
      ok: true,
      value: { secrets: [{ isSet: false }], readiness: { ready: false } },
    });
  });

  it("a connector that did not load cannot be configured; its file's problem is listed instead", async () => {
    const { harness, org } = await openDemo();
    mkdirSync(join(org, 'tools'));
    writeFileSync(join(org, 'tools', 'weather.yaml'), WEATHER('weather key'));
    const { connectors, loadErrors } = valueOf<{ connectors: any[]; loadErrors: any[] }>(
      await harness.dispatch('connectors.list', {}),
    );
    expect(connectors.some((connector) => connector.kind === 'composed')).toBe(false);
    expect(loadErrors).toEqual([expect.objectContaining({ file: 'tools/weather.yaml' })]);
    expect(
      await harness.dispatch('connectors.setConfig', {
        connector: 'composed:org:fetch_weather',
        values: { KEY: 'abc123456789' },
      }),
    ).toEqual({
      ok: false,
      error: {
        code: 'not_found',
        message: 'There is no connector "composed:org:fetch_weather" in this org.',
      },
    });
  });
});
