import { fromMicros } from '../../credits/credit-amount';
import { discoverAgents } from '../../org/discover';
import { firesAt, nextFiringTicks } from '../../org/schedule';
import { CliFailure, EXIT_OK, printJson, UsageError } from '../cli-io';
import { stringOption, type Command } from '../command';
import { CreditLedger } from '../../credits/ledger';
import { heldMessage, runLockHolder } from '../../org/org-lock';
import { orgFolder } from '../org-arg';
import { answerOf, secretsFileOption, withOrgContext } from '../org-context';
import { formatProblem } from '../../api/problem';
import { creditBalances, creditHistory } from '../../app/credits';
import { topUp } from '../../app/org';
import { nextTickToRead, openTimelineToRead } from '../read-only-org';

export const statusCommand: Command = {
  name: 'status',
  summary: "Show the next tick, each agent's schedule, balance and last turn, and invalid resumes.",
  usage: 'status <org> [--json]',
  options: { json: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const discovered = await discoverAgents(org);
    // Read-only: status never takes the run lock and never writes to the org.
    const { timeline, note } = openTimelineToRead(org);
    const status = await (async () => {
      const tick = await nextTickToRead(org, timeline);
      const ledger = timeline ? new CreditLedger(timeline.db) : null;
      const lastTurns = new Map(
        (
          (timeline?.db
            .prepare(
              'SELECT agent, tick, status FROM turns WHERE rowid IN (SELECT max(rowid) FROM turns GROUP BY agent)',
            )
            .all() ?? []) as { agent: string; tick: number; status: string }[]
        ).map((row) => [row.agent, { tick: row.tick, status: row.status }]),
      );
      return {
        org,
        nextTick: tick,
        runningBy: runLockHolder(org),
        agents: discovered.map((agent) => {
          if (!agent.valid)
            return { folder: agent.folder, name: agent.name, valid: false, problems: agent.problems };
          const balance = ledger?.balance(agent.resume.name) ?? null;
          return {
            folder: agent.folder,
            name: agent.resume.name,
            title: agent.resume.title,
            valid: true,
            model: agent.resume.model.key,
            firesNextTick: firesAt(tick, agent.resume.schedule),
            nextFiringTicks: nextFiringTicks(agent.resume.schedule, tick, 3),
            credits: balance === null ? null : fromMicros(balance),
            lastTurn: lastTurns.get(agent.resume.name) ?? null,
          };
        }),
      };
    })().finally(() => timeline?.close());
    if (note) io.stderr.write(`note: ${note}\n`);
    if (values.json) {
      printJson(io, status);
      return EXIT_OK;
    }
    io.stdout.write(`${status.org}\nnext tick: ${status.nextTick}\n`);
    if (status.runningBy) io.stdout.write(`${heldMessage(status.runningBy)}\n`);
    for (const agent of status.agents) {
      if (!agent.valid) {
        io.stdout.write(`  ${agent.name}  INVALID: ${agent.problems?.map(formatProblem).join('; ')}\n`);
        continue;
      }
      const last = agent.lastTurn
        ? `last turn tick ${agent.lastTurn.tick} ${agent.lastTurn.status}`
        : 'has not run';
      io.stdout.write(
        `  ${agent.name}  ${agent.title}  credits ${agent.credits ?? '(not yet seeded)'}  next fires ${agent.nextFiringTicks?.join(', ')}  ${last}\n`,
      );
    }
    return EXIT_OK;
  },
};

export const creditsCommand: Command = {
  name: 'credits',
  summary: 'Show balances and recent ledger entries, or top an agent up.',
  usage: 'credits <org> [show [AGENT] | top-up AGENT AMOUNT] [--reason TEXT] [--json] [--secrets-file PATH]',
  options: { reason: { type: 'string' }, json: { type: 'boolean' }, ...secretsFileOption },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const [action = 'show', agent, amountText] = positionals.slice(1);
    if (action === 'top-up') {
      if (!agent || amountText === undefined) throw new UsageError('top-up needs an agent and an amount.');
      const amount = Number(amountText);
      if (!Number.isFinite(amount) || amount <= 0)
        throw new UsageError(`The amount must be a positive number, not "${amountText}".`);
      const reason = stringOption(values, 'reason') ?? 'top-up';
      const topped = await withOrgContext(org, io, values, (context) =>
        answerOf(topUp(context, { agent, amount, reason })),
      );
      if (values.json) printJson(io, topped);
      else io.stdout.write(`${topped.agent}: ${topped.balance} credits\n`);
      return EXIT_OK;
    }
    if (action !== 'show') throw new UsageError(`Unknown credits action "${action}": use show or top-up.`);
    const report = await withOrgContext(org, io, values, async (context) => {
      const balances = await answerOf(creditBalances(context));
      if (!agent) return { balances };
      const own = balances.filter((balance) => balance.agent === agent);
      if (own.length === 0) throw new CliFailure(`There is no agent named "${agent}" in ${org}.`);
      return { balances: own, history: creditHistory(context, { agent, limit: 50 }).entries };
    });
    if (values.json) printJson(io, report);
    else {
      for (const balance of report.balances)
        io.stdout.write(`${balance.agent}: ${balance.balance ?? '(not yet seeded)'}\n`);
      for (const entry of report.history ?? [])
        io.stdout.write(
          `  #${entry.id} ${entry.time} ${entry.kind} ${entry.amount > 0 ? '+' : ''}${entry.amount} → ${entry.balance} (${entry.reason})\n`,
        );
    }
    return EXIT_OK;
  },
};
