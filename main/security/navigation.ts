import { originOf } from './sender';

/** Links the user may open in their browser: http and https, nothing else (no file:, no custom schemes). */
export function isExternalWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/** The app is a single page: it never navigates its window anywhere, its own origin included. */
export function mayNavigate(_url: string): boolean {
  return false;
}

/** The slice of Electron's WebContents the guards attach to. */
export interface GuardedContents {
  on(
    event: 'will-navigate' | 'will-redirect',
    listener: (event: { preventDefault(): void; url: string }) => void,
  ): unknown;
  on(event: 'will-attach-webview', listener: (event: { preventDefault(): void }) => void): unknown;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }): void;
}

/**
 * Refuses navigation, redirects, webviews and new windows. An http(s) link the user follows, in place
 * or as a new window, opens in the system browser instead.
 */
export function guardNavigation(
  contents: GuardedContents,
  appOrigin: string,
  openExternal: (url: string) => void,
): void {
  const refuse = (event: { preventDefault(): void; url: string }) => {
    if (mayNavigate(event.url)) return;
    event.preventDefault();
    if (isExternalWebUrl(event.url) && !isSameOrigin(event.url, appOrigin)) openExternal(event.url);
  };
  contents.on('will-navigate', refuse);
  contents.on('will-redirect', refuse);
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalWebUrl(url)) openExternal(url);
    return { action: 'deny' };
  });
}

function isSameOrigin(url: string, origin: string): boolean {
  try {
    return originOf(url) === origin;
  } catch {
    return false;
  }
}
