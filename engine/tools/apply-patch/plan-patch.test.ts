import { describe, expect, it } from 'vitest';
import { parsePatch } from './parse-patch';
import type { TextRead } from './patch-filesystem';
import { planPatch } from './plan-patch';
import { resolvePatchPaths } from './resolve-patch-paths';

/** Plans a patch (written as lines) against files held in a record keyed by resolved path. */
async function plan(files: Record<string, string | { binary: true }>, ...body: string[]) {
  const parsed = parsePatch(['*** Begin Patch', ...body, '*** End Patch'].join('\n'));
  if (!parsed.ok) throw new Error(parsed.error);
  const resolved = await resolvePatchPaths(parsed.value, (raw) => ({ ok: true, value: `/org/${raw}` }));
  if (!resolved.ok) throw new Error(resolved.error);
  const reads: string[] = [];
  const read = async (path: string): Promise<TextRead> => {
    reads.push(path);
    const file = files[path];
    if (file === undefined) return { kind: 'missing' };
    return typeof file === 'string' ? { kind: 'text', text: file } : { kind: 'binary' };
  };
  return { outcome: await planPatch(resolved.value, read), reads };
}

const file = (shown: string) => ({ shown, path: `/org/${shown}` });

describe('planPatch', () => {
  it('computes every change and codex’s A/M/D summary without writing', async () => {
    const { outcome } = await plan(
      { '/org/old.txt': 'bye\n', '/org/m.txt': 'a\n' },
      '*** Delete File: old.txt',
      '*** Update File: m.txt',
      '@@',
      '-a',
      '+b',
      '*** Add File: new.txt',
      '+hi',
    );
    expect(outcome).toEqual({
      ok: true,
      value: {
        changes: [
          { kind: 'delete', file: file('old.txt'), expected: { kind: 'text', text: 'bye\n' } },
          { kind: 'write', file: file('m.txt'), text: 'b\n', expected: { kind: 'text', text: 'a\n' } },
          { kind: 'write', file: file('new.txt'), text: 'hi\n', expected: { kind: 'unchecked' } },
        ],
        summary: { added: ['new.txt'], modified: ['m.txt'], deleted: ['old.txt'] },
        rungs: ['exact'],
      },
    });
  });

  it('overwrites an existing file on Add, as codex does (scenario 011)', async () => {
    const { outcome, reads } = await plan({ '/org/dup.txt': 'old\n' }, '*** Add File: dup.txt', '+new');
    expect(outcome.ok && outcome.value.changes).toEqual([
      { kind: 'write', file: file('dup.txt'), text: 'new\n', expected: { kind: 'unchecked' } },
    ]);
    expect(reads).toEqual([]);
  });

  it('refuses to delete a missing file, with codex’s text', async () => {
    const { outcome } = await plan({}, '*** Delete File: ghost.txt');
    expect(outcome).toEqual({
      ok: false,
      error: 'Failed to read ghost.txt: No such file or directory (os error 2)',
    });
  });

  it('refuses to update a missing file, with codex’s text', async () => {
    const { outcome } = await plan({}, '*** Update File: ghost.txt', '@@', '-a', '+b');
    expect(outcome).toEqual({
      ok: false,
      error: 'Failed to read file to update ghost.txt: No such file or directory (os error 2)',
    });
  });

  it('deletes a binary file but refuses to update one', async () => {
    const files = { '/org/img.png': { binary: true as const } };
    const deleted = await plan(files, '*** Delete File: img.png');
    expect(deleted.outcome.ok && deleted.outcome.value.changes).toEqual([
      { kind: 'delete', file: file('img.png'), expected: { kind: 'unchecked' } },
    ]);
    const updated = await plan(files, '*** Update File: img.png', '@@', '-a', '+b');
    expect(updated.outcome).toEqual({
      ok: false,
      error: 'Failed to read file to update img.png: the file is not UTF-8 text',
    });
  });

  it('moves onto an existing file by overwriting it, as codex does (scenario 010)', async () => {
    const { outcome, reads } = await plan(
      { '/org/old/name.txt': 'from\n', '/org/renamed/dir/name.txt': 'existing\n' },
      '*** Update File: old/name.txt',
      '*** Move to: renamed/dir/name.txt',
      '@@',
      '-from',
      '+new',
    );
    expect(outcome.ok && outcome.value).toMatchObject({
      changes: [
        { kind: 'delete', file: file('old/name.txt'), expected: { kind: 'text', text: 'from\n' } },
        { kind: 'write', file: file('renamed/dir/name.txt'), text: 'new\n', expected: { kind: 'unchecked' } },
      ],
      summary: { added: [], modified: ['renamed/dir/name.txt'], deleted: [] },
    });
    expect(reads).toEqual(['/org/old/name.txt']);
  });

  it('treats a Move onto the same file as an Update (codex would delete the file)', async () => {
    const { outcome } = await plan(
      { '/org/a.txt': 'x\n' },
      '*** Update File: a.txt',
      '*** Move to: a.txt',
      '@@',
      '-x',
      '+y',
    );
    expect(outcome.ok && outcome.value.changes).toEqual([
      { kind: 'write', file: file('a.txt'), text: 'y\n', expected: { kind: 'text', text: 'x\n' } },
    ]);
  });

  it('lets later hunks see earlier ones: a file updated twice, a file added then updated', async () => {
    const { outcome, reads } = await plan(
      { '/org/a.txt': '1\n2\n' },
      '*** Update File: a.txt',
      '@@',
      '-1',
      '+one',
      '*** Update File: a.txt',
      '@@',
      '-2',
      '+two',
      '*** Add File: b.txt',
      '+draft',
      '*** Update File: b.txt',
      '@@',
      '-draft',
      '+final',
    );
    expect(outcome.ok && outcome.value.changes).toEqual([
      { kind: 'write', file: file('a.txt'), text: 'one\ntwo\n', expected: { kind: 'text', text: '1\n2\n' } },
      { kind: 'write', file: file('b.txt'), text: 'final\n', expected: { kind: 'unchecked' } },
    ]);
    expect(outcome.ok && outcome.value.summary).toEqual({
      added: ['b.txt'],
      modified: ['a.txt', 'b.txt'],
      deleted: [],
    });
    expect(reads).toEqual(['/org/a.txt']);
  });

  it('refuses to update a file an earlier hunk deleted', async () => {
    const { outcome } = await plan(
      { '/org/a.txt': 'x\n' },
      '*** Delete File: a.txt',
      '*** Update File: a.txt',
      '@@',
      '-x',
      '+y',
    );
    expect(outcome).toEqual({
      ok: false,
      error: 'Failed to read file to update a.txt: No such file or directory (os error 2)',
    });
  });

  it('plans nothing for an update that changes nothing, yet lists it as codex does', async () => {
    const { outcome } = await plan({ '/org/a.txt': 'x\n' }, '*** Update File: a.txt', '@@', ' x');
    expect(outcome.ok && outcome.value).toMatchObject({ changes: [], summary: { modified: ['a.txt'] } });
  });
});
