import { parseArgs } from 'node:util';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, redactingIo, UsageError, type CliIo } from './cli-io';
import type { CommandCode } from './command';
import { commands } from './commands';
import { installLastResort } from './last-resort';

function usage(): string {
  const width = Math.max(...commands.map((command) => command.usage.length));
  return [
    'Usage: lemming <command> [arguments]',
    '',
    'Commands:',
    ...commands.map((command) => `  ${command.usage.padEnd(width)}  ${command.summary}`),
    '',
    'Exit codes: 0 success, 1 failure, 2 usage error.',
  ].join('\n');
}

/**
 * Runs one `lemming` command line and returns its exit code. Never throws. The binary asks for the
 * process-wide `lastResort` (see last-resort.ts); a caller that shares its process does not.
 */
export async function main(
  argv: readonly string[],
  callerIo: CliIo,
  options: { lastResort?: boolean } = {},
): Promise<number> {
  const io = redactingIo(callerIo);
  const [name, ...rest] = argv;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') {
    (name === undefined ? io.stderr : io.stdout).write(`${usage()}\n`);
    return name === undefined ? EXIT_USAGE : EXIT_OK;
  }
  const command = commands.find((candidate) => candidate.name === name);
  if (!command) {
    io.stderr.write(`lemming: unknown command "${name}".\n\n${usage()}\n`);
    return EXIT_USAGE;
  }
  if (options.lastResort) installLastResort(command.name, io.stderr);
  try {
    const code = await command.load();
    const parsed = parseCommandArgs(code, rest);
    if (parsed.values.help) {
      io.stdout.write(`Usage: lemming ${command.usage}\n${command.summary}\n`);
      return EXIT_OK;
    }
    return await code.run(parsed, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`lemming ${command.name}: ${error.message}\nUsage: lemming ${command.usage}\n`);
      return EXIT_USAGE;
    }
    const message = error instanceof Error ? error.message : String(error);
    io.stderr.write(`lemming ${command.name}: ${message}\n`);
    return EXIT_FAILURE;
  }
}

function parseCommandArgs(command: CommandCode, args: string[]) {
  try {
    const { values, positionals } = parseArgs({
      args,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
    return { values: values as Record<string, string | boolean | undefined>, positionals };
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}
