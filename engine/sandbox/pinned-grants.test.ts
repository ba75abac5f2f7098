import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentSandbox } from './agent-sandbox';
import type { FileAccess } from './access-policy';
import { DiskAgentFilesystem } from './disk-agent-filesystem';
import { previewAccessPath } from './preview-access-path';
import type { Confinement } from './shell/confinement';
import { detectConfinement } from './shell/detect-confinement';
import { runShellCommand } from './shell/run-shell-command';
import { shellPlaces } from './shell/shell-places';

const SIBLING_SECRET = 'sibling-workspace-secret-4b1e';
const detected = await detectConfinement();

/**
 * Agent m (shell, default grants) repoints shared/out at the org; agent v, granted only shared/out,
 * must not gain the org through it (issue 10, escape 2).
 */
describe('a grant is pinned to the folder it names', () => {
  let root: string;
  let org: string;
  const sandboxOf = (folder: string, fileAccess?: FileAccess) =>
    new AgentSandbox({
      orgPath: org,
      agentDir: join(org, 'agents', folder),
      fileAccess,
      fs: new DiskAgentFilesystem(),
    });
  const viewer = () =>
    sandboxOf('v', { allow_read: ['shared/out', 'agents/v/workspace'], allow_write: ['agents/v/workspace'] });

  beforeEach(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'lemming-pinned-')));
    org = join(root, 'org');
    for (const folder of ['m', 'v', 'y'])
      await mkdir(join(org, 'agents', folder, 'workspace'), { recursive: true });
    await mkdir(join(org, 'shared', 'out'), { recursive: true });
    await writeFile(join(org, 'shared', 'out', 'report.md'), 'report\n');
    await writeFile(join(org, 'agents', 'y', 'workspace', 'secret.txt'), SIBLING_SECRET);
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  async function repointAsM(): Promise<void> {
    if (detected.kind === 'bubblewrap') {
      const places = await shellPlaces(sandboxOf('m'));
      if (!places.ok) throw new Error(places.error);
      const result = await runShellCommand({
        command: 'cd ../../../shared && rm -rf out && ln -s .. out',
        confinement: detected,
        places: places.value,
        timeoutMs: 20_000,
        maxOutputBytes: 4096,
        stopAfterBytes: 65_536,
      });
      if (!result.ok || result.value.exitCode !== 0) throw new Error(JSON.stringify(result));
    } else {
      await rm(join(org, 'shared', 'out'), { recursive: true });
      await symlink('..', join(org, 'shared', 'out'));
    }
  }

  it('reads the folder it names before anything changes', async () => {
    expect(await viewer().read('shared/out/report.md')).toMatchObject({
      ok: true,
      value: { content: 'report\n' },
    });
  });

  it('is refused, for reading and listing, once another agent has made it a link to the org', async () => {
    await repointAsM();
    const v = viewer();
    for (const attempt of [
      v.read('shared/out/agents/y/workspace/secret.txt'),
      v.list('shared/out'),
      v.list('shared/out/agents'),
      v.read('shared/out/shared/out/agents/y/workspace/secret.txt'),
    ]) {
      const result = await attempt;
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result)).not.toContain(SIBLING_SECRET);
    }
    const [grant] = await v.policy.resolveGrants('read');
    expect(grant).toMatchObject({
      ok: false,
      error: { reason: expect.stringContaining("'shared/out' is a symbolic link") },
    });
  });

  it('is refused for writing through a link too', async () => {
    await repointAsM();
    const writer = sandboxOf('v', {
      allow_read: ['agents/v/workspace'],
      allow_write: ['shared/out', 'agents/v/workspace'],
    });
    const result = await writer.write('shared/out/agents/y/workspace/planted.txt', 'x');
    expect(result.ok).toBe(false);
  });

  it.runIf(detected.kind === 'bubblewrap')("does not give the other agent's shell the org", async () => {
    await repointAsM();
    const places = await shellPlaces(viewer());
    if (!places.ok) throw new Error(places.error);
    expect(places.value.mounts.map((mount) => mount.source)).not.toContain(org);
    const result = await runShellCommand({
      command: `cat ${join(org, 'shared', 'out', 'agents', 'y', 'workspace', 'secret.txt')}; ls ${join(org, 'shared', 'out')}/`,
      confinement: detected as Confinement,
      places: places.value,
      timeoutMs: 20_000,
      maxOutputBytes: 4096,
      stopAfterBytes: 65_536,
    });
    expect(JSON.stringify(result)).not.toContain(SIBLING_SECRET);
    expect(result.ok && result.value.stdout.text).toBe('');
  });

  it('is shown as a link, not as where it leads, in the path editor', async () => {
    await repointAsM();
    expect(await previewAccessPath(org, 'shared/out')).toMatchObject({
      ok: false,
      error: expect.stringContaining('is a symbolic link'),
    });
  });

  it('still follows a link the user made for the whole shared folder', async () => {
    const drive = join(root, 'team-drive');
    await mkdir(join(drive, 'out'), { recursive: true });
    await writeFile(join(drive, 'out', 'plan.md'), 'plan\n');
    await rm(join(org, 'shared'), { recursive: true });
    await symlink(drive, join(org, 'shared'));
    expect(await viewer().read('shared/out/plan.md')).toMatchObject({
      ok: true,
      value: { content: 'plan\n' },
    });
  });
});
