import { existsSync, lstatSync } from 'node:fs';
import { mkdir, rm, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { shellPlaces } from './shell-places';
import { createShellOrg, type ShellOrg } from './test-support/shell-org';

/** The identity shellPlaces gives a mount, which the program starter checks again when it opens it. */
function checked(path: string, writable: boolean) {
  const { dev, ino } = lstatSync(path, { bigint: true });
  return { source: path, target: path, writable, device: String(dev), inode: String(ino) };
}

describe('shellPlaces', () => {
  let org: ShellOrg;
  beforeEach(async () => {
    org = await createShellOrg();
  });
  afterEach(() => org.dispose());

  it('by default offers the workspace and shared/, both writable, each with the identity it was checked by, and runs in the workspace', async () => {
    expect(await shellPlaces(org.sandbox())).toEqual({
      ok: true,
      value: {
        workingDirectory: org.workspace,
        mounts: [checked(org.shared, true), checked(org.workspace, true)],
      },
    });
  });

  it('creates a missing workspace', async () => {
    await rm(org.workspace, { recursive: true });
    const places = await shellPlaces(org.sandbox());
    expect(places.ok).toBe(true);
    expect(existsSync(org.workspace)).toBe(true);
  });

  it('leaves out a granted folder that does not exist', async () => {
    await rm(org.shared, { recursive: true });
    const places = await shellPlaces(org.sandbox());
    expect(places).toMatchObject({
      ok: true,
      value: { mounts: [{ source: org.workspace, writable: true }] },
    });
  });

  it('makes a folder the agent may only read read-only', async () => {
    const places = await shellPlaces(
      org.sandbox({ allow_read: ['agents/a/workspace', 'shared'], allow_write: ['agents/a/workspace'] }),
    );
    expect(places).toMatchObject({
      ok: true,
      value: {
        mounts: [
          { target: org.shared, writable: false },
          { target: org.workspace, writable: true },
        ],
      },
    });
  });

  it('lays a writable folder over the read-only folder around it', async () => {
    const places = await shellPlaces(
      org.sandbox({ allow_read: ['agents'], allow_write: ['agents/a/workspace'] }),
    );
    expect(places).toMatchObject({
      ok: true,
      value: {
        mounts: [
          { target: join(org.org, 'agents'), writable: false },
          { target: org.workspace, writable: true },
        ],
      },
    });
  });

  it('does not offer a folder the agent may write but not read', async () => {
    const places = await shellPlaces(
      org.sandbox({ allow_read: ['agents/a/workspace'], allow_write: ['agents/a/workspace', 'shared'] }),
    );
    expect(places).toMatchObject({
      ok: true,
      value: { mounts: [{ target: org.workspace, writable: true }] },
    });
  });

  it('refuses when the agent may not read its workspace, which is where commands run', async () => {
    expect(await shellPlaces(org.sandbox({ allow_read: ['shared'] }))).toEqual({
      ok: false,
      error: 'your resume does not let you read your workspace, and the shell runs in it',
    });
  });

  it('mounts a linked shared folder at the path the agent knows, from where the link leads', async () => {
    const elsewhere = join(org.org, 'team-drive');
    await rm(org.shared, { recursive: true });
    await mkdir(elsewhere);
    await symlink(elsewhere, org.shared);
    const places = await shellPlaces(org.sandbox());
    expect(places).toMatchObject({
      ok: true,
      value: {
        mounts: [{ source: elsewhere, target: org.shared, writable: true }, { target: org.workspace }],
      },
    });
  });

  it('lays the protected places read-only over a writable org, and the workspaces writable again', async () => {
    await mkdir(join(org.org, 'agents', 'b', 'workspace'), { recursive: true });
    await mkdir(join(org.org, 'lemming'));
    const places = await shellPlaces(org.sandbox({ allow_read: ['.'], allow_write: ['.'] }));
    const at = (...names: string[]) => join(org.org, ...names);
    expect(places).toEqual({
      ok: true,
      value: {
        workingDirectory: org.workspace,
        mounts: [
          checked(org.org, true),
          checked(at('.lemming'), false),
          checked(at('agents'), false),
          checked(at('lemming'), false),
          checked(at('tools'), false),
          checked(org.workspace, true),
          checked(at('agents', 'b', 'workspace'), true),
        ],
      },
    });
    expect(existsSync(at('tools'))).toBe(true);
  });

  it('keeps a grant inside a protected place read-only', async () => {
    await mkdir(join(org.org, 'lemming'));
    const places = await shellPlaces(
      org.sandbox({ allow_read: ['agents/a', 'lemming'], allow_write: ['agents/a', 'lemming'] }),
    );
    expect(places).toMatchObject({
      ok: true,
      value: {
        mounts: [
          { target: join(org.org, 'lemming'), writable: false },
          { target: org.agentDir, writable: false },
          { target: org.workspace, writable: true },
        ],
      },
    });
  });

  it('does not run with write access around a protected folder that is a link, which a command could replace', async () => {
    await mkdir(join(org.shared, 'tools'));
    await symlink(join(org.shared, 'tools'), join(org.org, 'tools'));
    const places = await shellPlaces(org.sandbox({ allow_read: ['.'], allow_write: ['.'] }));
    expect(places).toMatchObject({
      ok: false,
      error: expect.stringContaining('is a symbolic link or not a folder'),
    });
  });
});
