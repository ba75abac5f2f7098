import { DebugLogger } from 'builder-util';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';

const require = createRequire(import.meta.url);
// electron-builder's own validator, run against its own JSON schema (app-builder-lib/scheme.json).
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration(config: unknown, logger: DebugLogger): Promise<void>;
};

const { getPngSize } = require('app-builder-lib/out/util/iconConverter.js') as {
  getPngSize(file: string): Promise<{ width: number; height: number }>;
};
const { getNodeModuleFileMatcher } = require('app-builder-lib/out/fileMatcher.js') as {
  getNodeModuleFileMatcher(
    appDir: string,
    destination: string,
    macroExpander: (pattern: string) => string,
    platformSpecificBuildOptions: object,
    packager: object,
  ): { createFilter(): (file: string, stat: object) => boolean };
};
const { expandMacro } = require('app-builder-lib/out/util/macroExpander.js') as {
  expandMacro(pattern: string, arch: string | null, appInfo: object): string;
};

const repoRoot = resolve(import.meta.dirname, '..', '..');
const config = YAML.parse(readFileSync(resolve(repoRoot, 'electron-builder.yml'), 'utf8'));
const packageJson = JSON.parse(readFileSync(resolve(repoRoot, 'package.json'), 'utf8'));
const sqliteDir = resolve(repoRoot, 'node_modules', 'better-sqlite3');
const prebuildsDir = join(sqliteDir, 'prebuilds');

/**
 * Which of better-sqlite3's prebuilt binaries electron-builder's own node_modules filter keeps for one
 * target, with its own macro expansion of the files patterns. `${platform}` is the build machine's, so
 * it is set to the target's, as on the machine that builds that installer.
 */
async function packedPrebuilds(target: { platform: string; arch: string }): Promise<string[]> {
  const realPlatform = Object.getOwnPropertyDescriptor(process, 'platform')!;
  Object.defineProperty(process, 'platform', { value: target.platform });
  try {
    const matcher = getNodeModuleFileMatcher(
      repoRoot,
      '',
      (pattern) => expandMacro(pattern, target.arch, { productName: config.productName }),
      {},
      { config, debugLogger: { isEnabled: false } },
    );
    const keep = matcher.createFilter();
    return readdirSync(prebuildsDir).filter((file) => {
      const path = join(prebuildsDir, file);
      const stat = Object.assign(statSync(path), {
        moduleFullFilePath: `node_modules/better-sqlite3/prebuilds/${file}`,
      });
      return keep(path, stat);
    });
  } finally {
    Object.defineProperty(process, 'platform', realPlatform);
  }
}

type Target = string | { target: string; arch?: string[] };
const targetsOf = (platform: { target: Target[] }) =>
  platform.target.map((target) =>
    typeof target === 'string' ? { target, arch: [] } : { target: target.target, arch: target.arch ?? [] },
  );

