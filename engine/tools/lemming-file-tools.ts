import type { ToolDefinition } from '../models/types';
import { SECURITY_ERROR_CODES, type AgentSandbox, type SandboxError } from '../sandbox/agent-sandbox';
import { toolFailure, toolSuccess, type ToolResult } from './tool-result';

/** What a file tool needs from the turn: the agent's sandbox. */
export interface FileToolContext {
  sandbox: AgentSandbox;
}

export interface LemmingFileTool {
  name: 'file_read' | 'file_write' | 'file_list';
  kind: 'file';
  definition: ToolDefinition;
  /** Never throws: bad arguments, refusals and I/O problems are failed results. */
  run(args: unknown, context: FileToolContext): Promise<ToolResult>;
}

/** LeMMing's limit, counted like Python's len(): in code points. */
export const FILE_WRITE_MAX_CHARS = 100 * 1024;

const SECURITY_VIOLATION = 'Security violation: path is outside allowed directories';

const PATH_HELP =
  'Relative paths are in your workspace; paths starting with "shared/" are in the organization\'s shared folder.';

export const fileReadTool: LemmingFileTool = {
  name: 'file_read',
  kind: 'file',
  definition: {
    name: 'file_read',
    description: `Read the content of a text file in your workspace or the shared folder. ${PATH_HELP}`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The file to read, e.g. "notes.md" or "shared/plan.md".' },
      },
      required: ['path'],
      additionalProperties: false,
    },
  },
  run: (args, context) =>
    guarded('file_read', async () => {
      const path = argument(args, 'path');
      if (!path) return toolFailure("Missing 'path' parameter");
      if (typeof path !== 'string') return toolFailure('Path must be a string');
      const read = await context.sandbox.read(path, { tool: 'file_read' });
      if (read.ok) return toolSuccess(read.value.content);
      return toolFailure(
        securityText(read.error) ??
          (read.error.code === 'not_found'
            ? `File '${path}' not found`
            : read.error.code === 'not_a_file'
              ? `'${path}' is not a file`
              : `Failed to read file: ${read.error.message}`),
      );
    }),
};

export const fileWriteTool: LemmingFileTool = {
  name: 'file_write',
  kind: 'file',
  definition: {
    name: 'file_write',
    description: `Write a text file in your workspace or the shared folder, creating its folders and replacing the file if it exists. ${PATH_HELP}`,
    parameters: {
      type: 'object',
      properties: {
        path: { type: 'string', description: 'The file to write, e.g. "notes.md" or "shared/report.md".' },
        content: {
          type: 'string',
          description: `The whole new content (at most ${FILE_WRITE_MAX_CHARS} characters).`,
        },
      },
      required: ['path', 'content'],
      additionalProperties: false,
    },
  },
  run: (args, context) =>
    guarded('file_write', async () => {
      const path = argument(args, 'path');
      const content = argument(args, 'content');
      if (!path) return toolFailure("Missing 'path' parameter");
      if (typeof path !== 'string') return toolFailure('Path must be a string');
      if (content === undefined || content === null) return toolFailure("Missing 'content' parameter");
      if (typeof content !== 'string') return toolFailure('Content must be a string');
      const characters = [...content].length;
      if (characters > FILE_WRITE_MAX_CHARS)
        return toolFailure(
          `File content too large (${characters} bytes). Max size is ${FILE_WRITE_MAX_CHARS} bytes.`,
        );
      const written = await context.sandbox.write(path, content, { tool: 'file_write' });
      if (written.ok) return toolSuccess(`Wrote ${characters} bytes to ${path}`);
      return toolFailure(securityText(written.error) ?? `Failed to write file: ${written.error.message}`);
    }),
};

export const fileListTool: LemmingFileTool = {
  name: 'file_list',
  kind: 'file',
  definition: {
    name: 'file_list',
    description: `List a folder in your workspace or the shared folder: one name per line, folders end with "/". ${PATH_HELP}`,
    parameters: {
      type: 'object',
      properties: {
        path: {
          type: 'string',
          description: 'The folder to list; "." (the default) is your workspace, "shared" the shared folder.',
        },
      },
      additionalProperties: false,
    },
  },
  run: (args, context) =>
    guarded('file_list', async () => {
      const given = argument(args, 'path');
      // LeMMing lists the workspace for a missing path and for "" (its join ignores an empty name).
      const path = given === undefined || given === null || given === '' ? '.' : given;
      if (typeof path !== 'string') return toolFailure('Path must be a string');
      const listed = await context.sandbox.list(path, { tool: 'file_list' });
      if (listed.ok)
        return toolSuccess(
          listed.value.entries
            .map((entry) => (entry.kind === 'directory' ? `${entry.name}/` : entry.name))
            .join('\n'),
        );
      return toolFailure(
        securityText(listed.error) ??
          (listed.error.code === 'not_found'
            ? `Directory '${path}' not found`
            : listed.error.code === 'not_a_directory'
              ? `'${path}' is not a directory`
              : `Failed to list files: ${listed.error.message}`),
      );
    }),
};

/** In LeMMing's registry order. */
export const LEMMING_FILE_TOOLS: readonly LemmingFileTool[] = [fileWriteTool, fileReadTool, fileListTool];

/** LeMMing's text first, which prompts written for LeMMing look for, then why. */
function securityText(error: SandboxError): string | null {
  return SECURITY_ERROR_CODES.has(error.code) ? `${SECURITY_VIOLATION}: ${error.message}` : null;
}

function argument(args: unknown, name: string): unknown {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return undefined;
  return Object.hasOwn(args, name) ? (args as Record<string, unknown>)[name] : undefined;
}

async function guarded(tool: string, run: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run();
  } catch (error) {
    return toolFailure(`Tool ${tool} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
