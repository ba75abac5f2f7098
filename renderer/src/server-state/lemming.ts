import type { LemmingApi } from '../../../engine/api/client';

declare global {
  interface Window {
    /** Set by preload in the app and by the test harness in Chromium; the renderer's only way out. */
    lemming: LemmingApi;
  }
}

export function lemming(): LemmingApi {
  return window.lemming;
}
