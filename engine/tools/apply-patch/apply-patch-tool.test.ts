import { mkdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, normalize, sep } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APPLY_PATCH_LARK_GRAMMAR } from './apply-patch-texts';
import { applyPatchTool, DEFAULT_MAX_PATCH_BYTES } from './apply-patch-tool';
import { diskPatchFilesystem } from './disk-patch-filesystem';
import type { PatchFilesystem } from './patch-filesystem';
import type { PatchPathResolver } from './resolve-patch-paths';
import { hex, makeTree, removeTree, snapshotTree } from './test-support/temp-tree';

const roots: string[] = [];
afterEach(async () => {
  for (const root of roots.splice(0)) await removeTree(root);
});

const tree = async (files: Record<string, string> = {}) => {
  const root = await makeTree(files);
  roots.push(root);
  return root;
};

/** A stand-in for the sandbox: relative paths inside `root` only. */
const insideRoot =
  (root: string): PatchPathResolver =>
  (raw) => {
    const path = normalize(join(root, raw));
    if (isAbsolute(raw) || !path.startsWith(root + sep)) return { ok: false, error: 'outside the workspace' };
    return { ok: true, value: path };
  };

/** The disk filesystem, recording every call made through it. */
function recorded(fs: PatchFilesystem) {
  const calls: string[] = [];
  const recording = Object.fromEntries(
    Object.entries(fs).map(([name, method]) => [
      name,
      (...args: unknown[]) => {
        calls.push(name);
        return (method as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as PatchFilesystem;
  return { fs: recording, calls };
}

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

async function run(
  root: string,
  input: unknown,
  context: Partial<Parameters<typeof applyPatchTool.run>[1]> = {},
) {
  return applyPatchTool.run(input, { resolvePath: insideRoot(root), fs: diskPatchFilesystem(), ...context });
}

describe('apply_patch tool: definitions', () => {
  it('is a freeform tool with codex’s Lark grammar, and a JSON tool with one required string "input"', () => {
    expect(applyPatchTool.name).toBe('apply_patch');
    expect(applyPatchTool.freeform).toEqual({
      name: 'apply_patch',
      description:
        'Use the `apply_patch` tool to edit files. This is a FREEFORM tool, so do not wrap the patch in JSON.',
      format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_LARK_GRAMMAR },
    });
    expect(APPLY_PATCH_LARK_GRAMMAR).toMatch(/^start: begin_patch hunk\+ end_patch\n/);
    expect(applyPatchTool.json.parameters).toEqual({
      type: 'object',
      properties: {
        input: { type: 'string', description: 'The entire contents of the apply_patch command' },
      },
      required: ['input'],
      additionalProperties: false,
    });
    expect(applyPatchTool.json.description).toMatch(
      /^Use the `apply_patch` tool to edit files\.\nYour patch language/,
    );
  });
});

describe('apply_patch tool: results', () => {
  it('reports codex’s summary: every A, then M, then D, paths as written', async () => {
    const root = await tree({ 'modify.txt': 'line1\nline2\n', 'delete.txt': 'obsolete\n' });
    const result = await run(
      root,
      patch(
        '*** Delete File: delete.txt',
        '*** Update File: modify.txt',
        '@@',
        '-line2',
        '+changed',
        '*** Add File: nested/new.txt',
        '+created',
      ),
    );
    expect(result).toEqual({
      success: true,
      output: 'Success. Updated the following files:\nA nested/new.txt\nM modify.txt\nD delete.txt\n',
      error: null,
    });
    expect(await snapshotTree(root)).toEqual({
      'modify.txt': hex('line1\nchanged\n'),
      'nested/': 'folder',
      'nested/new.txt': hex('created\n'),
    });
  });

  it('takes the JSON variant’s {"input": ...} as well as raw text', async () => {
    const root = await tree();
    const result = await run(root, { input: patch('*** Add File: hello.txt', '+Hello world') });
    expect(result.output).toBe('Success. Updated the following files:\nA hello.txt\n');
    expect(await readFile(join(root, 'hello.txt'), 'utf8')).toBe('Hello world\n');
  });

  it('refuses input that is neither text nor {"input": text}', async () => {
    expect(await run(await tree(), { patch: 'x' })).toEqual({
      success: false,
      output: null,
      error: 'apply_patch expects the patch text, or {"input": "<the patch text>"} in JSON',
    });
  });

  it('rejects an empty patch with codex’s text', async () => {
    expect((await run(await tree(), '*** Begin Patch\n*** End Patch\n')).error).toBe(
      'patch rejected: empty patch',
    );
  });

  it('wraps grammar errors as codex’s core tool does', async () => {
    expect((await run(await tree(), patch('*** Frobnicate File: foo'))).error).toBe(
      "apply_patch verification failed: invalid hunk at line 2, '*** Frobnicate File: foo' is not a valid hunk header. Valid hunk headers: '*** Add File: {path}', '*** Delete File: {path}', '*** Update File: {path}'",
    );
  });

  it('moves a file onto an existing one, overwriting it, and lists it under its new name', async () => {
    const root = await tree({
      'old/name.txt': 'from\n',
      'old/other.txt': 'stays\n',
      'renamed/dir/name.txt': 'existing\n',
    });
    const result = await run(
      root,
      patch('*** Update File: old/name.txt', '*** Move to: renamed/dir/name.txt', '@@', '-from', '+new'),
    );
    expect(result.output).toBe('Success. Updated the following files:\nM renamed/dir/name.txt\n');
    expect(await snapshotTree(root)).toEqual({
      'old/': 'folder',
      'old/other.txt': hex('stays\n'),
      'renamed/': 'folder',
      'renamed/dir/': 'folder',
      'renamed/dir/name.txt': hex('new\n'),
    });
  });

  it('overwrites an existing file on Add, as codex does', async () => {
    const root = await tree({ 'duplicate.txt': 'old content\n' });
    expect((await run(root, patch('*** Add File: duplicate.txt', '+new content'))).success).toBe(true);
    expect(await readFile(join(root, 'duplicate.txt'), 'utf8')).toBe('new content\n');
  });

  it('edits a CRLF file and keeps its CRLF endings byte for byte', async () => {
    const root = await tree({ 'win.txt': 'first\r\nsecond\r\nthird' });
    await run(root, patch('*** Update File: win.txt', '@@', ' first', '-second', '+2nd', '+2nd and a half'));
    expect(await readFile(join(root, 'win.txt'), 'utf8')).toBe('first\r\n2nd\r\n2nd and a half\r\nthird\r\n');
  });
});

describe('apply_patch tool: nothing or everything', () => {
  it('leaves every earlier file untouched when a later file’s context does not match, and names both', async () => {
    const files = {
      'a.txt': 'a1\na2\n',
      'b.txt': 'b1\r\nb2\r\n',
      'gone.txt': 'keep me\n',
      'c.txt': 'c1\nc2\n',
    };
    const root = await tree(files);
    const before = await snapshotTree(root);
    const result = await run(
      root,
      patch(
        '*** Add File: added.txt',
        '+new',
        '*** Update File: a.txt',
        '@@',
        '-a1',
        '+A1',
        '*** Delete File: gone.txt',
        '*** Update File: b.txt',
        '@@',
        '-b2',
        '+B2',
        '*** Update File: c.txt',
        '@@',
        ' c1',
        '-not in the file',
        '+c3',
      ),
    );
    expect(result).toEqual({
      success: false,
      output: null,
      error: 'apply_patch verification failed: Failed to find expected lines in c.txt:\nc1\nnot in the file',
    });
    expect(await snapshotTree(root)).toEqual(before);
  });

  it('names a missing @@ anchor and the file', async () => {
    const root = await tree({ 'a.py': 'def f():\n    pass\n' });
    expect(
      (await run(root, patch('*** Update File: a.py', '@@ def g():', '-    pass', '+    return 1'))).error,
    ).toBe("apply_patch verification failed: Failed to find context 'def g():' in a.py");
  });

  it('refuses to delete a missing file, or a folder, and writes nothing', async () => {
    const root = await tree({ 'keep.txt': 'x\n' });
    await mkdir(join(root, 'dir'));
    const missing = await run(root, patch('*** Add File: new.txt', '+n', '*** Delete File: ghost.txt'));
    expect(missing.error).toBe(
      'apply_patch verification failed: Failed to read ghost.txt: No such file or directory (os error 2)',
    );
    const folder = await run(root, patch('*** Delete File: dir'));
    expect(folder.error).toBe(
      'apply_patch verification failed: Failed to read dir: Is a directory (os error 21)',
    );
    expect(await snapshotTree(root)).toEqual({ 'dir/': 'folder', 'keep.txt': hex('x\n') });
  });

  it('refuses to update a file that does not exist', async () => {
    expect((await run(await tree(), patch('*** Update File: missing.txt', '@@', '-a', '+b'))).error).toBe(
      'apply_patch verification failed: Failed to read file to update missing.txt: No such file or directory (os error 2)',
    );
  });

  it('sends every path, Move destinations included, to the resolver before any file is touched', async () => {
    const root = await tree({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const seen: string[] = [];
    const resolver: PatchPathResolver = (raw, use) => {
      seen.push(`${use} ${raw}`);
      return insideRoot(root)(raw, use);
    };
    const { fs, calls } = recorded(diskPatchFilesystem());
    const result = await run(
      root,
      patch(
        '*** Add File: new.txt',
        '+n',
        '*** Update File: a.txt',
        '@@',
        '-a',
        '+A',
        '*** Delete File: b.txt',
        '*** Update File: a.txt',
        '*** Move to: ../escape.txt',
        '@@',
        '-A',
        '+x',
      ),
      { resolvePath: resolver, fs },
    );
    expect(result.error).toBe('patch rejected: ../escape.txt: outside the workspace');
    expect(seen).toEqual([
      'add new.txt',
      'update a.txt',
      'delete b.txt',
      'move_source a.txt',
      'move_destination ../escape.txt',
    ]);
    expect(calls).toEqual([]);
    expect(await snapshotTree(root)).toEqual({ 'a.txt': hex('a\n'), 'b.txt': hex('b\n') });
  });

  it('turns a resolver that throws into a failed result', async () => {
    const result = await run(await tree(), patch('*** Add File: a.txt', '+x'), {
      resolvePath: () => {
        throw new Error('sandbox unavailable');
      },
    });
    expect(result).toEqual({
      success: false,
      output: null,
      error: 'apply_patch failed: sandbox unavailable',
    });
  });

  it('refuses a patch over the byte limit before reading it, counting UTF-8 bytes', async () => {
    const root = await tree();
    const small = patch('*** Add File: a.txt', '+é');
    const bytes = Buffer.byteLength(small, 'utf8');
    expect((await run(root, small, { maxPatchBytes: bytes - 1 })).error).toBe(
      `patch rejected: patch too large (${bytes} bytes > ${bytes - 1} bytes)`,
    );
    const huge = patch('*** Add File: big.txt', `+${'x'.repeat(DEFAULT_MAX_PATCH_BYTES)}`);
    expect((await run(root, huge)).error).toMatch(
      /^patch rejected: patch too large \(\d+ bytes > 1048576 bytes\)$/,
    );
    expect(await snapshotTree(root)).toEqual({});
  });
});
