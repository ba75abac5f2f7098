import { channels } from '../../engine/api/contract';
import { fail } from '../../engine/api/result';
import { isTrustedSender, type SenderFrame } from '../security/sender';
import type { Dispatch } from './dispatch';

/** The slice of Electron's ipcMain this module uses; the app passes the real one. */
export interface IpcMainLike {
  handle(
    channel: string,
    listener: (event: { senderFrame: SenderFrameLike | null }, input: unknown) => unknown,
  ): void;
}

interface SenderFrameLike {
  url: string;
  parent: unknown;
}

export function senderFrameOf(frame: SenderFrameLike | null): SenderFrame | null {
  return frame ? { url: frame.url, isMainFrame: frame.parent === null } : null;
}

/** Registers one `ipcMain.handle` per contract channel, each refusing untrusted senders. */
export function bindIpc(ipcMain: IpcMainLike, dispatch: Dispatch, trustedOrigins: readonly string[]): void {
  for (const channel of channels) {
    ipcMain.handle(channel, (event, input) =>
      isTrustedSender(senderFrameOf(event.senderFrame), trustedOrigins)
        ? dispatch(channel, input)
        : fail('forbidden_sender', 'This window may not call the LeMMing engine.'),
    );
  }
}
