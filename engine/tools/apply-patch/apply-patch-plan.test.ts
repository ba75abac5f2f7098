import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { applyPatchPlan } from './apply-patch-plan';
import { diskPatchFilesystem } from './disk-patch-filesystem';
import { parsePatch } from './parse-patch';
import type { PatchFilesystem } from './patch-filesystem';
import { planPatch, type PatchPlan } from './plan-patch';
import { resolvePatchPaths } from './resolve-patch-paths';
import { hex, makeTree, modeOf, removeTree, snapshotTree } from './test-support/temp-tree';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await removeTree(root);
});

const tree = async (files: Record<string, string>) => {
  const root = await makeTree(files);
  roots.push(root);
  return root;
};

async function planOn(root: string, ...body: string[]): Promise<PatchPlan> {
  const parsed = parsePatch(['*** Begin Patch', ...body, '*** End Patch'].join('\n'));
  if (!parsed.ok) throw new Error(parsed.error);
  const resolved = await resolvePatchPaths(parsed.value, (raw) => ({ ok: true, value: join(root, raw) }));
  if (!resolved.ok) throw new Error(resolved.error);
  const planned = await planPatch(resolved.value, diskPatchFilesystem().readText);
  if (!planned.ok) throw new Error(planned.error);
  return planned.value;
}

type Call = { method: keyof PatchFilesystem; path: string };

/** The disk filesystem, recording each call and failing those `fails` picks (readText never fails). */
function instrumented(fails: (call: Call, index: number) => boolean = () => false) {
  const disk = diskPatchFilesystem();
  const calls: Call[] = [];
  const wrap =
    <A extends unknown[], R>(method: keyof PatchFilesystem, run: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const call = { method, path: String(args[0]) };
      calls.push(call);
      if (fails(call, calls.length - 1)) {
        throw Object.assign(new Error(`EIO: i/o error, ${method} '${call.path}'`), { code: 'EIO' });
      }
      return run(...args);
    };
  const fs: PatchFilesystem = {
    readText: disk.readText,
    exists: wrap('exists', disk.exists),
    createDirectory: wrap('createDirectory', disk.createDirectory),
    removeDirectory: wrap('removeDirectory', disk.removeDirectory),
    writeNewFile: wrap('writeNewFile', disk.writeNewFile),
    copyFile: wrap('copyFile', disk.copyFile),
    rename: wrap('rename', disk.rename),
    removeFile: wrap('removeFile', disk.removeFile),
  };
  return { fs, calls };
}

/** Touches every kind of step: an overwrite, a delete, new folders, a Move onto an existing file. */
const FILES = {
  'a.txt': 'alpha\r\nbeta\r\n',
  'doomed.txt': 'bye\n',
  'src/old.txt': 'moving\n',
  'dest.txt': 'overwritten by the move\n',
};
const PATCH = [
  '*** Update File: a.txt',
  '@@',
  '-beta',
  '+BETA',
  '*** Delete File: doomed.txt',
  '*** Add File: deep/new/n.txt',
  '+new',
  '*** Update File: src/old.txt',
  '*** Move to: dest.txt',
  '@@',
  '-moving',
  '+moved',
];

