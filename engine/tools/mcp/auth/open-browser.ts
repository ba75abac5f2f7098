import { spawn } from 'node:child_process';

/**
 * The program that opens a web page in the person's browser: the one the `BROWSER` environment
 * variable names (a command line; `%s` stands for the page, else the page is added at the end), or
 * the system's own (`open` on macOS, `rundll32`'s URL handler on Windows, `xdg-open` elsewhere).
 * No shell runs it, so nothing in the address is read as a command.
 */
export function browserCommand(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): { command: string; args: string[] } {
  const named = env.BROWSER?.trim();
  if (named) {
    const words = named.split(/\s+/);
    const withPage = words.some((word) => word.includes('%s'))
      ? words.map((word) => word.replaceAll('%s', url))
      : [...words, url];
    return { command: withPage[0]!, args: withPage.slice(1) };
  }
  if (platform === 'darwin') return { command: 'open', args: [url] };
  if (platform === 'win32') return { command: 'rundll32', args: ['url.dll,FileProtocolHandler', url] };
  return { command: 'xdg-open', args: [url] };
}

/** Opens `url` in the person's browser (see `browserCommand`); fails when the program cannot be started. */
export function openInBrowser(url: URL, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return Promise.reject(new Error(`only web pages are opened, not ${url.protocol} addresses`));
  const { command, args } = browserCommand(url.href, env);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, env });
    child.once('error', (error) =>
      reject(new Error(`the browser could not be opened (${command}: ${error.message})`)),
    );
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}
