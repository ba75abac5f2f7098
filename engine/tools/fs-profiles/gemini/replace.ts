import { z } from 'zod';
import type { AgentSandbox } from '../../../sandbox/agent-sandbox';
import { toolFailure, toolSuccess } from '../../tool-result';
import { checkPath, readFileBytes } from '../shared/file-access';
import { defineFsTool, PATH_HELP } from '../shared/fs-tool';
import { MAX_TEXT_FILE_BYTES } from '../shared/limits';
import { omissionPlaceholders } from '../shared/omission-placeholders';
import { decodeExactly } from '../shared/text-content';
import { readProblem } from './read-file';
import { writeProblem } from './write-file';

const FILE_NOT_FOUND = 'File not found. Cannot apply edit. Use an empty old_string to create a new file.';

const ReplaceArguments = z.strictObject({
  file_path: z
    .string()
    .refine((path) => path.trim() !== '', { error: "The 'file_path' parameter must be non-empty." })
    .describe(`The path to the file to modify. ${PATH_HELP}`),
  instruction: z
    .string()
    .describe('A clear, semantic instruction for the code change: why it is made and what it does.'),
  old_string: z
    .string()
    .describe(
      'The exact literal text to replace, including all whitespace and indentation. Include enough context (several lines before and after) to match exactly one place. Empty to create a new file.',
    ),
  new_string: z.string().describe('The exact literal text to replace old_string with.'),
  allow_multiple: z
    .boolean()
    .optional()
    .describe(
      'If true, replace every occurrence of old_string. If false (default), old_string must occur exactly once.',
    ),
  expected_replacements: z
    .number()
    .int({ error: 'expected_replacements must be a whole number' })
    .min(1, { error: 'expected_replacements must be at least 1' })
    .optional()
    .describe(
      'Optional: the exact number of occurrences to replace; the edit fails if the file has another number.',
    ),
});

type ReplaceArguments = z.output<typeof ReplaceArguments>;

/**
 * gemini-cli's replace (its edit tool) with exact literal matching: old_string must occur exactly
 * once (or `expected_replacements` times, or at least once with `allow_multiple`), occurrences are
 * counted without overlap, and `$` in new_string is literal. In a file with CRLF line endings the
 * strings' LF line breaks are matched and written as CRLF, and no other line is touched. An empty
 * old_string creates a file that does not exist yet.
 */
export const geminiReplaceTool = defineFsTool({
  name: 'replace',
  title: 'Replace text in a file',
  description:
    'Replaces exact literal text within a file. old_string must match the file exactly (whitespace and indentation included) and, unless allow_multiple is true, occur exactly once. Use an empty old_string to create a new file.',
  schema: ReplaceArguments,
  async run(args, { sandbox }) {
    const added = omissionPlaceholders(args.new_string).filter(
      (placeholder) => !omissionPlaceholders(args.old_string).includes(placeholder),
    );
    if (added.length > 0)
      return toolFailure(
        "`new_string` contains an omission placeholder (for example 'rest of methods ...'). Provide the complete replacement text.",
      );
    if (args.old_string === '') return createFile(args, sandbox);

    const read = await readFileBytes(sandbox, args.file_path, 'replace', MAX_TEXT_FILE_BYTES);
    if (!read.ok) return toolFailure(readProblem(read.error, FILE_NOT_FOUND));
    const file = read.value;
    const text = decodeExactly(file.bytes);
    if (text === null) return toolFailure(`Cannot edit ${file.display}: it is not UTF-8 text.`);

    const edit = matchingEdit(text, args.old_string, args.new_string);
    const path = file.display;
    if (edit.count === 0)
      return toolFailure(
        `Failed to edit, 0 occurrences found for old_string in ${path}. Ensure you're not escaping content incorrectly and check whitespace, indentation, and context. Use read_file tool to verify.`,
      );
    const expected = args.expected_replacements;
    if (expected !== undefined && edit.count !== expected)
      return toolFailure(
        `Failed to edit, Expected ${expected} ${expected === 1 ? 'occurrence' : 'occurrences'} but found ${edit.count} for old_string in file: ${path}`,
      );
    if (expected === undefined && !args.allow_multiple && edit.count !== 1)
      return toolFailure(
        `Failed to edit, Expected 1 occurrence but found ${edit.count} for old_string in file: ${path}. If you intended to replace multiple occurrences, set 'allow_multiple' to true.`,
      );
    if (args.old_string === args.new_string)
      return toolFailure(`No changes to apply. The old_string and new_string are identical in file: ${path}`);

    const written = await sandbox.write(args.file_path, text.split(edit.oldText).join(edit.newText), {
      tool: 'replace',
    });
    if (!written.ok) return toolFailure(writeProblem(written.error));
    return toolSuccess(`Successfully modified file: ${path} (${edit.count} replacements).`);
  },
});

async function createFile(args: ReplaceArguments, sandbox: AgentSandbox) {
  const checked = await checkPath(sandbox, args.file_path, 'write', 'replace');
  if (!checked.ok) return toolFailure(checked.error.message);
  const target = checked.value;
  if ((await sandbox.fs.stat(target.path)) !== null)
    return toolFailure(`File already exists, cannot create: ${target.display}`);
  const written = await sandbox.write(args.file_path, args.new_string, { tool: 'replace' });
  if (!written.ok) return toolFailure(writeProblem(written.error));
  return toolSuccess(`Created new file: ${written.value.display} with provided content.`);
}

/**
 * The strings as they occur in the file, and how often (without overlap): as given, or else, in a
 * file with CRLF line endings, with their line breaks written CRLF.
 */
function matchingEdit(text: string, oldString: string, newString: string) {
  const asGiven = { oldText: oldString, newText: newString, count: occurrences(text, oldString) };
  if (asGiven.count > 0 || !text.includes('\r\n') || !oldString.includes('\n')) return asGiven;
  const crlf = (value: string) => value.replace(/\r?\n/g, '\r\n');
  return { oldText: crlf(oldString), newText: crlf(newString), count: occurrences(text, crlf(oldString)) };
}

function occurrences(text: string, search: string): number {
  let count = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) count += 1;
  return count;
}
