import { EventEmitter } from 'node:events';
import type { Updater } from '../update-controller';

/**
 * Stands in for electron-updater's `autoUpdater`, which needs a packaged Electron app and a release
 * server: a test emits its events ('update-available', 'update-downloaded', 'error') by hand and reads
 * what the app asked of it. The packaged-app smoke test runs the real one.
 */
export class StandInUpdater extends EventEmitter implements Updater {
  autoDownload = false;
  autoInstallOnAppQuit = false;
  checks = 0;
  installs = 0;

  async checkForUpdates(): Promise<null> {
    this.checks += 1;
    return null;
  }

  quitAndInstall(): void {
    this.installs += 1;
  }
}
