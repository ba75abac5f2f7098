// Bundled into an init script by the harness: builds `window.lemming` with the same builder as the
// app's preload, over a Playwright binding instead of ipcRenderer, and takes main's events the way
// preload does (the harness calls __lemmingDeliver where the app's preload hears ipcRenderer).
import { buildLemmingApi, createEventHub } from '../../engine/api/client';

declare global {
  interface Window {
    __lemmingInvoke(channel: string, input: unknown): Promise<unknown>;
    __lemmingDeliver(message: unknown): void;
  }
}

const events = createEventHub();
window.__lemmingDeliver = (message) => events.deliver(message);
window.lemming = buildLemmingApi(
  (channel, input) => window.__lemmingInvoke(channel, input),
  events.subscribe,
);