describe('electron-builder.yml', () => {
  it("passes electron-builder's own schema validation", async () => {
    await expect(
      validateConfiguration(structuredClone(config), new DebugLogger(false)),
    ).resolves.toBeUndefined();
  });

  it('the validator does reject a broken configuration (so the check above means something)', async () => {
    await expect(
      validateConfiguration(
        { ...structuredClone(config), mac: { target: 'dmg', notAnOption: 1 } },
        new DebugLogger(false),
      ),
    ).rejects.toThrow(/configuration\.mac/);
  });

  it('names the app', () => {
    expect(config.appId).toBe('org.lemming.desktop');
    expect(config.productName).toBe('LeMMing Desktop');
  });

  it('builds dmg and zip for x64 and arm64 on macOS', () => {
    expect(targetsOf(config.mac)).toEqual([
      { target: 'dmg', arch: ['x64', 'arm64'] },
      { target: 'zip', arch: ['x64', 'arm64'] },
    ]);
  });

  it('builds an NSIS installer on Windows and AppImage + deb on Linux', () => {
    expect(targetsOf(config.win).map((target) => target.target)).toEqual(['nsis']);
    expect(targetsOf(config.linux).map((target) => target.target)).toEqual(['AppImage', 'deb']);
  });

  it('unpacks native modules beside the asar and rebuilds nothing (one SQLite binary serves Node and Electron)', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.npmRebuild).toBe(false);
    expect(JSON.stringify(config.extraResources)).not.toMatch(/better_sqlite3|native/);
    expect(packageJson.scripts).not.toHaveProperty('build:electron-sqlite');
    expect(existsSync(resolve(repoRoot, 'scripts', 'build-electron-sqlite.mjs'))).toBe(false);
  });

  it('packs, for every target platform and arch, exactly its own prebuilt SQLite binary, and it exists', async () => {
    const targets = [
      ...targetsOf(config.mac).flatMap(({ arch }) => arch.map((a) => ({ platform: 'darwin', arch: a }))),
      ...targetsOf(config.win).flatMap(({ arch }) => arch.map((a) => ({ platform: 'win32', arch: a }))),
      ...targetsOf(config.linux).flatMap(({ arch }) => arch.map((a) => ({ platform: 'linux', arch: a }))),
    ];
    const unique = [
      ...new Map(targets.map((target) => [`${target.platform}-${target.arch}`, target])).values(),
    ];
    expect(unique.map(({ platform, arch }) => `${platform}-${arch}`)).toEqual([
      'darwin-x64',
      'darwin-arm64',
      'win32-x64',
      'linux-x64',
    ]);
    for (const target of unique) {
      expect(await packedPrebuilds(target)).toEqual([`${target.platform}-${target.arch}.node`]);
    }
  });

  it("ships better-sqlite3's prebuilt binaries as Node-API modules, loadable by Node and by Electron 45 alike", () => {
    // A Node-API addon registers through napi_register_module_v1 and is bound to no runtime's ABI; an
    // ABI-bound one registers through node_register_module_v<ABI> and loads only in that runtime.
    for (const prebuild of readdirSync(prebuildsDir)) {
      const binary = readFileSync(join(prebuildsDir, prebuild));
      expect(binary.includes('napi_register_module_v1'), prebuild).toBe(true);
      expect(binary.includes('node_register_module_v'), prebuild).toBe(false);
    }
    // The Node-API version the binaries are built for, which Node 24 (the tests, the CLI) and Electron 45
    // (whose Node is 24: its package depends on @types/node 24) both provide.
    const napiVersion = Number(
      /NAPI_VERSION=(\d+)/.exec(readFileSync(join(sqliteDir, 'binding.gyp'), 'utf8'))![1],
    );
    expect(Number(process.versions.napi)).toBeGreaterThanOrEqual(napiVersion);
    const electron = require('electron/package.json') as {
      version: string;
      dependencies: Record<string, string>;
    };
    expect(electron.version).toMatch(/^45\./);
    expect(electron.dependencies['@types/node']).toMatch(/^\^24\./);
    expect(napiVersion).toBeLessThanOrEqual(10);
  });

  it('has the app icon: one 1024 × 1024 PNG, the platform formats made from it at build time', async () => {
    expect(config.icon).toBe('build/icon.png');
    expect(await getPngSize(resolve(repoRoot, config.icon))).toEqual({ width: 1024, height: 1024 });
    // Beside it only the Windows taskbar's overlay badges (main/desktop/taskbar.ts), drawn once and kept.
    expect(readdirSync(resolve(repoRoot, 'build'))).toEqual(['badges', 'icon.png']);
  });

  it('re-signs unsigned macOS builds ad hoc after flipping fuses, and notarizes when the environment allows', () => {
    expect(config.electronFuses.resetAdHocDarwinSignature).toBe(true);
    expect(config.mac.hardenedRuntime).toBe(true);
    expect(config.mac.notarize).toBe(true);
    // Signing identities come from the environment (CSC_LINK, WIN_CSC_LINK), never from this file.
    expect(config.mac.identity).toBeUndefined();
    expect(config.win.signtoolOptions).toBeUndefined();
  });

  it('publishes installers and update files to GitHub Releases', () => {
    expect(config.publish).toEqual({ provider: 'github', releaseType: 'release' });
    expect(config.mac.target.map((target: { target: string }) => target.target)).toContain('zip');
  });

  it('ships the offline demo org the first-run screen opens', () => {
    expect(config.extraResources).toContainEqual(
      expect.objectContaining({ from: 'examples/demo-org', to: 'demo-org' }),
    );
  });

  it('ships the template gallery beside the app, as the build writes it, and not inside app.asar', () => {
    expect(config.extraResources).toContainEqual({ from: 'out/templates', to: 'templates' });
    expect(config.files).toContain('!out/templates{,/**}');
    expect(packageJson.scripts.build).toContain('npm run build:templates');
  });

  it('sets the Electron fuses that close the Node escape hatches', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });
});
