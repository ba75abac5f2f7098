import { z } from 'zod';
import { toolFailure, toolSuccess } from '../../tool-result';
import { readFileBytes, type AccessFailure } from '../shared/file-access';
import { defineFsTool, PATH_HELP } from '../shared/fs-tool';
import type { ParsedArguments } from '../shared/tool-arguments';
import { MAX_TEXT_FILE_BYTES } from '../shared/limits';
import {
  decodeForDisplay,
  longerThan,
  looksBinary,
  sniffMedia,
  takeCodePoints,
} from '../shared/text-content';

/** gemini-cli's DEFAULT_MAX_LINES_TEXT_FILE: one call shows at most this many lines. */
export const MAX_LINES_PER_READ = 2000;
/** Longer lines are shown cut, ending in `... [truncated]` (counted in code points). */
export const MAX_LINE_CHARACTERS = 2000;

const lineNumber = (name: string) =>
  z
    .number()
    .int({ error: `${name} must be a whole number` })
    .min(1, { error: `params/${name} must be >= 1` });

const ReadFileArguments = z.strictObject({
  file_path: z
    .string()
    .refine((path) => path.trim() !== '', { error: "The 'file_path' parameter must be non-empty." })
    .describe(`The path to the file to read. ${PATH_HELP}`),
  start_line: lineNumber('start_line')
    .optional()
    .describe('Optional: The 1-based line number to start reading from.'),
  end_line: lineNumber('end_line')
    .optional()
    .describe('Optional: The 1-based line number to end reading at (inclusive).'),
});

/**
 * gemini-cli's read_file: the file's text as it is (no line numbers), at most 2000 lines a call. When
 * less than the whole file is shown, a notice first says which lines these are and how to read on.
 * Calls with the older `offset` (0-based) and `limit` still work.
 */
export const geminiReadFileTool = defineFsTool({
  name: 'read_file',
  title: 'Read a file',
  description:
    "Reads and returns the content of a specified text file. If the file is large, the content will be truncated; the response then says how to read more with 'start_line' and 'end_line'.",
  schema: ReadFileArguments,
  upgradeArguments: upgradeOffsetAndLimit,
  async run(args, { sandbox, redaction }) {
    if (args.start_line !== undefined && args.end_line !== undefined && args.start_line > args.end_line)
      return toolFailure('start_line cannot be greater than end_line');
    const read = await readFileBytes(sandbox, args.file_path, 'read_file', MAX_TEXT_FILE_BYTES);
    if (!read.ok) return toolFailure(readProblem(read.error));
    const file = read.value;
    const media = sniffMedia(file.bytes, file.path);
    if (media?.kind === 'image')
      return toolFailure(`Cannot display content of image file: ${file.display} (${media.mime}).`);
    if (media?.kind === 'pdf') return toolFailure(`Cannot display content of PDF file: ${file.display}.`);
    if (looksBinary(file.bytes)) return toolFailure(`Cannot display content of binary file: ${file.display}`);

    const lines = textLines(decodeForDisplay(file.bytes));
    const total = lines.length;
    const start = args.start_line ?? 1;
    if (total === 0 && start === 1) return toolSuccess('');
    if (start > total)
      return toolFailure(`start_line ${start} is beyond the end of the file (${total} lines).`);
    const end = Math.min(total, args.end_line ?? total, start + MAX_LINES_PER_READ - 1);
    let shortened = false;
    const shown = lines.slice(start - 1, end).map((line) => {
      if (!longerThan(line, MAX_LINE_CHARACTERS)) return line;
      shortened = true;
      return `${redaction.cutText(line, MAX_LINE_CHARACTERS, takeCodePoints)}... [truncated]`;
    });
    const content = shown.join('\n');
    if (end === total && !shortened) return toolSuccess(content);
    return toolSuccess(`${truncationNotice(start, end, total, shortened)}${content}`);
  },
});

/** Lines split at LF or CRLF; a final newline does not start another line. */
function textLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function truncationNotice(start: number, end: number, total: number, shortened: boolean): string {
  const status = `Status: Showing lines ${start}-${end} of ${total} total lines.${
    shortened ? ` Lines longer than ${MAX_LINE_CHARACTERS} characters were shortened.` : ''
  }`;
  const action =
    end < total
      ? `\nAction: To read more of the file, you can use the 'start_line' and 'end_line' parameters in a subsequent 'read_file' call. For example, to read the next section of the file, use start_line: ${end + 1}.`
      : '';
  return `\nIMPORTANT: The file content has been truncated.\n${status}${action}\n\n--- FILE CONTENT (truncated) ---\n`;
}

/** gemini-cli's words for a file it cannot read; `notFound` is the tool's own for a missing file. */
export function readProblem(
  failure: AccessFailure,
  notFound = 'Could not read file because no file was found at the specified path.',
): string {
  switch (failure.problem) {
    case 'not_found':
      return notFound;
    case 'directory':
      return `Path is a directory, not a file: ${failure.requestedPath}`;
    case 'too_large':
      return `File size exceeds the ${MAX_TEXT_FILE_BYTES / (1024 * 1024)}MB limit.`;
    default:
      return failure.message;
  }
}

/** gemini-cli before February 2026: `offset` (0-based first line) and `limit` (number of lines). */
function upgradeOffsetAndLimit(args: unknown): ParsedArguments<unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { ok: true, value: args };
  const { offset, limit, ...rest } = args as Record<string, unknown>;
  if ((offset === undefined && limit === undefined) || 'start_line' in rest || 'end_line' in rest)
    return { ok: true, value: args };
  if (offset !== undefined && !(Number.isInteger(offset) && (offset as number) >= 0))
    return { ok: false, error: 'Offset must be a non-negative number' };
  if (limit !== undefined && !(Number.isInteger(limit) && (limit as number) >= 1))
    return { ok: false, error: 'Limit must be a positive number' };
  const start = ((offset as number | undefined) ?? 0) + 1;
  const end = limit === undefined ? {} : { end_line: start + (limit as number) - 1 };
  return { ok: true, value: { ...rest, start_line: start, ...end } };
}
