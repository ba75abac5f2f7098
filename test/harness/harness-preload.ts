// Bundled into an init script by the harness: builds `window.lemming` with the same builder as the
// app's preload, over a Playwright binding instead of ipcRenderer.
import { buildLemmingApi } from '../../engine/api/client';

declare global {
  interface Window {
    __lemmingInvoke(channel: string, input: unknown): Promise<unknown>;
  }
}

window.lemming = buildLemmingApi((channel, input) => window.__lemmingInvoke(channel, input));
