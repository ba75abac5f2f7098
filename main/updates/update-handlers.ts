import { ok } from '../../engine/api/result';
import type { Handlers } from '../ipc/handlers';
import type { UpdateController } from './update-controller';

/** The channels main answers itself: the app's own updates live beside electron-updater, not in the engine. */
export type UpdateChannel = 'updates.status' | 'updates.setEnabled' | 'updates.restartNow';

export function updateHandlers(updates: UpdateController): Pick<Handlers, UpdateChannel> {
  return {
    'updates.status': async () => ok(updates.status()),
    'updates.setEnabled': async ({ enabled }) => ok(await updates.setEnabled(enabled)),
    'updates.restartNow': async () => ok(updates.restartNow()),
  };
}
