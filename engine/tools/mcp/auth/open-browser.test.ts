import { describe, expect, it } from 'vitest';
import { browserCommand, openInBrowser } from './open-browser';

const PAGE = 'https://auth.example.test/authorize?state=abc&scope=a%20b';

describe('the browser a sign-in page opens in', () => {
  it('is the program BROWSER names, with the page added at the end or where %s stands', () => {
    expect(browserCommand(PAGE, { BROWSER: 'firefox --new-window' })).toEqual({
      command: 'firefox',
      args: ['--new-window', PAGE],
    });
    expect(browserCommand(PAGE, { BROWSER: 'open-in %s --now' })).toEqual({
      command: 'open-in',
      args: [PAGE, '--now'],
    });
  });

  it("is the system's own without BROWSER: open on macOS, the URL handler on Windows, xdg-open elsewhere", () => {
    expect(browserCommand(PAGE, {}, 'darwin')).toEqual({ command: 'open', args: [PAGE] });
    expect(browserCommand(PAGE, {}, 'win32')).toEqual({
      command: 'rundll32',
      args: ['url.dll,FileProtocolHandler', PAGE],
    });
    expect(browserCommand(PAGE, { BROWSER: '  ' }, 'linux')).toEqual({ command: 'xdg-open', args: [PAGE] });
  });

  it('opens only web pages, and says so when the program cannot be started', async () => {
    await expect(openInBrowser(new URL('file:///etc/passwd'), {})).rejects.toThrow(
      'only web pages are opened',
    );
    await expect(openInBrowser(new URL('javascript:alert(1)'), {})).rejects.toThrow(
      'only web pages are opened',
    );
    await expect(
      openInBrowser(new URL(PAGE), { BROWSER: '/no/such/browser', PATH: process.env.PATH ?? '' }),
    ).rejects.toThrow('the browser could not be opened (/no/such/browser');
  });
});
