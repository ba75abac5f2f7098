// Compiles the `lemming` command into out/cli, so running it compiles no TypeScript.
// Runs on `npm ci`/`npm install` (the `prepare` script) and in `npm run build`; an argument names another
// output folder (the tests build one into a scratch folder).
// Three entries share their code through chunks (so one module, e.g. the run lock's state, is loaded
// once): `run-elsewhere.mjs`, small, lets the binary take an org's run lock before loading the rest;
// `cli-io.mjs` and `lemming.mjs` are the CLI. Only better-sqlite3 stays outside: it loads its native
// addon from its own package folder.
import { join } from 'node:path';
import { build } from 'esbuild';
import { buildTemplates } from './build-templates.mjs';

await build({
  entryPoints: {
    lemming: 'engine/cli/main.ts',
    'run-elsewhere': 'engine/cli/run-elsewhere.ts',
    'cli-io': 'engine/cli/cli-io.ts',
  },
  outdir: process.argv[2] ?? 'out/cli',
  outExtension: { '.js': '.mjs' },
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external: ['better-sqlite3'],
  // Bundled CommonJS packages (ajv, undici…) call require() for Node's own modules; ESM has no require.
  banner: {
    js: "import { createRequire as __lemmingCreateRequire } from 'node:module'; const require = __lemmingCreateRequire(import.meta.url);",
  },
  minify: true,
  sourcemap: true,
  logLevel: 'warning',
});

// The templates `lemming init --template` copies, beside the bundle (engine/cli/shipped-templates.ts).
buildTemplates(join(process.argv[2] ?? 'out/cli', 'templates'));
