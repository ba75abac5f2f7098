import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openFileSecretStore } from '../secrets/file-secret-store';
import type { SecretStore } from '../secrets/secret-store';
import { orgTrust } from '../trust/org-trust';
import { emptyTrustStore, trustAsIs } from '../trust/test-support/trust-as-is';
import { exportBundle } from './bundle-export';
import { importBundle, readBundleOrigin } from './bundle-import';

const EXAMPLE_ORG = '/work/shared/fixtures/lemming-upstream/example-org';

let root: string;
let secrets: SecretStore;
let bundle: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lemming-bundle-import-'));
  const opened = await openFileSecretStore(join(root, 'secrets.json'));
  if (!opened.ok) throw new Error(String(opened.error));
  secrets = opened.value.store;
  const org = join(root, 'original');
  cpSync(EXAMPLE_ORG, org, { recursive: true });
  writeFileSync(
    join(org, 'lemming/config/mcp.json'),
    JSON.stringify({
      mcpServers: {
        tracker: {
          url: 'https://tracker.example.com/mcp',
          headers: { Authorization: 'Bearer ${secrets.SERVICE_TOKEN}' },
        },
      },
    }),
  );
  bundle = join(root, 'example.lemming.zip');
  const exported = await exportBundle({ orgPath: org, secrets }, bundle, {
    includes: { memory: false, outboxes: false, history: false, workspaces: false },
  });
  expect(exported.ok).toBe(true);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('an imported org', () => {
  it('is untrusted, and its trust screen has the bundle’s programs, addresses and missing secrets', async () => {
    const trust = emptyTrustStore();
    const imported = await importBundle({ secrets, trust }, bundle, {
      kind: 'new',
      folder: join(root, 'new'),
    });
    if (!imported.ok) throw new Error(imported.error.message);

    const state = await orgTrust(imported.value.orgPath, trust);
    expect(state.state).toBe('untrusted');
    const reach = state.reach.items.map((item) => `${item.kind} ${item.subject}`);
    expect(reach).toEqual(
      expect.arrayContaining([
        'program echo',
        'address https://tracker.example.com/mcp',
        'secret SERVICE_TOKEN',
      ]),
    );
    expect(imported.value.missingSecrets).toEqual(['SERVICE_TOKEN']);

    const origin = await readBundleOrigin(imported.value.orgPath);
    expect(origin?.bundleFile).toBe(bundle);
    expect(origin?.manifest.reach.map((item) => `${item.kind} ${item.subject}`)).toEqual(
      expect.arrayContaining([
        'program echo',
        'address https://tracker.example.com/mcp',
        'secret SERVICE_TOKEN',
      ]),
    );
    expect(origin?.manifest.secrets).toEqual(['SERVICE_TOKEN']);
  });

  it('into a trusted org takes its trust back: the person looks again before anything of it runs', async () => {
    const target = join(root, 'trusted');
    cpSync(EXAMPLE_ORG, target, { recursive: true });
    rmSync(join(target, 'agents/manager_cli'), { recursive: true });
    const trust = await trustAsIs(target);
    const department = join(root, 'manager-cli.lemming.zip');
    const source = join(root, 'source');
    cpSync(EXAMPLE_ORG, source, { recursive: true });
    writeFileSync(
      join(source, 'departments/manager.json'),
      JSON.stringify({ name: 'manager', description: 'd' }),
    );
    const exported = await exportBundle({ orgPath: source, secrets }, department, {
      department: 'manager',
      includes: { memory: false, outboxes: false, history: false, workspaces: false },
    });
    expect(exported.ok).toBe(true);
    rmSync(join(target, 'agents/manager'), { recursive: true });

    const imported = await importBundle({ secrets, trust }, department, { kind: 'into', orgPath: target });

    expect(imported.ok ? imported.value.written : imported.error.message).toEqual([
      'agents/manager/resume.json',
      'agents/manager_cli/resume.json',
      'departments/manager.json',
    ]);
    expect((await orgTrust(target, trust)).state).toBe('untrusted');
  });
});
