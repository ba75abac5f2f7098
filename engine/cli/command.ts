import type { ParseArgsConfig } from 'node:util';
import type { CommandIo } from './cli-io';

export type OptionSpec = NonNullable<ParseArgsConfig['options']>;

export interface ParsedCommandArgs {
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
}

/** A command as `lemming help` lists it; its code is loaded when it runs. */
export interface Command {
  name: string;
  summary: string;
  /** The line after `lemming `, e.g. `run <org> --ticks N`. */
  usage: string;
  load(): Promise<CommandCode>;
}

/** What a command does: its options and its run. */
export interface CommandCode {
  options: OptionSpec;
  /** Returns the exit code. Throws UsageError or CliFailure for the two kinds of error. */
  run(args: ParsedCommandArgs, io: CommandIo): Promise<number>;
}

export const stringOption = (values: ParsedCommandArgs['values'], name: string): string | undefined => {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
};
