import { listPackage, statFile } from '@electron/asar';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import type * as ElectronBuilder from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { programSpawnAddonPath } from '../../engine/processes/child-starters';
import { openSqlite } from '../../engine/timeline/sqlite';

const require = createRequire(import.meta.url);
const repoRoot = resolve(import.meta.dirname, '..', '..');
const config = YAML.parse(readFileSync(join(repoRoot, 'electron-builder.yml'), 'utf8'));
const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as {
  devDependencies: Record<string, string>;
};

/** The repository a release build takes from its git remote; a checkout without one gets it here. */
const RELEASES = { owner: 'lemming-desktop-example', repo: 'lemming-desktop' };

/** The `.node` file of better-sqlite3 this Node process has loaded, relative to the repository. */
function loadedSqliteBinary(): string {
  openSqlite(':memory:').close();
  const report = process.report.getReport() as unknown as { sharedObjects: string[] };
  const loaded = report.sharedObjects.filter(
    (file) => file.endsWith('.node') && file.includes('better-sqlite3'),
  );
  expect(loaded).toHaveLength(1);
  return relative(repoRoot, loaded[0]!).split(sep).join('/');
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

/**
 * electron-builder itself packs the app for this machine's platform and arch, as `npm run dist` does, with
 * two changes that keep it offline: a stand-in for the Electron binary (its files are not what is checked
 * here, and the real one cannot be downloaded) and so no fuses to flip in it.
 */
describe('what electron-builder puts in app.asar', () => {
  let output: string;
  let resources: string;
  let asar: string;
  let files: string[];

  beforeAll(async () => {
    execFileSync(process.execPath, ['scripts/build-electron-bundles.mjs'], { cwd: repoRoot, stdio: 'pipe' });
    execFileSync(process.execPath, ['scripts/build-templates.mjs'], { cwd: repoRoot, stdio: 'pipe' });
    output = mkdtempSync(join(tmpdir(), 'lemming-asar-'));
    const electronDist = join(output, 'electron-dist');
    mkdirSync(electronDist);
    writeFileSync(join(electronDist, 'electron'), '#!/bin/sh\n', { mode: 0o755 });

    // builder-util hard-links instead of copying when it sees VITEST (its own test setting), and then
    // trips over the demo org's files, which it copies twice; a real build copies.
    const vitest = process.env.VITEST;
    delete process.env.VITEST;
    const { build, Platform, Arch } = require('electron-builder') as typeof ElectronBuilder;
    process.env.VITEST = vitest;
    await build({
      projectDir: repoRoot,
      targets: Platform.LINUX.createTarget('dir', Arch[process.arch as 'x64' | 'arm64']),
      publish: 'never',
      config: {
        ...config,
        electronDist,
        electronFuses: null,
        publish: { ...config.publish, ...RELEASES },
        directories: { ...config.directories, output: join(output, 'dist') },
      },
    });
    resources = join(
      output,
      'dist',
      process.arch === 'x64' ? 'linux-unpacked' : `linux-${process.arch}-unpacked`,
      'resources',
    );
    asar = join(resources, 'app.asar');
    files = listPackage(asar, { isPack: false }).map((file) => file.split(sep).join('/'));
  }, 120_000);

  afterAll(() => {
    if (output) rmSync(output, { recursive: true, force: true });
  });

  it('holds only the bundles, package.json and better-sqlite3 with the one binary for the target', () => {
    const allowed = [
      /^\/package\.json$/,
      /^\/out(\/(main|preload)(\/index\.cjs)?)?$/,
      /^\/out\/main\/engine-worker\.cjs$/,
      // The program starter, built on Linux only (scripts/build-native.mjs).
      /^\/out\/native(\/program-spawn\.node)?$/,
      /^\/out\/renderer(\/.*)?$/,
      /^\/node_modules(\/better-sqlite3(\/package\.json|\/lib(\/.*)?)?)?$/,
      new RegExp(`^/node_modules/better-sqlite3/prebuilds(/${process.platform}-${process.arch}\\.node)?$`),
    ];
    expect(files).toContain('/out/main/index.cjs');
    expect(files).toContain('/out/main/engine-worker.cjs');
    expect(files).toContain('/out/preload/index.cjs');
    expect(files.filter((file) => !allowed.some((pattern) => pattern.test(file)))).toEqual([]);
  });

  it('has no dev-only package, no tsx, no esbuild binary and no source map', () => {
    const packages = new Set(
      files
        .filter((file) => file.startsWith('/node_modules/'))
        .map((file) => {
          const [, , first, second] = file.split('/');
          return first!.startsWith('@') && second ? `${first}/${second}` : first!;
        }),
    );
    expect([...packages]).toEqual(['better-sqlite3']);
    for (const devOnly of Object.keys(packageJson.devDependencies)) expect(packages).not.toContain(devOnly);
    expect(files.filter((file) => /(^|\/)(tsx|esbuild|@esbuild|prebuild-install)(\/|$)/.test(file))).toEqual(
      [],
    );
    expect(files.filter((file) => /\/esbuild(\.exe)?$/.test(file) || file.endsWith('.map'))).toEqual([]);
  });

  it('unpacks the very SQLite binary the tests load, byte for byte, beside app.asar', () => {
    const binary = loadedSqliteBinary();
    expect(binary).toBe(`node_modules/better-sqlite3/prebuilds/${process.platform}-${process.arch}.node`);
    expect(files).toContain(`/${binary}`);
    expect(statFile(asar, binary)).toMatchObject({ unpacked: true });
    expect(sha256(join(`${asar}.unpacked`, binary))).toBe(sha256(join(repoRoot, binary)));
  });

  // Only Linux builds the starter, and off CI only with a C compiler; on CI child-starters.test.ts fails
  // when it is missing, so this skip hides nothing there.
  it.skipIf(programSpawnAddonPath() === null)(
    'unpacks the program starter the tests load, byte for byte, where the engine looks for it',
    () => {
      const starter = 'out/native/program-spawn.node';
      expect(programSpawnAddonPath()).toBe(join(repoRoot, starter));
      expect(statFile(asar, starter)).toMatchObject({ unpacked: true });
      expect(sha256(join(`${asar}.unpacked`, starter))).toBe(sha256(join(repoRoot, starter)));
    },
  );

  it('writes the GitHub Releases feed electron-updater reads', () => {
    const feed = YAML.parse(readFileSync(join(resources, 'app-update.yml'), 'utf8'));
    expect(feed).toMatchObject({ provider: 'github', ...RELEASES, releaseType: 'release' });

    // electron-updater's own provider factory, as the app's autoUpdater calls it on start.
    const { createClient } = require('electron-updater/out/providerFactory.js') as {
      createClient(feed: unknown, updater: unknown, options: unknown): { baseUrl: URL; basePath: string };
    };
    const provider = createClient(
      feed,
      { allowPrerelease: false },
      { isUseMultipleRangeRequest: true, platform: process.platform, executor: null },
    );
    expect(provider.constructor.name).toBe('GitHubProvider');
    expect(new URL(`${provider.basePath}.atom`, provider.baseUrl).href).toBe(
      `https://github.com/${RELEASES.owner}/${RELEASES.repo}/releases.atom`,
    );
  });

  it('ships the demo org without its run state', () => {
    const demoFiles = listDirectory(join(resources, 'demo-org'));
    expect(demoFiles).toContain('lemming/config/org_config.json');
    expect(demoFiles.filter((file) => file.startsWith('.lemming'))).toEqual([]);
  });

  it('ships the template gallery beside the app, without run state, and none of it in app.asar', () => {
    const shipped = listDirectory(join(resources, 'templates'));
    expect(shipped).toContain('gallery.json');
    for (const name of ['research-desk', 'content-pipeline', 'inbox-triage', 'code-review', 'personal-ops'])
      expect(shipped).toContain(`${name}/org/lemming/scripts/first-look.yaml`);
    expect(shipped.filter((file) => /(^|\/)\.lemming\//.test(file))).toEqual([]);
    expect(files.filter((file) => file.includes('templates'))).toEqual([]);
  });
});

function listDirectory(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((file) => statSync(join(root, file)).isFile())
    .map((file) => file.split(sep).join('/'));
}
