import type { Channel } from '../../engine/api/contract';
import type { EventName } from '../../engine/api/events';
import type { IpcResult, Result } from '../../engine/api/result';
import type { AppInfo } from '../../engine/api/schemas';
import type { EngineHostOptions } from './engine-host';

/**
 * The engine thread's young generation, in MiB (three semi-spaces of 1 MiB, as the CLI runs): a run
 * allocates fast and keeps little, and a big one only promotes garbage into old space (the CLI's
 * --max-semi-space-size=1, bin/node-runtime.mjs).
 */
export const ENGINE_RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 3 };

/** What the engine thread is started with (structured-cloned into it). */
export interface EngineWorkerData {
  /** Only for tests that start the TypeScript source: the module the bootstrap file imports. */
  entry?: string;
  appInfo: AppInfo;
  /** Where main keeps the secrets, in words (the store itself stays in main). */
  secretLocation: string;
  host: Pick<
    EngineHostOptions,
    'demoOrgSource' | 'templatesFolder' | 'userOrgsFolder' | 'trustFile' | 'env' | 'pingIntervalMs'
  >;
}

/**
 * What only main can do for the engine: its dialogs, its secret store (safeStorage in the app), and
 * reading the environment variables the person granted an org (the engine thread has only a minimal base).
 */
export type MainService =
  | 'environment.read'
  | 'pickFolder'
  | 'pickExportFile'
  | 'pickImportFile'
  | 'openExternal'
  | 'secrets.availability'
  | 'secrets.list'
  | 'secrets.has'
  | 'secrets.set'
  | 'secrets.delete'
  | 'secrets.reveal';

export type MainToWorker =
  | { type: 'call'; id: number; channel: Channel | string; input: unknown }
  | { type: 'reply'; id: number; result: Result<unknown, string> }
  | { type: 'dispose' }
  /** Main quits now: end the org's programs at once and say so, before the thread is terminated. */
  | { type: 'kill-programs' };

export type WorkerToMain =
  | { type: 'ready' }
  | { type: 'result'; id: number; result: IpcResult<unknown> }
  | { type: 'event'; name: EventName; payload: unknown }
  | { type: 'request'; id: number; service: MainService; args: unknown[] }
  | { type: 'log'; context: string; message: string }
  | { type: 'disposed' }
  | { type: 'programs-killed' };
