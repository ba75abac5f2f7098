import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BundleManifest } from '../api/bundle-schemas';
import { readBundle } from '../bundle/bundle-reader';
import { REPO_ROOT } from '../run/test-support/temp-org';
import { secretSpellings } from '../secrets/secret-spellings';
import { lemmingCheckout } from '../../test/test-support/lemming-checkout';
import { runCli } from './test-support/run-cli';

const EXAMPLE_ORG = '/work/shared/fixtures/lemming-upstream/example-org';
const OPENAI_KEY = 'sk-live-9fQ2xTq7LmZr4Wv8Np3Kd6Hs';
const SERVICE_TOKEN = 'ghp_R2d2C3p0BB8K2So0Ig11Rey4Finn';
const STORED = { OPENAI_API_KEY: OPENAI_KEY, SERVICE_TOKEN };

let root: string;
let secretsFile: string;

function filesOf(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(folder.length + 1)
        .split('\\')
        .join('/'),
    )
    .sort();
}

/** LeMMing's example org, with everything a careless export would leak: secrets, run state, memory. */
function exampleOrgWithSecrets(): string {
  const org = join(root, 'original');
  cpSync(EXAMPLE_ORG, org, { recursive: true });
  const write = (path: string, text: string) => {
    mkdirSync(join(org, path, '..'), { recursive: true });
    writeFileSync(join(org, path), text);
  };
  write(
    'lemming/config/mcp.json',
    JSON.stringify(
      {
        mcpServers: {
          tracker: {
            url: 'https://tracker.example.com/mcp',
            headers: {
              Authorization: 'Bearer ${secrets.SERVICE_TOKEN}',
              'X-Team': OPENAI_KEY,
              'X-Build': 'zz9AbCdEfGhIjKlMnOpQrStUvWx1',
            },
          },
        },
      },
      null,
      2,
    ),
  );
  const basic = Buffer.from(`ops:${SERVICE_TOKEN}`).toString('base64');
  write('agents/manager/memory/login.json', JSON.stringify({ value: `Authorization: Basic ${basic}` }));
  write('agents/manager/outbox/00000001_aa.json', JSON.stringify({ tick: 1, payload: { text: 'hello' } }));
  write('agents/manager/workspace/draft.md', `# Draft\nthe key is ${OPENAI_KEY}\n`);
  write('shared/notes.txt', 'plain shared notes\n');
  write('.lemming/timeline.sqlite', 'run state');
  write('secrets.json', JSON.stringify({ OPENAI_API_KEY: OPENAI_KEY }));
  write('.env', `OPENAI_API_KEY=${OPENAI_KEY}\n`);
  write('lemming/config/tick.json', '{"current_tick": 7}');
  symlinkSync('/etc/passwd', join(org, 'lemming/config/passwords.json'));
  return org;
}

/** Every byte of the bundle as stored and as inflated, searched for every spelling of every stored secret. */
async function secretsFoundIn(bundle: string): Promise<string[]> {
  const inflated = mkdtempSync(join(root, 'inflated-'));
  const read = await readBundle(bundle, { into: inflated });
  expect(read.ok).toBe(true);
  const texts = [
    readFileSync(bundle),
    ...filesOf(inflated).map((file) => readFileSync(join(inflated, file))),
  ].map((bytes) => bytes.toString('latin1'));
  const found: string[] = [];
  for (const [name, value] of Object.entries(STORED)) {
    const spellings = [
      ...secretSpellings(value),
      Buffer.from(value).toString('base64'),
      Buffer.from(`ops:${value}`).toString('base64'),
    ];
    if (texts.some((text) => spellings.some((spelling) => text.includes(spelling)))) found.push(name);
  }
  return found;
}

const manifestOf = (bundle: string) => readBundle(bundle).then((read) => (read.ok ? read.value : null));

