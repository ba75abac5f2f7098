import { existsSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Confinement } from './confinement';
import { BWRAP_LOCATIONS, detectConfinement } from './detect-confinement';

const here = process.platform === 'linux' ? await detectConfinement() : null;
const realBwrap = here?.kind === 'bubblewrap' ? here.bwrapPath : '';

describe('detectConfinement', () => {
  it('reports unconfined, with the reason, when bwrap is not where it is looked for', async () => {
    expect(await detectConfinement({ platform: 'linux', bwrapPath: '/nonexistent/bin/bwrap' })).toEqual({
      kind: 'none',
      reason: 'bubblewrap (bwrap) was not found at /nonexistent/bin/bwrap',
    });
  });

  it('reports unconfined when a bwrap is installed but cannot make a sandbox', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'lemming-fake-bwrap-'));
    try {
      const fake = join(folder, 'bwrap');
      await writeFile(fake, '#!/bin/sh\necho "bwrap: No permissions to create new namespace" >&2\nexit 1\n');
      await chmod(fake, 0o755);
      expect(await detectConfinement({ platform: 'linux', bwrapPath: fake })).toEqual({
        kind: 'none',
        reason: `bubblewrap is installed at ${fake} but cannot make a sandbox here (bwrap: No permissions to create new namespace)`,
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('reports unconfined, without throwing, when its test folder cannot be made', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'lemming-fake-bwrap-'));
    const savedTmpdir = process.env.TMPDIR;
    try {
      const fake = join(folder, 'bwrap');
      await writeFile(fake, '#!/bin/sh\nexit 0\n');
      await chmod(fake, 0o755);
      // A file where the temp folder should be: the probe's folder cannot be made in it.
      const notAFolder = join(folder, 'tmp');
      await writeFile(notAFolder, '');
      process.env.TMPDIR = notAFolder;
      const found = await detectConfinement({ platform: 'linux', bwrapPath: fake });
      expect(found.kind).toBe('none');
      expect(found.kind === 'none' && found.reason).toMatch(
        new RegExp(
          `^bubblewrap is installed at ${fake} but cannot make a sandbox here \\(could not make a folder to test it in: ENOTDIR`,
        ),
      );
    } finally {
      if (savedTmpdir === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmpdir;
      await rm(folder, { recursive: true, force: true });
    }
  });

  it('reports unconfined on a system with no supported sandbox', async () => {
    expect(await detectConfinement({ platform: 'win32' })).toEqual({
      kind: 'none',
      reason: 'no command sandbox is supported on win32',
    });
  });

  it('reports unconfined on macOS when sandbox-exec is missing', async () => {
    expect(
      await detectConfinement({ platform: 'darwin', sandboxExecPath: '/nonexistent/sandbox-exec' }),
    ).toEqual({
      kind: 'none',
      reason: 'sandbox-exec was not found at /nonexistent/sandbox-exec',
    });
  });

  it('detects once and keeps the answer', async () => {
    const options = { platform: 'linux' as const, bwrapPath: '/nonexistent/again/bwrap' };
    expect(detectConfinement(options)).toBe(detectConfinement(options));
  });

  const installed = BWRAP_LOCATIONS.find((path) => existsSync(path));
  it.runIf(here?.kind === 'bubblewrap')(
    'binds open folders where bwrap can, and keeps an older bwrap (no --bind-fd, no hardened options) binding by path',
    async () => {
      expect(here).toMatchObject({ kind: 'bubblewrap', bindsOpenPlaces: true });
      const folder = await mkdtemp(join(tmpdir(), 'lemming-old-bwrap-'));
      try {
        const older = join(folder, 'bwrap');
        await writeFile(
          older,
          `#!/bin/sh\nfor arg; do case "$arg" in --bind-fd|--ro-bind-fd|--disable-userns|--size) echo "bwrap: Unknown option $arg" >&2; exit 1;; esac; done\nexec ${realBwrap} "$@"\n`,
        );
        await chmod(older, 0o755);
        expect(await detectConfinement({ platform: 'linux', bwrapPath: older })).toMatchObject({
          kind: 'bubblewrap',
          bwrapPath: older,
          hardened: false,
          bindsOpenPlaces: false,
        });
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    },
  );

  it.runIf(process.platform === 'linux' && installed !== undefined)(
    'finds the installed bubblewrap, or says exactly why it cannot run',
    async () => {
      const confinement = Confinement.parse(await detectConfinement());
      if (confinement.kind === 'none')
        expect(confinement.reason).toContain(`bubblewrap is installed at ${installed}`);
      else expect(confinement).toMatchObject({ kind: 'bubblewrap', bwrapPath: installed });
    },
  );
});