describe('applyPatchPlan', () => {
  it('applies every change and leaves no temp or backup file behind', async () => {
    const root = await tree(FILES);
    const outcome = await applyPatchPlan(await planOn(root, ...PATCH), diskPatchFilesystem());
    expect(outcome).toEqual({ ok: true, value: [] });
    expect(await snapshotTree(root)).toEqual({
      'a.txt': hex('alpha\r\nBETA\r\n'),
      'deep/': 'folder',
      'deep/new/': 'folder',
      'deep/new/n.txt': hex('new\n'),
      'dest.txt': hex('moved\n'),
      'src/': 'folder',
    });
  });

  it('changes no byte on disk when any single step fails, whichever step it is', async () => {
    const successful = instrumented();
    expect(await applyPatchPlan(await planOn(await tree(FILES), ...PATCH), successful.fs)).toMatchObject({
      ok: true,
    });
    const steps = successful.calls;
    expect(steps.length).toBeGreaterThan(15);

    for (const [index, failing] of steps.entries()) {
      const root = await tree(FILES);
      const before = await snapshotTree(root);
      const plan = await planOn(root, ...PATCH);
      const outcome = await applyPatchPlan(plan, instrumented((_call, at) => at === index).fs);
      const isFinalCleanup = failing.method === 'removeFile';
      if (isFinalCleanup) {
        expect(outcome, `step ${index} (${failing.method})`).toEqual({
          ok: true,
          value: [expect.any(String)],
        });
        continue;
      }
      expect(outcome, `step ${index} (${failing.method})`).toMatchObject({
        ok: false,
        error: expect.stringMatching(/: EIO: i\/o error; no file was changed$/),
      });
      expect(await snapshotTree(root), `step ${index} (${failing.method} ${failing.path})`).toEqual(before);
    }
  });

  it('names the failing step and the file in the error', async () => {
    const root = await tree(FILES);
    const outcome = await applyPatchPlan(
      await planOn(root, ...PATCH),
      instrumented((call) => call.method === 'writeNewFile' && call.path.includes('n.txt')).fs,
    );
    expect(outcome).toEqual({
      ok: false,
      error: 'Failed to write file deep/new/n.txt: EIO: i/o error; no file was changed',
    });
  });

  it('says where the old content is kept when rolling back fails too', async () => {
    const root = await tree(FILES);
    let commits = 0;
    const outcome = await applyPatchPlan(
      await planOn(root, ...PATCH),
      instrumented((call) => {
        if (call.method === 'rename' && call.path.endsWith('.patch-tmp')) commits += 1;
        const failsSecondCommit =
          call.method === 'rename' && call.path.endsWith('.patch-tmp') && commits === 2;
        const failsRestore = call.method === 'rename' && call.path.endsWith('.patch-bak');
        return failsSecondCommit || failsRestore;
      }).fs,
    );
    expect(outcome.ok).toBe(false);
    const error = outcome.ok ? '' : outcome.error;
    expect(error).toMatch(
      /^Failed to write file deep\/new\/n\.txt: EIO: i\/o error; rolling back failed too: /,
    );
    const kept = /could not restore a\.txt \(EIO: i\/o error\); its previous content is in (\S+)/.exec(
      error,
    )?.[1];
    expect(kept).toMatch(/^\.a\.txt\..*\.patch-bak$/);
    expect(await readFile(join(root, kept ?? ''), 'utf8')).toBe('alpha\r\nbeta\r\n');
  });

  it('refuses to write when a file changed after the patch was checked', async () => {
    const root = await tree(FILES);
    const plan = await planOn(root, ...PATCH);
    await writeFile(join(root, 'a.txt'), 'someone else wrote this\n');
    const before = await snapshotTree(root);
    expect(await applyPatchPlan(plan, diskPatchFilesystem())).toEqual({
      ok: false,
      error: 'a.txt changed after the patch was checked; no file was changed',
    });
    expect(await snapshotTree(root)).toEqual(before);
  });

  it.skipIf(process.platform === 'win32')('keeps the permission bits of a file it replaces', async () => {
    const root = await tree({ 'run.sh': '#!/bin/sh\necho old\n' });
    await chmod(join(root, 'run.sh'), 0o755);
    const plan = await planOn(root, '*** Update File: run.sh', '@@', '-echo old', '+echo new');
    expect(await applyPatchPlan(plan, diskPatchFilesystem())).toEqual({ ok: true, value: [] });
    expect(await modeOf(join(root, 'run.sh'))).toBe(0o755);
    expect(await readFile(join(root, 'run.sh'), 'utf8')).toBe('#!/bin/sh\necho new\n');
  });
});
