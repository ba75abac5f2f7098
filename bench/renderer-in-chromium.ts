// The built renderer in a headless system Chromium, `window.lemming` bound to the real IPC handlers and
// engine host in this Node process (as in the e2e harness), with an org opened: what the renderer benches
// measure in.
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { build as viteBuild } from 'vite';
import { openFileSecretStore } from '../engine/secrets/file-secret-store';
import { sqliteVersion } from '../engine/timeline/sqlite';
import { EngineHost } from '../main/engine-host/engine-host';
import { createDispatch } from '../main/ipc/dispatch';
import { createHandlers, type Handlers } from '../main/ipc/handlers';
import { updateHandlers } from '../main/updates/update-handlers';
import { UpdateController } from '../main/updates/update-controller';
import { updatePreferenceIn } from '../main/updates/update-preference';
import { desktopHandlers, desktopPreferencesIn } from '../main/desktop/desktop-handlers';
import { startRendererServer } from '../test/harness/renderer-server';
import { CHROMIUM_ARGS, CHROMIUM_PATH, harnessPreloadScript } from '../test/harness/system-chromium';

export const REPO_ROOT = resolve(import.meta.dirname, '..');

/** Builds the renderer into `outDir` with the app's Vite config. */
export async function buildRenderer(outDir: string): Promise<void> {
  await viteBuild({
    configFile: join(REPO_ROOT, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, sourcemap: false },
  });
}

/** Opens `org` in the renderer at `rendererDir`, runs `measure` on the page, and closes everything. */
export async function withOrgInChromium<T>(
  dir: string,
  rendererDir: string,
  org: string,
  viewport: { width: number; height: number },
  measure: (page: Page) => Promise<T>,
): Promise<T> {
  const secrets = await openFileSecretStore(join(dir, 'secrets.json'));
  if (!secrets.ok) throw new Error(secrets.error);
  const host = await EngineHost.create({
    secretStore: secrets.value.store,
    demoOrgSource: join(REPO_ROOT, 'examples', 'demo-org'),
    templatesFolder: join(REPO_ROOT, 'templates'),
    userOrgsFolder: join(dir, 'orgs'),
    trustFile: join(dir, 'trust.json'),
  });
  const updates = await UpdateController.create({
    updater: { offBecause: 'development' },
    preference: updatePreferenceIn(dir),
    onChange: () => undefined,
    logError: () => undefined,
  });
  const dispatch = createDispatch(
    {
      ...createHandlers({
        appInfo: () => ({
          name: 'LeMMing Desktop',
          version: 'bench',
          platform: process.platform,
          runtime: { node: process.versions.node, electron: null, chrome: null, sqlite: sqliteVersion() },
        }),
        pickFolder: async () => null,
        pickExportFile: async () => null,
        pickImportFile: async () => null,
        host,
      }),
      ...updateHandlers(updates),
      ...desktopHandlers(desktopPreferencesIn(dir)),
    } satisfies Handlers,
    { redact: (value) => host.redact(value) },
  );
  const server = await startRendererServer(rendererDir);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  try {
    const page = await browser.newPage({ viewport });
    await page.exposeBinding('__lemmingInvoke', (_source, channel: unknown, input: unknown) =>
      dispatch(channel, input),
    );
    await page.addInitScript({ content: await harnessPreloadScript() });
    // tsx compiles the functions passed to page.evaluate with esbuild's keep-names helper, which the page lacks.
    await page.addInitScript({ content: 'globalThis.__name = (target) => target;' });
    await page.goto(`${server.origin}/index.html`);
    await page.getByRole('textbox', { name: 'Org folder path' }).fill(org);
    await page.getByRole('button', { name: 'Open', exact: true }).click();
    await page.getByRole('navigation', { name: 'Main views' }).waitFor();
    return await measure(page);
  } finally {
    await browser.close();
    await server.close();
    await host.dispose();
  }
}

export function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}
