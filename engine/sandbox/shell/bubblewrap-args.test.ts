import { describe, expect, it } from 'vitest';
import { bubblewrapArgs, bubblewrapPlaces, SANDBOX_TMP_BYTES } from './bubblewrap-args';
import type { BubblewrapConfinement } from './confinement';

const confinement: BubblewrapConfinement = {
  kind: 'bubblewrap',
  bwrapPath: '/usr/bin/bwrap',
  hardened: true,
  bindsOpenPlaces: true,
  systemRoots: [
    { kind: 'link', path: '/bin', target: 'usr/bin' },
    { kind: 'directory', path: '/lib64' },
  ],
};
const request = {
  confinement,
  mounts: [
    { source: '/tmp/org/shared', target: '/tmp/org/shared', writable: false, device: '2049', inode: '11' },
    {
      source: '/tmp/org/agents/a/workspace',
      target: '/tmp/org/agents/a/workspace',
      writable: true,
      device: '2049',
      inode: '12',
    },
  ],
  workingDirectory: '/tmp/org/agents/a/workspace',
  env: { PATH: '/usr/bin:/bin', HOME: '/tmp/org/agents/a/workspace' },
  command: 'echo "$HOME" --clearenv; ls',
};

/** The arguments as option groups, so order and values can be read together. */
function groups(args: string[]): string[] {
  return args.join(' ').split(/ (?=--)/);
}

describe('bubblewrapArgs', () => {
  it('runs the command, untouched, as the last argument of /bin/sh -c', () => {
    expect(bubblewrapArgs(request).slice(-3)).toEqual(['/bin/sh', '-c', request.command]);
  });

  it('clears the environment and sets only the given variables', () => {
    const args = bubblewrapArgs(request);
    expect(args.slice(args.indexOf('--clearenv') + 1)).toEqual([
      '--setenv',
      'PATH',
      '/usr/bin:/bin',
      '--setenv',
      'HOME',
      '/tmp/org/agents/a/workspace',
      '/bin/sh',
      '-c',
      request.command,
    ]);
  });

  it('unshares every namespace, drops capabilities and dies with the app', () => {
    const args = bubblewrapArgs(request);
    for (const option of ['--unshare-all', '--die-with-parent', '--new-session'])
      expect(args).toContain(option);
    expect(groups(args)).toContain('--cap-drop ALL');
  });

  it('mirrors the system folders read-only, links as links', () => {
    const args = groups(bubblewrapArgs(request));
    expect(args).toContain('--ro-bind /usr /usr');
    expect(args).toContain('--symlink usr/bin /bin');
    expect(args).toContain('--ro-bind /lib64 /lib64');
    expect(args).not.toContain('--ro-bind-try /etc/hostname /etc/hostname');
  });

  it('mounts the private /tmp before the granted folders, so a workspace under /tmp stays visible, and the root read-only last', () => {
    const args = groups(bubblewrapArgs(request));
    const tmp = args.indexOf('--tmpfs /tmp');
    const shared = args.indexOf('--ro-bind-fd 3 /tmp/org/shared');
    const workspace = args.indexOf('--bind-fd 4 /tmp/org/agents/a/workspace');
    const readOnlyRoot = args.indexOf('--remount-ro /');
    expect(tmp).toBeGreaterThan(-1);
    expect([tmp < shared, shared < workspace, workspace < readOnlyRoot]).toEqual([true, true, true]);
    expect(args).toContain('--chdir /tmp/org/agents/a/workspace');
  });

  it('adds the hardened options only when this bwrap has them', () => {
    expect(groups(bubblewrapArgs(request))).toEqual(
      expect.arrayContaining(['--unshare-user', '--disable-userns', `--size ${SANDBOX_TMP_BYTES}`]),
    );
    const plain = bubblewrapArgs({ ...request, confinement: { ...confinement, hardened: false } });
    for (const option of ['--unshare-user', '--disable-userns', '--size'])
      expect(plain).not.toContain(option);
  });

  it('mounts each granted folder from the descriptor the starter opens for it, in order, not by its path', () => {
    expect(bubblewrapPlaces(confinement, request.mounts)).toEqual([
      { path: '/tmp/org/shared', device: '2049', inode: '11' },
      { path: '/tmp/org/agents/a/workspace', device: '2049', inode: '12' },
    ]);
    const args = bubblewrapArgs(request);
    expect(
      groups(args).filter((group) => group.startsWith('--bind') || group.startsWith('--ro-bind-')),
    ).toEqual([
      '--ro-bind-try /etc/alternatives /etc/alternatives',
      '--ro-bind-try /etc/ld.so.cache /etc/ld.so.cache',
      '--ro-bind-try /etc/ld.so.conf /etc/ld.so.conf',
      '--ro-bind-try /etc/ld.so.conf.d /etc/ld.so.conf.d',
      '--ro-bind-try /etc/localtime /etc/localtime',
      '--ro-bind-fd 3 /tmp/org/shared',
      '--bind-fd 4 /tmp/org/agents/a/workspace',
    ]);
  });

  it('mounts granted folders by path where bwrap is older than 0.8, with nothing for the starter to open', () => {
    const older = { ...confinement, hardened: false, bindsOpenPlaces: false };
    expect(bubblewrapPlaces(older, request.mounts)).toEqual([]);
    const args = groups(bubblewrapArgs({ ...request, confinement: older }));
    expect(args).toContain('--ro-bind-try /tmp/org/shared /tmp/org/shared');
    expect(args).toContain('--bind-try /tmp/org/agents/a/workspace /tmp/org/agents/a/workspace');
  });
});
