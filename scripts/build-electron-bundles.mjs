// Bundles the Electron main process and the preload script with esbuild.
// Preload must be a single CommonJS file: sandboxed preloads cannot load other modules.
import { build, context } from 'esbuild';

const watch = process.argv.includes('--watch');

const shared = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node24',
  sourcemap: true,
  logLevel: 'info',
};

// The engine finds files beside its own module (import.meta.url), which a CommonJS bundle has as __filename.
const importMetaUrl = {
  define: { 'import.meta.url': '__lemmingImportMetaUrl' },
  banner: { js: "var __lemmingImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
};

const bundles = [
  {
    ...shared,
    ...importMetaUrl,
    entryPoints: ['main/index.ts'],
    outfile: 'out/main/index.cjs',
    // better-sqlite3 loads its native addon at run time; electron is provided by the runtime.
    external: ['electron', 'better-sqlite3'],
  },
  {
    ...shared,
    ...importMetaUrl,
    // The engine thread main starts (main/engine-host/engine-thread.ts).
    entryPoints: ['main/engine-host/engine-worker.ts'],
    outfile: 'out/main/engine-worker.cjs',
    external: ['better-sqlite3'],
  },
  {
    ...shared,
    entryPoints: ['preload/index.ts'],
    outfile: 'out/preload/index.cjs',
    minify: true,
    external: ['electron'],
  },
];

if (watch) {
  for (const options of bundles) await (await context(options)).watch();
} else {
  await Promise.all(bundles.map((options) => build(options)));
}
