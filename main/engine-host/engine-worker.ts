import { parentPort, workerData } from 'node:worker_threads';
import type { SecretStore } from '../../engine/secrets/secret-store';
import { createDispatch } from '../ipc/dispatch';
import { createHandlers } from '../ipc/handlers';
import { EngineHost } from './engine-host';
import type { EngineWorkerData, MainService, MainToWorker, WorkerToMain } from './worker-messages';

/**
 * The engine thread: the engine host and every channel's handler run here, off Electron's main
 * thread, so a long import or a slow query never holds up windows or IPC. Main relays the calls and
 * answers what only it can do (dialogs, the secret store, the variables granted to an org) when asked.
 */
async function start(): Promise<void> {
  const port = parentPort;
  if (!port) throw new Error('engine-worker runs as a worker thread');
  const data = workerData as EngineWorkerData;
  const post = (message: WorkerToMain) => port.postMessage(message);
  // Declared before the log: what the thread logs is redacted with its secrets as soon as the host has them.
  let host: EngineHost | null = null;
  const logError = (context: string, error: unknown) => {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    post({ type: 'log', context, message: host ? host.redact(message) : message });
  };

  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 1;
  const ask = <T>(service: MainService, ...args: unknown[]): Promise<T> => {
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
      post({ type: 'request', id, service, args });
    });
  };

  // The last resort: an error nothing handled is logged and ends the open org's run (which lets go of
  // its run lock), and the thread goes on answering, instead of dying with every later call refused.
  const lastResort = (error: unknown) => {
    logError('engine thread: an error nothing handled', error);
    const message = error instanceof Error ? error.message : String(error);
    host?.current()?.controller.stopForError(`The run stopped because of an unexpected error: ${message}`);
  };
  process.on('unhandledRejection', lastResort);
  process.on('uncaughtException', lastResort);
  let dispatch: ReturnType<typeof createDispatch> | null = null;
  port.on('message', (message: MainToWorker) => {
    if (message.type === 'reply') {
      const request = waiting.get(message.id);
      waiting.delete(message.id);
      if (message.result.ok) request?.resolve(message.result.value);
      else request?.reject(new Error(message.result.error));
    } else if (message.type === 'call') {
      void dispatch!(message.channel, message.input).then((result) =>
        post({ type: 'result', id: message.id, result }),
      );
    } else if (message.type === 'kill-programs') {
      host?.killPrograms();
      post({ type: 'programs-killed' });
    } else if (message.type === 'dispose') {
      void (host?.dispose() ?? Promise.resolve()).finally(() => post({ type: 'disposed' }));
    }
  });

  const secretStore: SecretStore = {
    location: data.secretLocation,
    availability: () => ask('secrets.availability'),
    list: () => ask('secrets.list'),
    has: (name) => ask('secrets.has', name),
    set: (name, value) => ask('secrets.set', name, value),
    delete: (name) => ask('secrets.delete', name),
    reveal: (name) => ask('secrets.reveal', name),
  };
  host = await EngineHost.create({
    ...data.host,
    secretStore,
    logError,
    readVariables: (orgPath, names) => ask('environment.read', orgPath, names),
  });
  const engineHost = host;
  engineHost.events.on((name, payload) => post({ type: 'event', name, payload }));
  dispatch = createDispatch(
    createHandlers({
      host: engineHost,
      appInfo: () => data.appInfo,
      pickFolder: (request) => ask('pickFolder', request),
      pickExportFile: (suggestedName) => ask('pickExportFile', suggestedName),
      pickImportFile: (kind) => ask('pickImportFile', kind ?? 'timeline'),
      openInBrowser: (url) => ask('openExternal', url.href),
    }),
    { redact: (value) => engineHost.redact(value), logError: (channel, error) => logError(channel, error) },
  );
  post({ type: 'ready' });
}

void start();
