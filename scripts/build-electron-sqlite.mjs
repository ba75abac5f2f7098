// Builds better-sqlite3 for Electron's ABI into build/electron-native/, leaving the Node build in
// node_modules untouched (tests and the CLI use that one). Main loads this file through
// better-sqlite3's `nativeBinding` option. Needs the Electron headers, so it needs the network once.
// `--arch=x64,arm64` builds for several architectures (macOS installers ship both).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);
const nativeRoot = join(process.cwd(), 'build', 'electron-native');
const archArgument = process.argv.find((argument) => argument.startsWith('--arch='));
const architectures = archArgument ? archArgument.slice('--arch='.length).split(',') : [process.arch];

let electronVersion;
try {
  electronVersion = require('electron/package.json').version;
} catch {
  console.error('electron is not installed; run npm install first.');
  process.exit(1);
}
const sqlitePackageDir = dirname(require.resolve('better-sqlite3/package.json'));
const sqliteVersion = JSON.parse(readFileSync(join(sqlitePackageDir, 'package.json'), 'utf8')).version;
const nodeGyp = require.resolve('node-gyp/bin/node-gyp.js');

for (const arch of architectures) {
  const outDir = join(nativeRoot, arch);
  const target = join(outDir, 'better_sqlite3.node');
  const stampFile = join(outDir, 'build-stamp.json');
  const stamp = JSON.stringify({ electronVersion, sqliteVersion, platform: process.platform, arch });
  if (existsSync(target) && existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) {
    console.log(`better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (${arch}) is up to date.`);
    continue;
  }

  const sourceDir = join(outDir, 'source');
  rmSync(sourceDir, { recursive: true, force: true });
  mkdirSync(sourceDir, { recursive: true });
  for (const part of ['binding.gyp', 'package.json', 'src', 'deps']) {
    cpSync(join(sqlitePackageDir, part), join(sourceDir, part), { recursive: true });
  }
  console.log(`Building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} (${arch})…`);
  execFileSync(
    process.execPath,
    [
      nodeGyp,
      'rebuild',
      '--release',
      `--target=${electronVersion}`,
      `--arch=${arch}`,
      '--dist-url=https://electronjs.org/headers',
    ],
    { cwd: sourceDir, stdio: 'inherit' },
  );
  cpSync(join(sourceDir, 'build', 'Release', 'better_sqlite3.node'), target);
  rmSync(sourceDir, { recursive: true, force: true });
  writeFileSync(stampFile, stamp);
  console.log(`Wrote ${target}`);
}
