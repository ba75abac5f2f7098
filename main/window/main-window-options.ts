import type { BrowserWindowConstructorOptions } from 'electron';

/**
 * `devTools`: a packaged build has no developer tools unless the person turned them on in Settings (or
 * started the app with --developer-tools); a developer checkout always has them.
 */
export function mainWindowOptions(
  preloadPath: string,
  { devTools }: { devTools: boolean } = { devTools: false },
): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 800,
    minHeight: 560,
    show: false,
    title: 'LeMMing Desktop',
    backgroundColor: '#1b1d23',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools,
    },
  };
}
