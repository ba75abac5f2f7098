/**
 * The whole environment a shell command gets: a fixed, minimal set that is built here and never copied
 * from the app's own environment, so no API key or other secret of the app can reach a command.
 */
export function shellEnvironment(
  home: string,
  platform: NodeJS.Platform = process.platform,
): Record<string, string> {
  return {
    PATH:
      platform === 'darwin'
        ? '/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin'
        : '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    HOME: home,
    PWD: home,
    LANG: platform === 'darwin' ? 'en_US.UTF-8' : 'C.UTF-8',
    TERM: 'dumb',
    SHELL: '/bin/sh',
    TMPDIR: '/tmp',
  };
}
