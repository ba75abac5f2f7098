import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { APP_ORIGIN } from '../protocol/app-protocol';
import { mainWindowOptions } from '../window/main-window-options';
import { RENDERER_CSP, RENDERER_SECURITY_HEADERS } from './csp';
import { guardNavigation, isExternalWebUrl, type GuardedContents } from './navigation';
import { denyAllPermissions, type PermissionSession } from './permissions';

describe('main window webPreferences', () => {
  const preferences = mainWindowOptions('/app/out/preload/index.cjs').webPreferences!;

  // Each setting the renderer's isolation rests on, with what a page could do without it.
  const isolation: [setting: keyof typeof preferences, value: boolean, without: string][] = [
    ['contextIsolation', true, "the page's scripts share preload's globals"],
    ['sandbox', true, 'the renderer process runs without the OS sandbox'],
    ['nodeIntegration', false, 'the page can require Node modules'],
    ['nodeIntegrationInWorker', false, "a page's worker can require Node modules"],
    ['nodeIntegrationInSubFrames', false, 'a frame can require Node modules'],
    ['webSecurity', true, 'the same-origin policy is off'],
    ['allowRunningInsecureContent', false, 'an https page may load http scripts'],
    ['webviewTag', false, 'the page can embed a <webview> with its own preferences'],
    ['experimentalFeatures', false, "Chromium's experimental web platform features are on"],
    ['navigateOnDragDrop', false, 'a dropped file or link navigates the window away from the app'],
  ];

  it.each(isolation)('sets %s to %s (otherwise %s)', (setting, value) => {
    expect(preferences[setting]).toBe(value);
  });

  it('loads the preload it is given', () => {
    expect(preferences.preload).toBe('/app/out/preload/index.cjs');
  });

  it('offers the developer tools only when asked for', () => {
    expect(preferences.devTools).toBe(false);
    expect(mainWindowOptions('/p', { devTools: true }).webPreferences?.devTools).toBe(true);
  });

  it('does not show the window before it has painted', () => {
    expect(mainWindowOptions('/p').show).toBe(false);
  });
});

describe('content security policy', () => {
  const directives = new Map(
    RENDERER_CSP.split(';').map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name!, values] as const;
    }),
  );

  it('allows scripts, styles and connections only from the app itself', () => {
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
  });

  it('forbids plugins, base rewriting, forms, frames and being framed', () => {
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    expect(directives.get('frame-src')).toEqual(["'none'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
  });

  it('never allows inline or evaluated code', () => {
    expect(RENDERER_CSP).not.toMatch(/unsafe-inline|unsafe-eval|unsafe-hashes|wasm-unsafe-eval|\*/);
  });

  it('is sent as a header with the other security headers', () => {
    expect(RENDERER_SECURITY_HEADERS['Content-Security-Policy']).toBe(RENDERER_CSP);
    expect(RENDERER_SECURITY_HEADERS['X-Content-Type-Options']).toBe('nosniff');
  });
});

class FakeContents extends EventEmitter implements GuardedContents {
  windowOpenHandler: ((details: { url: string }) => { action: 'deny' }) | null = null;
  setWindowOpenHandler(handler: (details: { url: string }) => { action: 'deny' }) {
    this.windowOpenHandler = handler;
  }
  /** Emits a navigation-style event and says whether a listener prevented it. */
  attempt(event: 'will-navigate' | 'will-redirect' | 'will-attach-webview', url: string): boolean {
    let prevented = false;
    this.emit(event, { url, preventDefault: () => (prevented = true) });
    return prevented;
  }
}

describe('navigation and window-open guards', () => {
  function guarded() {
    const contents = new FakeContents();
    const opened: string[] = [];
    guardNavigation(contents, APP_ORIGIN, (url) => opened.push(url));
    return { contents, opened };
  }

  const targets = [
    'https://example.com/docs',
    'http://example.com/',
    `${APP_ORIGIN}/other.html`,
    'file:///etc/passwd',
    'javascript:alert(1)',
    'app://evil/index.html',
    'data:text/html,<script>alert(1)</script>',
  ];

  for (const url of targets) {
    it(`refuses navigating the window to ${url}`, () => {
      const { contents } = guarded();
      expect(contents.attempt('will-navigate', url)).toBe(true);
      expect(contents.attempt('will-redirect', url)).toBe(true);
    });

    it(`denies window.open(${url})`, () => {
      const { contents } = guarded();
      expect(contents.windowOpenHandler!({ url })).toEqual({ action: 'deny' });
    });
  }

  it('sends http and https links to the system browser, and nothing else', () => {
    const { contents, opened } = guarded();
    for (const url of targets) contents.windowOpenHandler!({ url });
    contents.attempt('will-navigate', 'https://example.com/from-a-link');
    contents.attempt('will-navigate', `${APP_ORIGIN}/index.html`);
    expect(opened).toEqual([
      'https://example.com/docs',
      'http://example.com/',
      'https://example.com/from-a-link',
    ]);
  });

  it('refuses webviews', () => {
    expect(guarded().contents.attempt('will-attach-webview', 'https://example.com')).toBe(true);
  });

  it('treats only http and https as external web links', () => {
    expect(['https://a.b', 'http://a.b'].every(isExternalWebUrl)).toBe(true);
    expect(
      ['file:///x', 'javascript:x', 'app://lemming/', 'mailto:a@b.c', 'not a url', 'smb://host/share'].some(
        isExternalWebUrl,
      ),
    ).toBe(false);
  });
});

describe('permission requests', () => {
  it('denies every permission request and check', () => {
    let requestHandler: Parameters<PermissionSession['setPermissionRequestHandler']>[0] | undefined;
    let checkHandler: Parameters<PermissionSession['setPermissionCheckHandler']>[0] | undefined;
    denyAllPermissions({
      setPermissionRequestHandler: (handler) => (requestHandler = handler),
      setPermissionCheckHandler: (handler) => (checkHandler = handler),
    });
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
      'fullscreen',
    ]) {
      let granted: boolean | undefined;
      requestHandler!({}, permission, (answer) => (granted = answer));
      expect(granted, permission).toBe(false);
      expect(checkHandler!({}, permission), permission).toBe(false);
    }
  });
});
