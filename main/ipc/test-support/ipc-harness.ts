import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { EventName } from '../../../engine/api/events';
import type { OrgTrust } from '../../../engine/api/trust-schemas';
import { openFileSecretStore } from '../../../engine/secrets/file-secret-store';
import { EngineHost } from '../../engine-host/engine-host';
import { createDispatch, type Dispatch } from '../dispatch';
import { createHandlers, type Handlers } from '../handlers';
import { updateHandlers } from '../../updates/update-handlers';
import { desktopHandlers, desktopPreferencesIn } from '../../desktop/desktop-handlers';
import { UpdateController } from '../../updates/update-controller';
import { updatePreferenceIn } from '../../updates/update-preference';

export const REPO_ROOT = resolve(import.meta.dirname, '..', '..', '..');
export const DEMO_ORG = join(REPO_ROOT, 'examples', 'demo-org');
export const TEMPLATES = join(REPO_ROOT, 'templates');
export const EXAMPLE_ORG = resolve(REPO_ROOT, '..', 'shared', 'fixtures', 'lemming-upstream', 'example-org');

export interface IpcHarness {
  dispatch: Dispatch;
  host: EngineHost;
  /** The app's updates as in a developer checkout: always off. */
  updates: UpdateController;
  /** Every answer dispatch gave, in order, with what was asked. */
  responses: { channel: unknown; input: unknown; response: unknown }[];
  events: { name: EventName; payload: unknown }[];
  userOrgsFolder: string;
  /** The secrets file the host's secret store keeps (the CLI reads the same one with --secrets-file). */
  secretsFile: string;
  /** A fresh copy of a folder in a temp dir. */
  copy(source: string): string;
  setPickedFolder(path: string | null): void;
  setExportFile(path: string | null): void;
  setImportFile(path: string | null): void;
  tempDir(): string;
  /**
   * The person trusts the open org as it is now, through the app's own channels, granting every secret
   * and variable it names: for tests about something else than trust. Call it again after a change.
   */
  trustOpenOrg(): Promise<void>;
}

/**
 * The main process without Electron, for dispatch-level tests: the real handlers and engine host over
 * a secrets file in a temp folder, every answer recorded. `cleanup` closes the host and removes the
 * temp folders (call it in afterEach).
 */
export function ipcHarnesses() {
  const made: string[] = [];
  const hosts: EngineHost[] = [];
  const servers: { close(): Promise<void> }[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'lemming-ipc-'));
    made.push(dir);
    return dir;
  };
  return {
    async create(
      options: { logError?: (context: string, error: unknown) => void } = {},
    ): Promise<IpcHarness> {
      const secretsFile = join(tempDir(), 'secrets.json');
      const secrets = await openFileSecretStore(secretsFile);
      if (!secrets.ok) throw new Error(secrets.error);
      const userOrgsFolder = tempDir();
      const host = await EngineHost.create({
        secretStore: secrets.value.store,
        demoOrgSource: DEMO_ORG,
        templatesFolder: TEMPLATES,
        userOrgsFolder,
        trustFile: join(tempDir(), 'trust.json'),
        pingIntervalMs: 5,
        ...(options.logError ? { logError: options.logError } : {}),
      });
      hosts.push(host);
      const updates = await UpdateController.create({
        updater: { offBecause: 'development' },
        preference: updatePreferenceIn(tempDir()),
        onChange: (status) => host.events.emit('updates.changed', status),
        logError: () => undefined,
      });
      let pickedFolder: string | null = null;
      let exportFile: string | null = null;
      let importFile: string | null = null;
      const inner = createDispatch(
        {
          ...createHandlers({
            appInfo: () => ({
              name: 'LeMMing Desktop',
              version: '0.0.0',
              platform: 'test',
              runtime: { node: '20', electron: null, chrome: null, sqlite: '3' },
            }),
            pickFolder: async () => pickedFolder,
            pickExportFile: async () => exportFile,
            pickImportFile: async () => importFile,
            host,
          }),
          ...updateHandlers(updates),
          ...desktopHandlers(desktopPreferencesIn(tempDir())),
        } satisfies Handlers,
        { redact: (value) => host.redact(value) },
      );
      const responses: IpcHarness['responses'] = [];
      const events: IpcHarness['events'] = [];
      host.events.on((name, payload) => events.push({ name, payload }));
      return {
        host,
        updates,
        responses,
        events,
        userOrgsFolder,
        secretsFile,
        tempDir,
        dispatch: async (channel, input) => {
          const response = await inner(channel, input);
          responses.push({ channel, input, response });
          return response;
        },
        copy(source) {
          const target = join(tempDir(), 'org');
          cpSync(source, target, { recursive: true });
          return target;
        },
        setPickedFolder: (path) => {
          pickedFolder = path;
        },
        setExportFile: (path) => {
          exportFile = path;
        },
        setImportFile: (path) => {
          importFile = path;
        },
        async trustOpenOrg() {
          const now = valueOf<OrgTrust>(await inner('trust.state', {}));
          const named = (kind: 'secret' | 'environment') =>
            now.reach.items.filter((item) => item.kind === kind).map((item) => item.subject);
          valueOf(
            await inner('trust.accept', {
              fingerprint: now.fingerprint,
              secrets: named('secret'),
              environment: named('environment'),
            }),
          );
        },
      };
    },
    /** A harness with a fresh copy of the demo org open in it. */
    async openDemo(): Promise<{ harness: IpcHarness; org: string }> {
      const harness = await this.create();
      const org = harness.copy(DEMO_ORG);
      valueOf(await harness.dispatch('org.open', { path: org }));
      return { harness, org };
    },
    /** Keeps `server` (a model or service the org talks to) running until cleanup. */
    serve<T extends { close(): Promise<void> }>(server: T): T {
      servers.push(server);
      return server;
    },
    async cleanup(): Promise<void> {
      for (const host of hosts.splice(0)) await host.dispose();
      for (const server of servers.splice(0)) await server.close();
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The value of a successful answer; a failed one fails the test with its error. */
export function valueOf<T = unknown>(result: unknown): T {
  const answer = result as { ok: boolean; value?: T; error?: unknown };
  if (!answer.ok) throw new Error(`expected success, got ${JSON.stringify(answer.error)}`);
  return answer.value as T;
}
