import { z } from 'zod';
import { SECURITY_ERROR_CODES, type SandboxError } from '../../../sandbox/agent-sandbox';
import { toolFailure, toolSuccess } from '../../tool-result';
import { defineFsTool, PATH_HELP } from '../shared/fs-tool';
import { omissionPlaceholders } from '../shared/omission-placeholders';

const WriteFileArguments = z.strictObject({
  file_path: z
    .string()
    .refine((path) => path.trim() !== '', { error: 'Missing or empty "file_path"' })
    .describe(`The path to the file to write to. ${PATH_HELP}`),
  content: z.string().describe("The content to write to the file. Provide the file's complete content."),
});

export const OMISSION_PLACEHOLDER_ERROR =
  "`content` contains an omission placeholder (for example 'rest of methods ...'). Provide complete file content.";

/**
 * gemini-cli's write_file: replaces or creates a whole file, creating its folders. Content with an
 * omission placeholder (a line such as `// rest of methods ...`) is refused, because writing it would
 * delete the code it stands for.
 */
export const geminiWriteFileTool = defineFsTool({
  name: 'write_file',
  title: 'Write a file',
  description:
    'Writes content to a specified file, creating it (and its folders) if needed and replacing it if it exists.',
  schema: WriteFileArguments,
  async run(args, { sandbox }) {
    if (omissionPlaceholders(args.content).length > 0) return toolFailure(OMISSION_PLACEHOLDER_ERROR);
    const written = await sandbox.write(args.file_path, args.content, { tool: 'write_file' });
    if (!written.ok) return toolFailure(writeProblem(written.error));
    return toolSuccess(
      written.value.created
        ? `Successfully created and wrote to new file: ${written.value.display}.`
        : `Successfully overwrote file: ${written.value.display}.`,
    );
  },
});

/** gemini-cli's text where it has one, the sandbox's reason otherwise. */
export function writeProblem(error: SandboxError): string {
  if (error.code === 'not_a_file') return `Path is a directory, not a file: ${error.requestedPath}`;
  if (SECURITY_ERROR_CODES.has(error.code)) return error.message;
  return `Error writing to file: ${error.message}`;
}
