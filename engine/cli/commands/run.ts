import type { TurnProgress } from '../../api/model-event-schemas';
import { setTimeout as sleep } from 'node:timers/promises';
import type { TickReport } from '../../run/org-engine';
import { EXIT_OK, printJson, UsageError, type CliIo } from '../cli-io';
import { stringOption, type Command } from '../command';
import { withEngine } from '../open-engine';
import { orgFolder, positiveInteger } from '../org-arg';

function printTick(io: CliIo, report: TickReport): void {
  const turns = report.turns.map((turn) => `${turn.agent} ${turn.status}`).join(', ');
  io.stdout.write(`tick ${report.tick}: ${turns || 'no agent fired'}\n`);
}

/**
 * `--follow`: each model answer as it is written. Text goes to stdout under a line naming the agent and
 * model call whenever the writer changes; with --json, one JSON line per piece goes to stderr instead,
 * so stdout stays one JSON document.
 */
class ProgressPrinter {
  private writer = '';
  private midLine = false;

  constructor(
    private readonly io: CliIo,
    private readonly json: boolean,
  ) {}

  readonly print = (progress: TurnProgress): void => {
    if (this.json) {
      this.io.stderr.write(`${JSON.stringify(progress)}\n`);
      return;
    }
    const who = `${progress.turn}#${progress.round}`;
    for (const delta of progress.deltas) {
      if (this.writer !== who) {
        this.endLine();
        this.io.stdout.write(`[tick ${progress.tick}] ${progress.agent}, model call ${progress.round}:\n`);
        this.writer = who;
      }
      if (delta.type === 'text') this.write(delta.text);
      else if (delta.name) this.write(`${this.midLine ? '\n' : ''}(calling ${delta.name}…)\n`);
    }
  };

  /** Ends a half-written line, so what is printed next starts on its own. */
  endLine(): void {
    if (this.midLine) this.write('\n');
    this.writer = '';
  }

  private write(text: string): void {
    if (text === '') return;
    this.io.stdout.write(text);
    this.midLine = !text.endsWith('\n');
  }
}

export const runCommand: Command = {
  name: 'run',
  summary: 'Run the org for N ticks (default 1), offline-safe; resumes where the last run stopped.',
  usage: 'run <org> [--ticks N] [--interval SECONDS] [--concurrency N] [--follow] [--json]',
  options: { ticks: { type: 'string' }, interval: { type: 'string' }, concurrency: { type: 'string' }, follow: { type: 'boolean' }, json: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const ticks = positiveInteger(stringOption(values, 'ticks'), '--ticks', 1);
    const intervalText = stringOption(values, 'interval');
    const interval = intervalText === undefined ? 0 : Number(intervalText);
    if (!Number.isFinite(interval) || interval < 0) throw new UsageError(`--interval must be a number of seconds, not "${intervalText}".`);
    const concurrency = positiveInteger(stringOption(values, 'concurrency'), '--concurrency', 4);
    const reports: TickReport[] = [];
    const follow = values.follow ? new ProgressPrinter(io, Boolean(values.json)) : undefined;
    await withEngine(
      org,
      io,
      async (engine) => {
        for (let index = 0; index < ticks; index += 1) {
          if (index > 0 && interval > 0) await sleep(interval * 1000);
          const report = await engine.runTick();
          reports.push(report);
          if (!values.json) {
            follow?.endLine();
            printTick(io, report);
          }
        }
      },
      { concurrency, ...(follow ? { onProgress: follow.print } : {}) },
    );
    if (values.json) printJson(io, { ticks: reports });
    return EXIT_OK;
  },
};

export const tickCommand: Command = {
  name: 'tick',
  summary: 'Run exactly one tick.',
  usage: 'tick <org> [--json]',
  options: { json: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const report = await withEngine(org, io, (engine) => engine.runTick());
    if (values.json) printJson(io, report);
    else printTick(io, report);
    return EXIT_OK;
  },
};
