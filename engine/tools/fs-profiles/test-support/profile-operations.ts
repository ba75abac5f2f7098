import type { AgentSandbox } from '../../../sandbox/agent-sandbox';
import type { AdversarialCase, AdversarialOperation } from '../../../sandbox/test-support/adversarial-paths';
import { CANARY } from '../../../sandbox/test-support/sandbox-world';
import type { ToolResult } from '../../tool-result';
import { codexApplyPatchTool } from '../codex/apply-patch';
import { codexGrepFilesTool } from '../codex/grep-files';
import { codexListDirTool } from '../codex/list-dir';
import { codexReadFileTool } from '../codex/read-file';
import { geminiGlobTool } from '../gemini/glob';
import { geminiGrepSearchTool } from '../gemini/grep-search';
import { geminiListDirectoryTool } from '../gemini/list-directory';
import { geminiReadFileTool } from '../gemini/read-file';
import { geminiReplaceTool } from '../gemini/replace';
import { geminiWriteFileTool } from '../gemini/write-file';
import type { FsProfileTool } from '../shared/fs-tool';
import { createRedactor } from '../../../secrets/redactor';

const NOTE = 'WRITTEN-BY-THE-AGENT';

const failed = (result: unknown) => !(result as ToolResult).success;

function calling(name: string, tool: FsProfileTool, args: (path: string) => unknown): AdversarialOperation {
  return {
    name,
    run: (path: string, sandbox: AgentSandbox) =>
      tool.run(args(path), { sandbox, redaction: createRedactor() }),
    failed,
  };
}

/**
 * The canary as a regular expression that does not contain it literally (tools echo the pattern).
 * Only a file the agent must not read holds it.
 */
const CANARY_PATTERN = `${CANARY.slice(0, -1)}[${CANARY.slice(-1)}]`;

/**
 * The canary with its hyphens written as U+2010: apply_patch's most tolerant matching rung reads it as
 * the canary, and a tool echoing it does not leak the canary.
 */
const CANARY_LOOKALIKE = CANARY.replaceAll('-', '\u2010');

/**
 * A search for the canary: it can only find something in a file the agent must not read, so a
 * successful result is turned into one that carries the canary, and the corpus runner reports a leak.
 */
function searchingForTheCanary(
  name: string,
  tool: FsProfileTool,
  args: (path: string) => unknown,
): AdversarialOperation {
  return {
    name,
    async run(path, sandbox) {
      const result = await tool.run(args(path), { sandbox, redaction: createRedactor() });
      const found = result.success && !result.output?.startsWith('No ');
      return found ? { ...result, leaked: `a file holding ${CANARY} was found: ${result.output}` } : result;
    },
    failed,
  };
}

const patch = (...body: string[]) => ['*** Begin Patch', ...body, '*** End Patch', ''].join('\n');

/** The codex read tools, each way it takes a path. */
export const CODEX_OPERATIONS: readonly AdversarialOperation[] = [
  calling('codex read_file', codexReadFileTool, (path) => ({ file_path: path })),
  calling('codex read_file (indentation)', codexReadFileTool, (path) => ({
    file_path: path,
    mode: 'indentation',
  })),
  calling('codex list_dir', codexListDirTool, (path) => ({ dir_path: path, depth: 4, limit: 500 })),
  calling('codex grep_files', codexGrepFilesTool, (path) => ({ pattern: '.', path })),
  searchingForTheCanary('codex grep_files for the canary', codexGrepFilesTool, (path) => ({
    pattern: CANARY_PATTERN,
    path,
  })),
];

/**
 * apply_patch once per kind of hunk. An update of the canary can only match a file the agent must not
 * read, and would then change it, which the runner sees.
 */
export const APPLY_PATCH_OPERATIONS: readonly AdversarialOperation[] = [
  calling('apply_patch add', codexApplyPatchTool, (path) => patch(`*** Add File: ${path}`, `+${NOTE}`)),
  calling('apply_patch update', codexApplyPatchTool, (path) =>
    patch(`*** Update File: ${path}`, '@@', '-inside', `+${NOTE}`),
  ),
  calling('apply_patch update of the canary', codexApplyPatchTool, (path) =>
    patch(`*** Update File: ${path}`, '@@', `-${CANARY_LOOKALIKE}`, `+${NOTE}`),
  ),
  calling('apply_patch delete', codexApplyPatchTool, (path) => patch(`*** Delete File: ${path}`)),
  calling('apply_patch move from', codexApplyPatchTool, (path) =>
    patch(`*** Update File: ${path}`, '*** Move to: moved-by-patch.txt', '@@', '-inside', `+${NOTE}`),
  ),
  calling('apply_patch move to', codexApplyPatchTool, (path) =>
    patch('*** Update File: notes.md', `*** Move to: ${path}`, '@@', '-workspace notes', `+${NOTE}`),
  ),
];

/** Every gemini (and model-agnostic) tool. */
export const GEMINI_OPERATIONS: readonly AdversarialOperation[] = [
  calling('gemini read_file', geminiReadFileTool, (path) => ({ file_path: path })),
  calling('gemini list_directory', geminiListDirectoryTool, (path) => ({ dir_path: path })),
  calling('gemini grep_search', geminiGrepSearchTool, (path) => ({ pattern: '.', dir_path: path })),
  searchingForTheCanary('gemini grep_search for the canary', geminiGrepSearchTool, (path) => ({
    pattern: CANARY_PATTERN,
    dir_path: path,
    names_only: true,
  })),
  calling('gemini glob', geminiGlobTool, (path) => ({ pattern: '**/*', dir_path: path })),
  calling('gemini write_file', geminiWriteFileTool, (path) => ({ file_path: path, content: NOTE })),
  calling('gemini replace', geminiReplaceTool, (path) => ({
    file_path: path,
    instruction: 'change',
    old_string: 'inside',
    new_string: NOTE,
  })),
  calling('gemini replace of the canary', geminiReplaceTool, (path) => ({
    file_path: path,
    instruction: 'change',
    old_string: CANARY,
    new_string: NOTE,
    allow_multiple: true,
  })),
  calling('gemini replace creating', geminiReplaceTool, (path) => ({
    file_path: path,
    instruction: 'create',
    old_string: '',
    new_string: NOTE,
  })),
];

/**
 * The corpus as apply_patch sees it: its grammar trims the path of a hunk header, so a path whose
 * only fault is surrounding whitespace or control characters (refused as written) arrives as the plain
 * path, which the sandbox judges like any other. Those cases are still held to "nothing outside read,
 * changed or created".
 */
export function asPatchPaths(cases: readonly AdversarialCase[]): AdversarialCase[] {
  return cases.map((testCase) =>
    typeof testCase.path === 'string' &&
    testCase.path.trim() !== testCase.path &&
    !/[\n]/.test(testCase.path.trim())
      ? { ...testCase, expect: 'contained' }
      : testCase,
  );
}
