import { test as base, type Page } from '@playwright/test';
import { build } from 'esbuild';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sqliteVersion } from '../../engine/timeline/sqlite';
import { createDispatch } from '../../main/ipc/dispatch';
import { createHandlers } from '../../main/ipc/handlers';
import { isTrustedSender } from '../../main/security/sender';
import { startRendererServer, type RendererServer } from './renderer-server';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..');
export const RENDERER_DIR = join(REPO_ROOT, 'out', 'renderer');
export const UPSTREAM_FIXTURES = resolve(REPO_ROOT, '..', 'shared', 'fixtures', 'lemming-upstream');

/** One call that crossed the bridge, as main answered it. */
export interface RecordedCall {
  channel: unknown;
  input: unknown;
  response: unknown;
}

export interface LemmingHarness {
  page: Page;
  origin: string;
  /** Every call the renderer made, with main's response, in order. */
  calls: RecordedCall[];
  /** What the next "Choose org folder…" dialog returns. */
  setPickedFolder(path: string | null): void;
  /** A fresh temporary copy of a folder (fixtures are never touched in place). */
  copyOfFolder(source: string): string;
  gotoApp(): Promise<void>;
}

let preloadScript: Promise<string> | undefined;

function harnessPreload(): Promise<string> {
  preloadScript ??= build({
    entryPoints: [join(REPO_ROOT, 'test', 'harness', 'harness-preload.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
  }).then((result) => result.outputFiles[0]!.text);
  return preloadScript;
}

/**
 * The renderer test harness: the Vite-built renderer in a system Chromium, with `window.lemming` bound to
 * the real main-process handlers running in this test process. Calls go through the same dispatcher and
 * the same sender check as ipcMain in the app.
 */
export const test = base.extend<{ lemming: LemmingHarness }>({
  lemming: async ({ page }, use) => {
    const server: RendererServer = await startRendererServer(RENDERER_DIR);
    const tempDirs: string[] = [];
    let pickedFolder: string | null = null;
    const calls: RecordedCall[] = [];

    const dispatch = createDispatch(
      createHandlers({
        appInfo: () => ({
          name: 'LeMMing Desktop',
          version: '0.0.0-test',
          platform: process.platform,
          runtime: { node: process.versions.node, electron: null, chrome: null, sqlite: sqliteVersion() },
        }),
        pickFolder: async () => pickedFolder,
      }),
    );

    await page.exposeBinding('__lemmingInvoke', async ({ frame }, channel: unknown, input: unknown) => {
      const trusted = isTrustedSender({ url: frame.url(), isMainFrame: frame.parentFrame() === null }, [
        server.origin,
      ]);
      const response = trusted
        ? await dispatch(channel, input)
        : {
            ok: false,
            error: { code: 'forbidden_sender', message: 'This window may not call the LeMMing engine.' },
          };
      calls.push({ channel, input, response });
      return response;
    });
    await page.addInitScript({ content: await harnessPreload() });

    await use({
      page,
      origin: server.origin,
      calls,
      setPickedFolder: (path) => {
        pickedFolder = path;
      },
      copyOfFolder: (source) => {
        const dir = mkdtempSync(join(tmpdir(), 'lemming-e2e-'));
        tempDirs.push(dir);
        const copy = join(dir, source.split(/[\\/]/).pop() ?? 'org');
        cpSync(source, copy, { recursive: true });
        return copy;
      },
      gotoApp: async () => {
        await page.goto(`${server.origin}/index.html`);
      },
    });

    await server.close();
    for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  },
});

export { expect } from '@playwright/test';
