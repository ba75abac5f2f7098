import type { UpdateStatus } from '../../engine/api/update-schemas';
import { describeUpdateError } from './update-errors';
import type { UpdatePreference } from './update-preference';

/** The part of electron-updater's `autoUpdater` the app uses. */
export interface Updater {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  on(event: 'checking-for-update', listener: () => void): unknown;
  on(event: 'update-available', listener: (info: { version: string }) => void): unknown;
  on(event: 'update-not-available', listener: (info: { version: string }) => void): unknown;
  on(event: 'update-downloaded', listener: (info: { version: string }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  checkForUpdates(): Promise<unknown>;
  quitAndInstall(): void;
}

export interface UpdateControllerOptions {
  /** electron-updater's autoUpdater, or why this copy of the app has none. */
  updater: Updater | { offBecause: 'development' | 'no-update-source' };
  preference: UpdatePreference;
  /** Hears every change of status (main pushes it to the windows as `updates.changed`). */
  onChange(status: UpdateStatus): void;
  logError(error: unknown): void;
}

/**
 * The app's own updates: checked once on start, downloaded in the background, installed when the user
 * says "restart now" (or on the next quit). Never on in a developer checkout or when the user turned it off.
 */
export class UpdateController {
  private current: UpdateStatus;
  private listening = false;

  private constructor(
    private readonly options: UpdateControllerOptions,
    enabled: boolean,
  ) {
    this.current = {
      enabled,
      state: 'off',
      offReason: this.offReasonFor(enabled),
      version: null,
      message: null,
    };
  }

  static async create(options: UpdateControllerOptions): Promise<UpdateController> {
    return new UpdateController(options, await options.preference.read());
  }

  status(): UpdateStatus {
    return this.current;
  }

  /** Checks now when updates are on; the answer arrives through `onChange`. */
  start(): void {
    const updater = this.activeUpdater();
    if (!updater) return;
    this.listen(updater);
    updater.autoDownload = true;
    updater.autoInstallOnAppQuit = true;
    this.update({ state: 'checking', offReason: null, message: null });
    // electron-updater also emits 'error' for most failures; whichever reports first wins.
    updater.checkForUpdates().catch((error: unknown) => {
      if (this.current.state === 'checking') this.failed(error);
    });
  }

  async setEnabled(enabled: boolean): Promise<UpdateStatus> {
    await this.options.preference.write(enabled);
    const wasEnabled = this.current.enabled;
    this.update({ enabled });
    const updater = 'offBecause' in this.options.updater ? null : this.options.updater;
    if (!enabled) {
      // A download already on disk is not installed behind the user's back any more.
      if (updater) updater.autoInstallOnAppQuit = false;
      this.update({ state: 'off', offReason: this.offReasonFor(false), version: null, message: null });
    } else if (!wasEnabled) {
      if (updater) this.start();
      else this.update({ offReason: this.offReasonFor(true) });
    }
    return this.current;
  }

  restartNow(): { restarting: boolean } {
    const updater = this.activeUpdater();
    if (!updater || this.current.state !== 'ready') return { restarting: false };
    updater.quitAndInstall();
    return { restarting: true };
  }

  private activeUpdater(): Updater | null {
    return this.current.enabled && !('offBecause' in this.options.updater) ? this.options.updater : null;
  }

  private offReasonFor(enabled: boolean): UpdateStatus['offReason'] {
    if ('offBecause' in this.options.updater) return this.options.updater.offBecause;
    return enabled ? null : 'turned-off';
  }

  private listen(updater: Updater): void {
    if (this.listening) return;
    this.listening = true;
    const whileEnabled =
      <A extends unknown[]>(handle: (...args: A) => void) =>
      (...args: A) => {
        if (this.current.enabled) handle(...args);
      };
    updater.on(
      'checking-for-update',
      whileEnabled(() => this.update({ state: 'checking', message: null })),
    );
    updater.on(
      'update-available',
      whileEnabled((info) => this.update({ state: 'downloading', version: info.version, message: null })),
    );
    updater.on(
      'update-not-available',
      whileEnabled(() => this.update({ state: 'up-to-date', version: null, message: null })),
    );
    updater.on(
      'update-downloaded',
      whileEnabled((info) => this.update({ state: 'ready', version: info.version, message: null })),
    );
    updater.on(
      'error',
      whileEnabled((error) => this.failed(error)),
    );
  }

  private failed(error: unknown): void {
    this.options.logError(error);
    if (!this.current.enabled) return;
    this.update({ ...describeUpdateError(error), version: null });
  }

  private update(change: Partial<UpdateStatus>): void {
    this.current = { ...this.current, ...change };
    this.options.onChange(this.current);
  }
}
