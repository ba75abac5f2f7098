import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_POLICY } from '../../org/policy-file';
import { connectorCatalog } from './catalog';
import { loadComposedConnectors } from './composed-connectors';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function org(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'lemming-composed-connectors-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const inventory = [
  'name: check_inventory',
  'description: Check inventory by SKU',
  'parameters:\n  type: object\n  properties:\n    sku:\n      type: string',
  'implementation:',
  '  primitive: http_request',
  '  args:',
  '    method: GET',
  '    url: https://api.example.com/inventory/${sku}',
  '    headers:',
  '      Authorization: Bearer ${secrets.INVENTORY_API_KEY}',
].join('\n');

const restock = [
  'name: restock_check',
  'description: Check whether a SKU needs restocking',
  'parameters:\n  type: object\n  properties:\n    sku:\n      type: string',
  'implementation:',
  '  primitive: check_inventory',
  '  args:',
  '    sku: ${sku}',
].join('\n');

const saveNote = [
  'name: save_note',
  'description: Save a note to the workspace',
  'parameters:\n  type: object\n  properties:\n    text:\n      type: string',
  'implementation:',
  '  primitive: file_write',
  '  args:',
  '    path: notes.md',
  '    content: ${text}',
].join('\n');

const weather = [
  'name: fetch_weather',
  'description: Weather for a city',
  'parameters:\n  city:\n    type: string\n    required: true',
  'request:',
  '  method: GET',
  '  url: "https://api.weather.test/v1?q={{params.city}}"',
  '  headers:',
  '    X-Api-Key: "{{env.WEATHER_KEY}}"',
  'requires_env:\n  - WEATHER_KEY',
  'allowed_hosts:\n  - api.weather.test',
].join('\n');

describe('composed tools in the connector catalog', () => {
  it("lists org tools and each agent's own, with the secrets of their whole delegation chain and the kind it ends in", async () => {
    const root = org({
      'tools/inventory.yaml': inventory,
      'tools/restock.yaml': restock,
      'tools/save-note.yaml': saveNote,
      'agents/ada/api-tools/weather.yaml': weather,
    });
    const loaded = await loadComposedConnectors(root, ['ada', 'bob']);
    expect(loaded.brokenFiles).toEqual([]);
    expect(loaded.composed).toEqual([
      {
        name: 'check_inventory',
        description: 'Check inventory by SKU',
        file: 'tools/inventory.yaml',
        agent: null,
        toolKind: 'network',
        secrets: [{ name: 'INVENTORY_API_KEY' }],
        problems: [],
      },
      {
        name: 'restock_check',
        description: 'Check whether a SKU needs restocking',
        file: 'tools/restock.yaml',
        agent: null,
        toolKind: 'network',
        secrets: [{ name: 'INVENTORY_API_KEY' }],
        problems: [],
      },
      {
        name: 'save_note',
        description: 'Save a note to the workspace',
        file: 'tools/save-note.yaml',
        agent: null,
        toolKind: 'file',
        secrets: [],
        problems: [],
      },
      {
        name: 'fetch_weather',
        description: 'Weather for a city',
        file: 'agents/ada/api-tools/weather.yaml',
        agent: 'ada',
        toolKind: 'network',
        secrets: [{ name: 'WEATHER_KEY' }],
        problems: [],
      },
    ]);

    const connectors = connectorCatalog({
      policy: DEFAULT_ORG_POLICY,
      hasSecret: (name) => name === 'INVENTORY_API_KEY',
      ...loaded,
    });
    const byId = new Map(connectors.map((connector) => [connector.id, connector]));
    expect(byId.get('composed:org:restock_check')?.readiness).toEqual({ ready: true });
    expect(byId.get('composed:agent:ada:fetch_weather')?.readiness).toMatchObject({
      ready: false,
      reason: 'it needs the secret WEATHER_KEY, which is not set',
    });
  });

  it('shows a file that failed to load as a connector that is not ready, with its problems and where they are', async () => {
    const root = org({
      'tools/inventory.yaml': inventory,
      'tools/broken.yaml': 'name: broken\ndescription: d\nimplementation:\n  primitive: http_request\n',
      'agents/ada/api-tools/bad.yaml': 'name: [not, a, name]\n',
    });
    const loaded = await loadComposedConnectors(root, ['ada']);
    expect(loaded.composed.map((tool) => tool.name)).toEqual(['check_inventory']);
    expect(loaded.brokenFiles).toEqual([
      {
        file: 'tools/broken.yaml',
        agent: null,
        problems: [expect.stringMatching(/^implementation\.args, line \d+: /)],
      },
      {
        file: 'agents/ada/api-tools/bad.yaml',
        agent: 'ada',
        problems: expect.arrayContaining([expect.any(String)]),
      },
    ]);
    const broken = connectorCatalog({ policy: DEFAULT_ORG_POLICY, hasSecret: () => false, ...loaded }).find(
      (connector) => connector.id === 'file:tools/broken.yaml',
    );
    expect(broken).toMatchObject({
      kind: 'composed',
      tools: [],
      readiness: {
        ready: false,
        reason: expect.stringMatching(/^tools\/broken\.yaml has errors: implementation\.args/),
        fix: 'fix tools/broken.yaml',
      },
    });
  });

  it('a tool that delegates to something that is not a tool here is not ready', async () => {
    const root = org({
      'tools/odd.yaml': saveNote.replace('primitive: file_write', 'primitive: generate_image'),
    });
    const loaded = await loadComposedConnectors(root, []);
    expect(loaded.composed[0]).toMatchObject({
      name: 'save_note',
      problems: ['save_note ends in generate_image, which is not a tool here'],
    });
  });
});
