// Bundles the `lemming` command into one compiled file, so running it compiles no TypeScript.
// Runs on `npm ci`/`npm install` (the `prepare` script) and in `npm run build`; an argument names another
// output file (the tests build one into a scratch folder).
// Only better-sqlite3 stays outside: it loads its native addon from its own package folder.
import { build } from 'esbuild';

await build({
  entryPoints: ['engine/cli/main.ts'],
  outfile: process.argv[2] ?? 'out/cli/lemming.mjs',
  bundle: true,
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
