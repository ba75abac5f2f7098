import { z } from 'zod';
import { toolFailure, toolSuccess } from '../../tool-result';
import { readFileBytes, type AccessFailure } from '../shared/file-access';
import { defineFsTool, PATH_HELP } from '../shared/fs-tool';
import { MAX_TEXT_FILE_BYTES } from '../shared/limits';
import {
  decodeForDisplay,
  looksBinary,
  sniffMedia,
  splitLines,
  takeCodePoints,
} from '../shared/text-content';
import { indentationBlock } from './indentation-block';

/** @ljoukov/llm's `maxLineLength`: longer lines are cut, counted in code points. */
export const MAX_LINE_LENGTH = 500;
export const DEFAULT_READ_LIMIT = 2000;

const positive = (name: string, message: string) =>
  z
    .number()
    .int({ error: `${name} must be a whole number` })
    .min(1, { error: message });

const ReadFileArguments = z.strictObject({
  file_path: z
    .string()
    .min(1, { error: 'file_path must not be empty' })
    .describe(`Path to the file. ${PATH_HELP}`),
  offset: positive('offset', 'offset must be a 1-indexed line number')
    .optional()
    .describe('The line number to start reading from. Must be 1 or greater.'),
  limit: positive('limit', 'limit must be greater than zero')
    .optional()
    .describe(`The maximum number of lines to return (default ${DEFAULT_READ_LIMIT}).`),
  mode: z
    .enum(['slice', 'indentation'])
    .optional()
    .describe(
      'Optional mode selector: "slice" for a simple range (default) or "indentation" to expand around an anchor line.',
    ),
  indentation: z
    .strictObject({
      anchor_line: positive('anchor_line', 'anchor_line must be a 1-indexed line number')
        .optional()
        .describe('Anchor line to center the indentation lookup on (defaults to offset).'),
      max_levels: z
        .number()
        .int({ error: 'max_levels must be a whole number' })
        .min(0, { error: 'max_levels must not be negative' })
        .optional()
        .describe(
          'How many parent indentation levels (smaller indents) to include; 0 (default) means no limit.',
        ),
      include_siblings: z
        .boolean()
        .optional()
        .describe('When true, include additional blocks that share the anchor indentation (default false).'),
      include_header: z
        .boolean()
        .optional()
        .describe('Include doc comments or attributes directly above the selected block (default true).'),
      max_lines: positive('max_lines', 'max_lines must be greater than zero')
        .optional()
        .describe(
          'Hard cap on the number of lines returned when using indentation mode (defaults to limit).',
        ),
    })
    .optional(),
});

/** codex's read_file: a slice of a text file (or an indented block around a line) as `L<n>: <text>` lines. */
export const codexReadFileTool = defineFsTool({
  name: 'read_file',
  title: 'Read a file',
  description:
    'Reads a local file with 1-indexed line numbers, supporting slice and indentation-aware block modes.',
  schema: ReadFileArguments,
  async run(args, { sandbox, redaction }) {
    const read = await readFileBytes(sandbox, args.file_path, 'read_file', MAX_TEXT_FILE_BYTES);
    if (!read.ok) return toolFailure(`failed to read file: ${readProblem(read.error)}`);
    const file = read.value;
    const media = sniffMedia(file.bytes, file.path);
    if (media?.kind === 'image')
      return toolFailure(
        `read_file only supports text files; "${file.display}" is an image (${media.mime}).`,
      );
    if (media?.kind === 'pdf')
      return toolFailure(`read_file only supports text files; "${file.display}" is a PDF.`);
    if (looksBinary(file.bytes))
      return toolFailure(`read_file only supports UTF-8 text files; "${file.display}" appears to be binary.`);

    const lines = splitLines(decodeForDisplay(file.bytes));
    const offset = args.offset ?? 1;
    const limit = args.limit ?? DEFAULT_READ_LIMIT;
    let numbers: number[];
    if (args.mode === 'indentation') {
      const options = args.indentation ?? {};
      const block = indentationBlock(lines, {
        anchorLine: options.anchor_line ?? offset,
        maxLevels: options.max_levels ?? 0,
        includeSiblings: options.include_siblings ?? false,
        includeHeader: options.include_header ?? true,
        maxLines: Math.min(limit, options.max_lines ?? limit),
      });
      if (!block.ok) return toolFailure(block.error);
      numbers = block.lineIndexes;
    } else {
      if (offset > lines.length) return toolFailure('offset exceeds file length');
      const end = Math.min(lines.length, offset - 1 + limit);
      numbers = Array.from({ length: end - (offset - 1) }, (_, index) => offset - 1 + index);
    }
    return toolSuccess(
      numbers
        .map(
          (index) =>
            `L${index + 1}: ${redaction.cutText(lines[index] ?? '', MAX_LINE_LENGTH, takeCodePoints)}`,
        )
        .join('\n'),
    );
  },
});

/** Rust's io::Error texts for the common cases, which codex models know; the sandbox's words otherwise. */
function readProblem(failure: AccessFailure): string {
  switch (failure.problem) {
    case 'not_found':
      return 'No such file or directory (os error 2)';
    case 'directory':
      return 'Is a directory (os error 21)';
    case 'too_large':
      return `file size exceeds the ${MAX_TEXT_FILE_BYTES / (1024 * 1024)}MB limit (${failure.message})`;
    default:
      return failure.message;
  }
}
