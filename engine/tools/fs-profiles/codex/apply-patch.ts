import type { AccessAction } from '../../../sandbox/access-policy';
import { displayPath } from '../../../sandbox/sandbox-layout';
import { applyPatchTool } from '../../apply-patch/apply-patch-tool';
import type { PatchPathResolver, PatchPathUse } from '../../apply-patch/resolve-patch-paths';
import type { ToolResult } from '../../tool-result';
import type { FsProfileTool, FsToolContext } from '../shared/fs-tool';
import { checkPath } from '../shared/file-access';
import { sandboxPatchFilesystem } from './sandbox-patch-filesystem';

const ACTION_BY_USE: Readonly<Record<PatchPathUse, AccessAction>> = {
  add: 'write',
  update: 'write',
  delete: 'delete',
  move_source: 'write',
  move_destination: 'move',
};

/** An Update rewrites the file from what it holds, so it also needs the right to read it. */
const READS_CONTENT: ReadonlySet<PatchPathUse> = new Set(['update', 'move_source']);

/**
 * codex's apply_patch (freeform, with the JSON variant for providers without custom tools), run
 * through the agent's sandbox: every path of the patch is checked before anything is read, and every
 * file operation goes through the sandbox's AgentFilesystem. All files change or none does.
 */
export const codexApplyPatchTool: FsProfileTool = {
  name: 'apply_patch',
  kind: 'file',
  title: 'Edit files with a patch',
  definition: applyPatchTool.json,
  freeform: {
    syntax: 'lark',
    grammar: applyPatchTool.freeform.format.definition,
    description: applyPatchTool.freeform.description,
  },
  async run(args: unknown, { sandbox }: FsToolContext): Promise<ToolResult> {
    const fs = sandboxPatchFilesystem(sandbox.fs, {
      maxReadBytes: sandbox.maxReadBytes,
      maxWriteBytes: sandbox.maxWriteBytes,
    });
    const resolvePath: PatchPathResolver = async (raw, use) => {
      const checked = await checkPath(sandbox, raw, ACTION_BY_USE[use], 'apply_patch');
      if (!checked.ok) return { ok: false, error: checked.error.message };
      if (READS_CONTENT.has(use)) {
        const readable = await checkPath(sandbox, raw, 'read', 'apply_patch');
        if (!readable.ok) return { ok: false, error: readable.error.message };
      }
      return { ok: true, value: checked.value.path };
    };
    const result = await applyPatchTool.run(args, { resolvePath, fs });
    if (!result.success || fs.failedDeletes.length === 0) return result;
    const notDeleted = fs.failedDeletes.map((path) => displayPath(sandbox.layout, path)).join(', ');
    const output = (result.output ?? '')
      .split('\n')
      .filter((line) => !line.startsWith('Note: could not remove backup file(s)'))
      .join('\n');
    return { ...result, output: `${output}Note: every change was applied except deleting ${notDeleted}\n` };
  },
};
