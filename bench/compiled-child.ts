import { join } from 'node:path';
import { build } from 'esbuild';
import { RUN_NODE_FLAGS } from '../bin/node-runtime.mjs';

/**
 * A bench driver compiled as the CLI is (esbuild, one ESM file), so it measures the shipped code path.
 * It lands inside the checkout, where the one external package, better-sqlite3, resolves; not in out/,
 * which is packed.
 */
export async function compileBenchChild(entry: string): Promise<string> {
  const child = join(
    import.meta.dirname,
    '..',
    'node_modules',
    '.cache',
    'lemming-bench',
    entry.replace(/\.ts$/, '.mjs'),
  );
  await build({
    entryPoints: [join(import.meta.dirname, entry)],
    outfile: child,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    external: ['better-sqlite3'],
    banner: {
      js: "import { createRequire as __lemmingCreateRequire } from 'node:module'; const require = __lemmingCreateRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return child;
}

/** The Node flags `lemming run` runs with (bin/node-runtime.mjs). */
export function cliNodeFlags(): string[] {
  return [...RUN_NODE_FLAGS];
}
