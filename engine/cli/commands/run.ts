import { setTimeout as sleep } from 'node:timers/promises';
import type { TickReport } from '../../run/org-engine';
import { DEFAULT_TURN_CONCURRENCY } from '../../run/provider-concurrency';
import { EXIT_OK, printJson, UsageError, type CliIo } from '../cli-io';
import { stringOption, type Command } from '../command';
import { withEngine } from '../open-engine';
import { orgFolder, positiveInteger } from '../org-arg';

function printTick(io: CliIo, report: TickReport): void {
  const turns = report.turns.map((turn) => `${turn.agent} ${turn.status}`).join(', ');
  io.stdout.write(`tick ${report.tick}: ${turns || 'no agent fired'}\n`);
}

export const runCommand: Command = {
  name: 'run',
  summary: 'Run the org for N ticks (default 1), offline-safe; resumes where the last run stopped.',
  usage: 'run <org> [--ticks N] [--interval SECONDS] [--concurrency N] [--json]',
  options: { ticks: { type: 'string' }, interval: { type: 'string' }, concurrency: { type: 'string' }, json: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const ticks = positiveInteger(stringOption(values, 'ticks'), '--ticks', 1);
    const intervalText = stringOption(values, 'interval');
    const interval = intervalText === undefined ? 0 : Number(intervalText);
    if (!Number.isFinite(interval) || interval < 0) throw new UsageError(`--interval must be a number of seconds, not "${intervalText}".`);
    const concurrency = positiveInteger(stringOption(values, 'concurrency'), '--concurrency', DEFAULT_TURN_CONCURRENCY);
    const reports: TickReport[] = [];
    await withEngine(
      org,
      io,
      async (engine) => {
        for (let index = 0; index < ticks; index += 1) {
          if (index > 0 && interval > 0) await sleep(interval * 1000);
          const report = await engine.runTick();
          reports.push(report);
          if (!values.json) printTick(io, report);
        }
      },
      { concurrency },
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
