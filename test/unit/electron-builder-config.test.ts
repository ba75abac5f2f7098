import { DebugLogger } from 'builder-util';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';

const require = createRequire(import.meta.url);
// electron-builder's own validator, run against its own JSON schema (app-builder-lib/scheme.json).
const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
  validateConfiguration(config: unknown, logger: DebugLogger): Promise<void>;
};

const repoRoot = resolve(import.meta.dirname, '..', '..');
const config = YAML.parse(readFileSync(resolve(repoRoot, 'electron-builder.yml'), 'utf8'));

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

  it('keeps native modules out of the asar and ships the Electron build of SQLite', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('**/*.node');
    expect(config.extraResources).toContainEqual({
      from: 'build/electron-native/${arch}/better_sqlite3.node',
      to: 'native/better_sqlite3.node',
    });
    expect(config.npmRebuild).toBe(false);
  });

  it('ships the offline demo org the first-run screen opens', () => {
    expect(config.extraResources).toContainEqual(expect.objectContaining({ from: 'examples/demo-org', to: 'demo-org' }));
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
