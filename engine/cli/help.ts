import type { Command } from './command';
import { commands } from './commands';

/** The width help is laid out for when the output is not a terminal (a pipe, a file). */
const DEFAULT_COLUMNS = 80;
/** Narrower terminals get this width anyway: a summary column of a few characters reads worse than a wrap. */
const NARROWEST = 40;

function widthFor(columns: number | undefined): number {
  return Math.max(NARROWEST, columns ?? DEFAULT_COLUMNS);
}

/**
 * `text` broken at spaces into lines of at most `width` columns: the first begins with `first`, the others
 * with `rest` (a hanging indent). A word longer than a line stays whole.
 */
function wrap(text: string, width: number, first = '', rest = first): string[] {
  const lines: string[] = [];
  let line = first;
  let lineHasWord = false;
  for (const word of text.split(' ').filter((part) => part !== '')) {
    if (lineHasWord && line.length + 1 + word.length > width) {
      lines.push(line);
      line = rest;
      lineHasWord = false;
    }
    line += (lineHasWord ? ' ' : '') + word;
    lineHasWord = true;
  }
  lines.push(line);
  return lines;
}

/**
 * A usage line's parts at the top level: `<org>`, `[--ticks N]`, `[--agent A]...`; brackets and
 * parentheses keep what they hold in one part.
 */
function usageParts(usage: string): string[] {
  const parts: string[] = [];
  let part = '';
  let depth = 0;
  for (const character of usage) {
    if (character === ' ' && depth === 0) {
      if (part !== '') parts.push(part);
      part = '';
      continue;
    }
    if (character === '[' || character === '(') depth += 1;
    if (character === ']' || character === ')') depth -= 1;
    part += character;
  }
  if (part !== '') parts.push(part);
  return parts;
}

/** `[--ticks N]` is the option `--ticks N`, `[--agent A]...` is `--agent A...`; an argument is not one. */
function asOption(part: string): string | null {
  const bracketed = /^\[(-.*)\](\.\.\.|…)?$/.exec(part);
  if (bracketed) return bracketed[1]! + (bracketed[2] ?? '');
  return part.startsWith('-') ? part : null;
}

/** A command's usage split into what follows its name: the arguments and the options. */
function usageOf(command: Command): { args: string[]; options: string[] } {
  const [, ...parts] = usageParts(command.usage);
  const args: string[] = [];
  const options: string[] = [];
  for (const part of parts) {
    const option = asOption(part);
    if (option === null) args.push(part);
    else options.push(option);
  }
  return { args, options };
}

/** `lemming help`: every command with its summary, laid out for a terminal `columns` wide. */
export function overviewHelp(columns?: number): string {
  const width = widthFor(columns);
  const nameWidth = Math.max(...commands.map((command) => command.name.length));
  const indent = ' '.repeat(2 + nameWidth + 2);
  return [
    'Usage: lemming <command> [arguments]',
    '',
    'Commands:',
    ...commands.flatMap((command) =>
      wrap(command.summary, width, `  ${command.name.padEnd(nameWidth)}  `, indent),
    ),
    '',
    ...wrap("Run 'lemming help <command>' or 'lemming <command> --help' for the command's options.", width),
    ...wrap('Exit codes: 0 success, 1 failure, 2 usage error.', width),
  ].join('\n');
}

/** A command's usage line and its options list, each a block of lines within `width`. */
function usageBlocks(command: Command, width: number): string[][] {
  const { args, options } = usageOf(command);
  const usage = ['lemming', command.name, ...args, ...(options.length > 0 ? ['[options]'] : [])].join(' ');
  const blocks = [wrap(usage, width, 'Usage: ', ' '.repeat('Usage: '.length))];
  if (options.length > 0)
    blocks.push(['Options:', ...options.flatMap((option) => wrap(option, width, '  ', '      '))]);
  return blocks;
}

const joinBlocks = (blocks: string[][]) => blocks.map((lines) => lines.join('\n')).join('\n\n');

/** After a usage error: the command's usage line and its options, laid out for `columns`. */
export function commandUsage(command: Command, columns?: number): string {
  return joinBlocks(usageBlocks(command, widthFor(columns)));
}

/** `lemming help <command>` and `lemming <command> --help`: its usage, what it does, its options. */
export function commandHelp(command: Command, columns?: number): string {
  const width = widthFor(columns);
  const [usage, ...options] = usageBlocks(command, width);
  return joinBlocks([usage!, wrap(command.summary, width), ...options]);
}
