import { build } from 'esbuild';
import { resolve } from 'node:path';

/** The system Chromium the e2e tests and the renderer benchmark drive (never Playwright's own download). */
export const CHROMIUM_PATH = process.env.LEMMING_CHROMIUM ?? '/usr/bin/chromium';

/** No sandbox (CI runs as root), no GPU, and none of Chromium's own network traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

const HARNESS_PRELOAD = resolve(import.meta.dirname, 'harness-preload.ts');
let preloadScript: Promise<string> | undefined;

/** harness-preload.ts bundled into an init script: `window.lemming` built like the app's preload builds it. */
export function harnessPreloadScript(): Promise<string> {
  preloadScript ??= build({
    entryPoints: [HARNESS_PRELOAD],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
  }).then((result) => result.outputFiles[0]!.text);
  return preloadScript;
}