/** Whether the manifest says this original file was left out or changed (redacted, emptied). */
const listedAsLeftOut = (manifest: BundleManifest, path: string) =>
  manifest.leftOut.some(
    (item) =>
      item.path === path ||
      (item.path.endsWith('/') && path.startsWith(item.path)) ||
      item.path.startsWith(`${path} → `),
  );

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'lemming-bundle-'));
  secretsFile = join(root, 'secrets.json');
  for (const [name, value] of Object.entries(STORED)) {
    const set = await runCli(['secret', 'set', name, '--secrets-file', secretsFile], { input: value });
    expect(set.code, set.stderr).toBe(0);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('lemming bundle export, then import, of LeMMing’s example org', () => {
  let original: string;
  let bundle: string;
  let imported: string;
  let manifest: BundleManifest;

  beforeAll(async () => {
    original = exampleOrgWithSecrets();
    bundle = join(root, 'example.lemming.zip');
    const exported = await runCli(['bundle', 'export', original, bundle, '--secrets-file', secretsFile]);
    expect(exported.code, exported.stderr).toBe(0);
    imported = join(root, 'imported');
    const done = await runCli(['bundle', 'import', bundle, imported, '--secrets-file', secretsFile]);
    expect(done.code, done.stderr).toBe(0);
    manifest = (await manifestOf(bundle))!;
  });

  it('gives files equal to the original’s, except those the manifest lists as left out or changed', () => {
    const importedFiles = new Set(filesOf(imported).filter((file) => !file.startsWith('.lemming/')));
    for (const file of filesOf(original)) {
      if (listedAsLeftOut(manifest, file)) continue;
      expect(importedFiles.has(file), file).toBe(true);
      expect(readFileSync(join(imported, file)).equals(readFileSync(join(original, file))), file).toBe(true);
    }
    for (const file of importedFiles) expect(existsSync(join(original, file)), file).toBe(true);
  });

  it('leaves out run state, secrets, links, memory, outboxes, workspaces and the next tick, and says so', () => {
    expect(manifest.leftOut).toContainEqual({
      path: 'lemming/config/passwords.json',
      why: 'a link; bundles carry no links',
    });
    for (const gone of ['.lemming/timeline.sqlite', 'secrets.json', '.env', 'lemming/config/tick.json'])
      expect(existsSync(join(imported, gone)), gone).toBe(false);
    for (const gone of [
      'agents/manager/memory',
      'agents/manager/outbox',
      'agents/manager/workspace',
      'shared',
    ])
      expect(existsSync(join(imported, gone)), gone).toBe(false);
    expect(manifest.leftOut.map((item) => item.path)).toEqual(
      expect.arrayContaining(['.lemming/', 'secrets.json', '.env', 'agents/manager/memory/', 'shared/']),
    );
    expect(existsSync(join(imported, '.env.example'))).toBe(true);
  });

  it('replaces a stored secret by its name, empties a key-like header and keeps the ${secrets.…} reference', () => {
    const headers = (
      JSON.parse(readFileSync(join(imported, 'lemming/config/mcp.json'), 'utf8')) as {
        mcpServers: { tracker: { headers: Record<string, string> } };
      }
    ).mcpServers.tracker.headers;
    expect(headers).toEqual({
      Authorization: 'Bearer ${secrets.SERVICE_TOKEN}',
      'X-Team': '[redacted:OPENAI_API_KEY]',
      'X-Build': '',
    });
    expect(manifest.secrets).toEqual(['OPENAI_API_KEY', 'SERVICE_TOKEN']);
    expect(manifest.reach.map((item) => `${item.kind} ${item.subject}`)).toEqual(
      expect.arrayContaining(['address https://tracker.example.com/mcp', 'secret SERVICE_TOKEN']),
    );
  });

  it('holds no stored secret’s value in any byte, plain or base64, with or without memory and workspaces', async () => {
    expect(await secretsFoundIn(bundle)).toEqual([]);
    const everything = join(root, 'everything.lemming.zip');
    const exported = await runCli([
      'bundle',
      'export',
      original,
      everything,
      '--with',
      'everything',
      '--secrets-file',
      secretsFile,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    expect(await secretsFoundIn(everything)).toEqual([]);
    const full = (await manifestOf(everything))!;
    expect(full.files.map((file) => file.path)).toEqual(
      expect.arrayContaining([
        'agents/manager/memory/login.json',
        'agents/manager/workspace/draft.md',
        'shared/notes.txt',
      ]),
    );
  });

  it.skipIf(!lemmingCheckout())(
    'is read and run by LeMMing’s own engine, its models answered offline (skipped when no LeMMing checkout is at $LEMMING_CHECKOUT or /tmp/c-lemming)',
    async () => {
      const { stdout } = await promisify(execFile)('python3', ['-c', LEMMING_DRIVER, imported], {
        cwd: lemmingCheckout()!,
      });
      expect(JSON.parse(stdout.trim().split('\n').at(-1)!)).toEqual({ tick: 1 });
      expect(readdirSync(join(imported, 'agents/manager/outbox')).length).toBeGreaterThan(0);
    },
  );

  it('inspect prints the manifest in words, with the secrets not stored here', async () => {
    const inspected = await runCli([
      'bundle',
      'inspect',
      bundle,
      '--secrets-file',
      join(root, 'empty-secrets.json'),
    ]);
    expect(inspected.code, inspected.stderr).toBe(0);
    expect(inspected.stdout).toContain('A bundle of the org “original”');
    expect(inspected.stdout).toMatch(
      /Addresses it would contact:\n( {2}.*\n)* {2}https:\/\/tracker\.example\.com\/mcp\n/,
    );
    expect(inspected.stdout).toContain('SERVICE_TOKEN  (not stored on this computer: set it before running)');
  });

  it('imported again into the same org is refused: nothing is overwritten', async () => {
    const again = await runCli([
      'bundle',
      'import',
      bundle,
      imported,
      '--into',
      '--secrets-file',
      secretsFile,
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('Nothing was imported: the org already has');
  });
});

describe('lemming bundle export of one department', () => {
  it('carries its metadata and its agents, and nothing of the rest', async () => {
    const org = join(root, 'departments');
    cpSync(EXAMPLE_ORG, org, { recursive: true });
    cpSync(join(org, 'agents/spec_writer'), join(org, 'agents/research_lead'), { recursive: true });
    const bundle = join(root, 'research.lemming.zip');
    const exported = await runCli([
      'bundle',
      'export',
      org,
      bundle,
      '--department',
      'research',
      '--secrets-file',
      secretsFile,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const manifest = (await manifestOf(bundle))!;
    expect(manifest.scope).toEqual({ kind: 'department', name: 'research' });
    expect(manifest.files.map((file) => file.path)).toEqual([
      'agents/research_lead/resume.json',
      'agents/research_lead/resume.txt',
      'departments/research.json',
    ]);
    expect(manifest.departments.map((department) => department.name)).toEqual(['research']);

    const missing = await runCli([
      'bundle',
      'export',
      org,
      bundle,
      '--department',
      'sales',
      '--secrets-file',
      secretsFile,
    ]);
    expect(missing.stderr).toContain('This org has no department "sales"');
  });
});

describe('a bundle with history', () => {
  it('carries the timeline as JSON Lines, with stored secrets’ values replaced by their names', async () => {
    const org = join(root, 'with-history');
    cpSync(join(REPO_ROOT, 'examples/demo-org'), org, { recursive: true });
    const sent = await runCli(['send', org, `the deploy key is ${OPENAI_KEY}`]);
    expect(sent.code, sent.stderr).toBe(0);
    const bundle = join(root, 'history.lemming.zip');
    const exported = await runCli([
      'bundle',
      'export',
      org,
      bundle,
      '--with',
      'history',
      '--secrets-file',
      secretsFile,
    ]);
    expect(exported.code, exported.stderr).toBe(0);

    const unpacked = mkdtempSync(join(root, 'history-'));
    expect((await readBundle(bundle, { into: unpacked })).ok).toBe(true);
    const lines = readFileSync(join(unpacked, 'history/timeline.jsonl'), 'utf8').trim().split('\n');
    expect(lines.some((line) => line.includes('the deploy key is [redacted:OPENAI_API_KEY]'))).toBe(true);
    expect(await secretsFoundIn(bundle)).toEqual([]);
  });
});

describe('the demo org', () => {
  it('travels as its files, exactly', async () => {
    const bundle = join(root, 'demo.lemming.zip');
    const exported = await runCli([
      'bundle',
      'export',
      join(REPO_ROOT, 'examples/demo-org'),
      bundle,
      '--secrets-file',
      secretsFile,
    ]);
    expect(exported.code, exported.stderr).toBe(0);
    const imported = join(root, 'demo-imported');
    expect((await runCli(['bundle', 'import', bundle, imported, '--secrets-file', secretsFile])).code).toBe(
      0,
    );
    const manifest = (await manifestOf(bundle))!;
    const source = join(REPO_ROOT, 'examples/demo-org');
    const kept = filesOf(source).filter((file) => !listedAsLeftOut(manifest, file));
    expect(filesOf(imported).filter((file) => !file.startsWith('.lemming/'))).toEqual(kept);
    for (const file of kept)
      expect(readFileSync(join(imported, file)).equals(readFileSync(join(source, file))), file).toBe(true);
  });
});

/** LeMMing's own checks and one tick of its engine, with its providers answering offline. */
const LEMMING_DRIVER = `
import json, os, sys
from pathlib import Path
sys.path.insert(0, os.getcwd())
import lemming.providers as providers
from lemming.config_validation import validate_everything
from lemming.engine import load_tick, persist_tick, run_tick
class Offline(providers.LLMProvider):
    def __init__(self, **kwargs): pass
    def call(self, model_name, messages, temperature=0.2, **kwargs):
        return json.dumps({"outbox_entries": [{"kind": "message", "payload": {"text": "read the imported org"}}], "tool_calls": [], "memory_updates": [], "notes": "ok"})
for name in ("openai", "anthropic", "ollama"): providers.register_provider(name, Offline)
base = Path(sys.argv[1])
errors = validate_everything(base)
if errors: sys.exit("LeMMing refused the org: " + "; ".join(errors))
tick = load_tick(base)
run_tick(base, tick)
persist_tick(base, tick + 1)
print(json.dumps({"tick": tick}))
`;
