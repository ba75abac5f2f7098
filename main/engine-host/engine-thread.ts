import type { Worker } from 'node:worker_threads';
import type { EventName } from '../../engine/api/events';
import { fail, type IpcResult } from '../../engine/api/result';
import type { SecretStore } from '../../engine/secrets/secret-store';
import { pickVariables } from '../../engine/trust/org-grants';
import { orgKeyOf } from '../../engine/trust/org-trust';
import type { TrustStore } from '../../engine/trust/trust-store';
import type { Dispatch } from '../ipc/dispatch';
import type { FolderPick } from '../ipc/handlers';
import type { MainService, MainToWorker, WorkerToMain } from './worker-messages';

export interface MainServices {
  secretStore: SecretStore;
  /** The person's grants (the file the engine thread's trust record reads too): which variables an org may read. */
  trust: TrustStore;
  /** Main's own environment, of which the engine thread is given only the variables granted to its org. */
  env: Readonly<Record<string, string | undefined>>;
  pickFolder: (request: FolderPick) => Promise<string | null>;
  pickExportFile: (suggestedName: string) => Promise<string | null>;
  pickImportFile: (kind: 'timeline' | 'bundle') => Promise<string | null>;
  /** Opens a web page (an MCP server's sign-in page) in the person's default browser. */
  openExternal: (url: string) => Promise<void>;
  onEvent: (name: EventName, payload: unknown) => void;
  logError: (context: string, error: unknown) => void;
}

/**
 * Main's side of the engine thread: relays each call to the worker and its answer back, passes the
 * worker's event pings on, and does for it what only main can do (dialogs, the secret store, the
 * variables granted to an org). A worker that dies after it was ready answers every call still waiting
 * with an internal error and is started again: the org it had open is closed (`org.changed` to none),
 * and the next call is answered by the new one.
 */
export class EngineThread {
  private readonly calls = new Map<number, (result: IpcResult<unknown>) => void>();
  private nextId = 1;
  private exited = false;
  private disposed: (() => void) | null = null;
  private programsKilled: (() => void) | null = null;
  private worker!: Worker;
  private restarting: Promise<unknown> | null = null;

  private constructor(
    private readonly startWorker: () => Worker,
    private readonly services: MainServices,
  ) {}

  /** Starts a worker running engine-worker and waits until its engine host is ready. */
  static start(startWorker: () => Worker, services: MainServices): Promise<EngineThread> {
    return new EngineThread(startWorker, services).launch();
  }

  private launch(): Promise<EngineThread> {
    const worker = this.startWorker();
    this.worker = worker;
    this.exited = false;
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.on('message', (message: WorkerToMain) => {
        if (message.type === 'ready') {
          ready = true;
          resolve(this);
        } else this.received(message);
      });
      worker.on('error', (error) => {
        this.services.logError('engine thread', error);
        reject(error);
      });
      worker.on('exit', (code) => {
        this.ended(code, ready);
        reject(new Error(`The engine thread exited with code ${code} before it was ready.`));
      });
    });
  }

  /** The contract's dispatch, answered by the engine thread. */
  readonly dispatch: Dispatch = async (channel, input) => {
    if (this.restarting) await this.restarting;
    if (this.exited) return fail('internal', 'The engine has stopped. Restart the app.');
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.calls.set(id, resolve);
      this.post({ type: 'call', id, channel: String(channel), input });
    });
  };

  /** Closes the open org (stopping its run) in the worker, then ends the thread. */
  async dispose(): Promise<void> {
    if (this.exited) return;
    await new Promise<void>((resolve) => {
      this.disposed = resolve;
      this.post({ type: 'dispose' });
    });
    await this.worker.terminate();
  }

  /**
   * Ends the thread now, without waiting for it to close its org: for a quit that cannot wait any longer.
   * The org's programs (MCP servers) are ended first, so none outlives the app; a thread too busy to
   * answer within `graceMs` is terminated anyway.
   */
  async terminate(graceMs = 500): Promise<void> {
    if (this.exited) return;
    this.disposed ??= () => undefined;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, graceMs);
      this.programsKilled = () => {
        clearTimeout(timer);
        resolve();
      };
      this.post({ type: 'kill-programs' });
    });
    await this.worker.terminate();
  }

  private received(message: WorkerToMain): void {
    switch (message.type) {
      case 'result':
        this.calls.get(message.id)?.(message.result);
        this.calls.delete(message.id);
        return;
      case 'event':
        this.services.onEvent(message.name, message.payload);
        return;
      case 'request':
        void this.serve(message.service, message.args).then(
          (value) => this.post({ type: 'reply', id: message.id, result: { ok: true, value } }),
          (error: unknown) =>
            this.post({
              type: 'reply',
              id: message.id,
              result: { ok: false, error: error instanceof Error ? error.message : String(error) },
            }),
        );
        return;
      case 'log':
        this.services.logError(message.context, message.message);
        return;
      case 'disposed':
        this.disposed?.();
        return;
      case 'programs-killed':
        this.programsKilled?.();
        return;
      case 'ready':
        return;
    }
  }

  private serve(service: MainService, args: unknown[]): Promise<unknown> {
    const { secretStore: store } = this.services;
    const name = String(args[0]);
    switch (service) {
      case 'environment.read':
        return Promise.resolve(this.grantedVariables(name, args[1]));
      case 'pickFolder':
        return this.services.pickFolder((args[0] ?? {}) as FolderPick);
      case 'pickExportFile':
        return this.services.pickExportFile(name);
      case 'pickImportFile':
        return this.services.pickImportFile(name === 'bundle' ? 'bundle' : 'timeline');
      case 'openExternal':
        return this.services.openExternal(name);
      case 'secrets.availability':
        return store.availability();
      case 'secrets.list':
        return store.list();
      case 'secrets.has':
        return store.has(name);
      case 'secrets.set':
        return store.set(name, String(args[1]));
      case 'secrets.delete':
        return store.delete(name);
      case 'secrets.reveal':
        return store.reveal(name);
    }
  }

  /** Of the variables asked for, those the person granted the org at `orgPath` that are set: no other. */
  private grantedVariables(orgPath: string, names: unknown): Record<string, string> {
    const { environment } = this.services.trust.record(orgKeyOf(orgPath)).grants;
    const asked = Array.isArray(names)
      ? names.filter((name): name is string => typeof name === 'string')
      : [];
    return pickVariables(
      this.services.env,
      asked.filter((name) => environment.includes(name)),
    );
  }

  private ended(code: number, wasReady: boolean): void {
    this.exited = true;
    const restart = wasReady && !this.disposed;
    if (code !== 0 && !this.disposed)
      this.services.logError('engine thread', new Error(`exited with code ${code}`));
    const answer = restart
      ? 'The engine stopped before it answered and has been started again: open your org again.'
      : 'The engine stopped before it answered. Restart the app.';
    for (const reply of this.calls.values()) reply(fail('internal', answer));
    this.calls.clear();
    this.disposed?.();
    if (!restart) return;
    this.services.logError('engine thread', new Error('started again after it stopped'));
    this.restarting = this.launch().then(
      () => this.services.onEvent('org.changed', { path: null }),
      (error: unknown) => this.services.logError('engine thread (starting it again)', error),
    );
    void this.restarting.finally(() => (this.restarting = null));
  }

  private post(message: MainToWorker): void {
    this.worker.postMessage(message);
  }
}
