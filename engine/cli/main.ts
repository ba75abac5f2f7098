import { parseArgs } from 'node:util';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE, redactingIo, UsageError, type CliIo } from './cli-io';
import type { CommandCode } from './command';
import { commands } from './commands';
import { commandHelp, commandUsage, overviewHelp } from './help';
import { installLastResort } from './last-resort';

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
  const columns = callerIo.columns;
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(`${overviewHelp(columns)}\n`);
    return EXIT_USAGE;
  }
  const asksHelp = name === 'help' || name === '--help' || name === '-h';
  const named = asksHelp ? rest[0] : name;
  if (asksHelp && named === undefined) {
    io.stdout.write(`${overviewHelp(columns)}\n`);
    return EXIT_OK;
  }
  const command = commands.find((candidate) => candidate.name === named);
  if (!command) {
    io.stderr.write(`lemming: unknown command "${named}".\n\n${overviewHelp(columns)}\n`);
    return EXIT_USAGE;
  }
  if (asksHelp) {
    io.stdout.write(`${commandHelp(command, columns)}\n`);
    return EXIT_OK;
  }
  if (options.lastResort) installLastResort(command.name, io.stderr);
  try {
    const code = await command.load();
    const parsed = parseCommandArgs(code, rest);
    if (parsed.values.help) {
      io.stdout.write(`${commandHelp(command, columns)}\n`);
      return EXIT_OK;
    }
    return await code.run(parsed, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`lemming ${command.name}: ${error.message}\n${commandUsage(command, columns)}\n`);
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
