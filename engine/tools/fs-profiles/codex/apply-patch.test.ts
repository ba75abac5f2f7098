import { afterEach, describe, expect, it } from 'vitest';
import type { AccessRequest } from '../../../sandbox/access-policy';
import { WORLDS } from '../../../sandbox/test-support/sandbox-world';
import { openToolWorld, type ToolWorld } from '../test-support/tool-world';
import { codexApplyPatchTool as applyPatch } from './apply-patch';

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

describe.each(WORLDS)('codex apply_patch through the sandbox ($name file system)', (factory) => {
  let tools: ToolWorld;
  afterEach(() => tools.dispose());
  const open = async (options: Parameters<typeof openToolWorld>[1] = {}) => {
    tools = await openToolWorld(factory, options);
    await tools.put('a.txt', 'one\ntwo\nthree\n');
    await tools.put('old/b.txt', 'bee\n');
    return tools;
  };
  const workspaceTree = async () =>
    Object.fromEntries(
      Object.entries(await tools.world.tree())
        .filter(([path]) => path.startsWith(`${tools.world.workspace}/`))
        .map(([path, entry]) => [path.slice(tools.world.workspace.length + 1), entry]),
    );

  it('adds, updates, moves and deletes files and prints codex summary (freeform input)', async () => {
    await open();
    const result = await tools.call(
      applyPatch,
      patch(
        '*** Add File: new/c.txt',
        '+sea',
        '*** Update File: a.txt',
        '@@',
        ' one',
        '-two',
        '+TWO',
        '*** Update File: old/b.txt',
        '*** Move to: moved/b.txt',
        '@@',
        '-bee',
        '+BEE',
      ),
    );
    expect(result).toEqual({
      success: true,
      output: 'Success. Updated the following files:\nA new/c.txt\nM a.txt\nM moved/b.txt\n',
      error: null,
    });
    expect(await workspaceTree()).toEqual({
      'a.txt': 'file:one\nTWO\nthree\n',
      new: 'directory',
      'new/c.txt': 'file:sea\n',
      old: 'directory',
      moved: 'directory',
      'moved/b.txt': 'file:BEE\n',
    });
  });

  it('takes the JSON variant {input}', async () => {
    await open();
    const result = await tools.call(applyPatch, { input: patch('*** Delete File: a.txt') });
    expect(result.output).toBe('Success. Updated the following files:\nD a.txt\n');
    expect(await tools.text('a.txt')).toBeNull();
  });

  it('writes the shared folder through shared/ paths', async () => {
    await open();
    const result = await tools.call(applyPatch, patch('*** Add File: shared/report.md', '+# Report'));
    expect(result.success).toBe(true);
    expect((await tools.world.tree())[`${tools.world.shared}/report.md`]).toBe('file:# Report\n');
  });

  it('refuses the whole patch when one path is outside, before anything is written', async () => {
    await open();
    const before = await tools.world.tree();
    const result = await tools.call(
      applyPatch,
      patch('*** Add File: fine.txt', '+ok', '*** Add File: ../escape.txt', '+no'),
    );
    expect(result.success).toBe(false);
    expect(result.error).toMatch(
      /^patch rejected: \.\.\/escape\.txt: '\.\.\/escape\.txt' is outside the folders you may write to/,
    );
    expect(await tools.world.tree()).toEqual(before);
  });

  it('changes nothing when a later hunk does not match', async () => {
    await open();
    const before = await tools.world.tree();
    const result = await tools.call(
      applyPatch,
      patch('*** Add File: fine.txt', '+ok', '*** Update File: a.txt', '@@', '-not there', '+x'),
    );
    expect(result.error).toBe(
      'apply_patch verification failed: Failed to find expected lines in a.txt:\nnot there',
    );
    expect(await tools.world.tree()).toEqual(before);
  });

  it('undoes every file, deletes included, when a write fails half way', async () => {
    await open();
    await tools.world.mkdir(tools.inWorkspace('blocked'));
    const before = await tools.world.tree();
    const result = await tools.call(
      applyPatch,
      patch(
        '*** Update File: a.txt',
        '@@',
        '-one',
        '+ONE',
        '*** Delete File: old/b.txt',
        '*** Add File: blocked',
        '+cannot replace a folder',
      ),
    );
    expect(result.success).toBe(false);
    expect(result.error).toMatch(
      /^apply_patch failed: Failed to back up file blocked: EISDIR.*; no file was changed$/,
    );
    expect(await tools.world.tree()).toEqual(before);
  });

  it('never leaves temp or backup files: they live in memory', async () => {
    await open();
    await tools.call(
      applyPatch,
      patch('*** Update File: a.txt', '@@', '-one', '+uno', '*** Delete File: old/b.txt'),
    );
    const names = Object.keys(await workspaceTree()).sort();
    expect(names.filter((name) => /patch-(tmp|bak)|\.lemming-/.test(name))).toEqual([]);
    expect(names).toEqual(['a.txt', 'old']);
  });

  it('keeps a byte-order mark and deletes binary files', async () => {
    await open();
    await tools.put('bom.txt', '\uFEFFhello\n');
    await tools.put('blob.bin', new Uint8Array([0, 1, 2, 255]));
    const result = await tools.call(
      applyPatch,
      patch('*** Update File: bom.txt', '@@', '-hello', '+bonjour', '*** Delete File: blob.bin'),
    );
    expect(result.success).toBe(true);
    expect(await tools.text('bom.txt')).toBe('\uFEFFbonjour\n');
    expect(await tools.text('blob.bin')).toBeNull();
  });

  it('refuses a result larger than the sandbox write limit and changes nothing', async () => {
    await open({ maxWriteBytes: 10 });
    const before = await tools.world.tree();
    const result = await tools.call(applyPatch, patch('*** Add File: big.txt', `+${'x'.repeat(20)}`));
    expect(result.error).toMatch(
      /^apply_patch failed: Failed to write file big\.txt: EFBIG.*; no file was changed$/,
    );
    expect(await tools.world.tree()).toEqual(before);
  });

  it('asks the sandbox for write on add and update, read too on update, delete on delete and move on a Move destination', async () => {
    const requests: string[] = [];
    await open({
      checkAccess: (request: AccessRequest) => {
        requests.push(
          `${request.tool} ${request.action} ${request.path.slice(tools.world.workspace.length + 1)}`,
        );
        return { allowed: true };
      },
    });
    await tools.call(
      applyPatch,
      patch(
        '*** Add File: n.txt',
        '+n',
        '*** Update File: a.txt',
        '@@',
        '-one',
        '+1',
        '*** Delete File: n2.txt',
        '*** Update File: old/b.txt',
        '*** Move to: m.txt',
        '@@',
        '-bee',
        '+b',
      ),
    );
    expect(requests).toEqual([
      'apply_patch write n.txt',
      'apply_patch write a.txt',
      'apply_patch read a.txt',
      'apply_patch delete n2.txt',
      'apply_patch write old/b.txt',
      'apply_patch read old/b.txt',
      'apply_patch move m.txt',
    ]);
  });

  it('needs the right to read a file to update it', async () => {
    await open({ fileAccess: { allow_read: ['shared'], allow_write: ['agents/a/workspace'] } });
    const update = await tools.call(applyPatch, patch('*** Update File: a.txt', '@@', '-one', '+1'));
    expect(update.error).toMatch(/^patch rejected: a\.txt: 'a\.txt' is outside the folders you may read/);
    const add = await tools.call(applyPatch, patch('*** Add File: a.txt', '+replaced'));
    expect(add.success).toBe(true);
  });

  it('offers the freeform grammar and a JSON definition', () => {
    expect(applyPatch.freeform?.syntax).toBe('lark');
    expect(applyPatch.freeform?.grammar).toContain('begin_patch');
    expect(applyPatch.definition.name).toBe('apply_patch');
    expect((applyPatch.definition.parameters as { required: string[] }).required).toEqual(['input']);
  });
});
