// Bundles the Electron main process and the preload script with esbuild.
// Preload must be a single CommonJS file: sandboxed preloads cannot load other modules.
import { build, context } from 'esbuild';

const watch = process.argv.includes('--watch');

const shared = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: true,
  logLevel: 'info',
};

const bundles = [
  {
    ...shared,
    entryPoints: ['main/index.ts'],
    outfile: 'out/main/index.cjs',
    // better-sqlite3 loads its native addon at run time; electron is provided by the runtime.
    external: ['electron', 'better-sqlite3'],
  },
  {
    ...shared,
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
