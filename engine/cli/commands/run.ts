import type { TurnProgress } from '../../api/model-event-schemas';
import { formatProblem } from '../../api/problem';
import type { TickReport } from '../../api/run-schemas';
import { SKIP_REASON_WORDS } from '../../api/schedule-schemas';
import { listAgents } from '../../app/org';
import { runToEnd, stepRun } from '../../app/run';
import { CliFailure, EXIT_OK, printJson, UsageError, type CliIo } from '../cli-io';
import { stringOption, type CommandCode } from '../command';
import { APPROVAL_OPTIONS, approvalPolicies, cliApprovalAsker } from '../approval-answers';
import { orgFolder, positiveInteger } from '../org-arg';
import { answerOf, withOrgContext } from '../org-context';
import { runElsewhereMessage } from '../run-elsewhere';
import { invalidAgentLabel } from '../../org/discover';
import { historyGapNote } from '../../app/org-reader';

function printTick(io: CliIo, report: TickReport, org: string): void {
  for (const turn of report.resumed ?? [])
    io.stdout.write(
      `${turn.agent}'s turn of tick ${turn.tick}, given your answer, went on: ${turn.status}\n`,
    );
  const turns = report.turns
    .map((turn) => `${turn.agent} ${turn.status}${turn.reason ? ` (${SKIP_REASON_WORDS[turn.reason]})` : ''}`)
    .join(', ');
  io.stdout.write(`tick ${report.tick}: ${turns || 'no agent fired'}\n`);
  for (const turn of report.turns.filter((parked) => parked.status === 'parked'))
    io.stdout.write(
      `  ${turn.agent}'s turn waits for your answer (the others go on): lemming approvals ${org}\n`,
    );
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
      // What was printed stays on the terminal: say that it does not count.
      else if (delta.type === 'restart')
        this.write(`${this.midLine ? '\n' : ''}(that answer broke off; the model is asked again)\n`);
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

/** Says at once who runs the org, before the secrets and the engine are opened (which then take the lock for good). */
function refuseIfRunElsewhere(org: string): void {
  const message = runElsewhereMessage(org);
  if (message) throw new CliFailure(message);
}

export const runCommand: CommandCode = {
  options: {
    ...APPROVAL_OPTIONS,
    ticks: { type: 'string' },
    interval: { type: 'string' },
    concurrency: { type: 'string' },
    follow: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const ticks = positiveInteger(stringOption(values, 'ticks'), '--ticks', 1);
    const intervalText = stringOption(values, 'interval');
    const interval = intervalText === undefined ? 0 : Number(intervalText);
    if (!Number.isFinite(interval) || interval < 0)
      throw new UsageError(`--interval must be a number of seconds, not "${intervalText}".`);
    // Unset, the turns in flight at once follow what the model servers allow (OrgEngine's default).
    const concurrencyText = stringOption(values, 'concurrency');
    const concurrency =
      concurrencyText === undefined ? undefined : positiveInteger(concurrencyText, '--concurrency', 1);
    const approvals = cliApprovalAsker(io, approvalPolicies(values));
    refuseIfRunElsewhere(org);
    const gap = await historyGapNote(org);
    if (gap) io.stderr.write(`note: ${gap}\n`);
    const reports: TickReport[] = [];
    const follow = values.follow ? new ProgressPrinter(io, Boolean(values.json)) : undefined;
    const invalidResumes = (await answerOf(listAgents(org)))
      .filter((agent) => !agent.valid)
      .map(({ folder, name, problems, unreadable }) => ({
        folder,
        name,
        problems,
        ...(unreadable ? { unreadable } : {}),
      }));
    if (!values.json) {
      for (const agent of invalidResumes) {
        const [first, ...rest] = agent.problems;
        if (agent.unreadable) {
          io.stdout.write(
            `unreadable resume, ${agent.name}'s turns are skipped until it can be read: ${first ? formatProblem(first) : agent.folder}\n`,
          );
          continue;
        }
        io.stdout.write(
          `invalid resume, ${invalidAgentLabel(agent)} will not run: ${first ? formatProblem(first) : agent.folder}${rest.length > 0 ? ` (and ${rest.length} more: lemming validate)` : ''}\n`,
        );
      }
    }
    await withOrgContext(
      org,
      io,
      values,
      (context) => answerOf(runToEnd(context, { ticks, intervalMs: interval * 1000 })),
      // The run lock comes before anything else: a second run of the org is refused at once, before any model call.
      {
        ...(concurrency === undefined ? {} : { concurrency }),
        program: 'lemming run',
        claimRun: true,
        approvals,
        onTick: (report) => {
          reports.push(report);
          if (values.json) return;
          follow?.endLine();
          printTick(io, report, org);
        },
        ...(follow ? { onProgress: follow.print } : {}),
      },
    );
    if (values.json) printJson(io, { invalidResumes, ticks: reports });
    return EXIT_OK;
  },
};

export const tickCommand: CommandCode = {
  options: { json: { type: 'boolean' }, ...APPROVAL_OPTIONS },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const approvals = cliApprovalAsker(io, approvalPolicies(values));
    refuseIfRunElsewhere(org);
    const { report } = await withOrgContext(org, io, values, (context) => answerOf(stepRun(context)), {
      program: 'lemming tick',
      claimRun: true,
      approvals,
    });
    if (values.json) printJson(io, report);
    else printTick(io, report, org);
    return EXIT_OK;
  },
};
