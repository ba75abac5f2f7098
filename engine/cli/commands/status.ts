import { fromMicros } from '../../credits/credit-amount';
import { discoverAgents } from '../../org/discover';
import { firesAt, nextFiringTicks } from '../../run/schedule';
import { CliFailure, EXIT_OK, printJson, UsageError } from '../cli-io';
import { stringOption, type Command } from '../command';
import { CreditLedger } from '../../credits/ledger';
import { heldMessage, runLockHolder } from '../../org/org-lock';
import { withEngine } from '../open-engine';
import { orgFolder } from '../org-arg';
import { problemLocation } from '../problem-location';
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
        ((timeline?.db.prepare('SELECT agent, tick, status FROM turns WHERE rowid IN (SELECT max(rowid) FROM turns GROUP BY agent)').all() ?? []) as { agent: string; tick: number; status: string }[]).map(
          (row) => [row.agent, { tick: row.tick, status: row.status }],
        ),
      );
      return {
        org,
        nextTick: tick,
        runningBy: runLockHolder(org),
        agents: discovered.map((agent) => {
          if (!agent.valid) return { folder: agent.folder, name: agent.name, valid: false, problems: agent.problems };
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
        io.stdout.write(`  ${agent.name}  INVALID: ${agent.problems?.map((problem) => `${problemLocation(problem)}: ${problem.message}`).join('; ')}\n`);
        continue;
      }
      const last = agent.lastTurn ? `last turn tick ${agent.lastTurn.tick} ${agent.lastTurn.status}` : 'has not run';
      io.stdout.write(`  ${agent.name}  ${agent.title}  credits ${agent.credits ?? '(not yet seeded)'}  next fires ${agent.nextFiringTicks?.join(', ')}  ${last}\n`);
    }
    return EXIT_OK;
  },
};

export const creditsCommand: Command = {
  name: 'credits',
  summary: 'Show balances and recent ledger entries, or top an agent up.',
  usage: 'credits <org> [show [AGENT] | top-up AGENT AMOUNT] [--reason TEXT] [--json]',
  options: { reason: { type: 'string' }, json: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const [action = 'show', agent, amountText] = positionals.slice(1);
    if (action === 'top-up') {
      if (!agent || amountText === undefined) throw new UsageError('top-up needs an agent and an amount.');
      const amount = Number(amountText);
      if (!Number.isFinite(amount) || amount <= 0) throw new UsageError(`The amount must be a positive number, not "${amountText}".`);
      const balance = await withEngine(org, io, (engine) => engine.topUp(agent, amount, stringOption(values, 'reason') ?? 'top-up').catch((error: Error) => Promise.reject(new CliFailure(error.message))));
      if (values.json) printJson(io, { agent, balance });
      else io.stdout.write(`${agent}: ${balance} credits\n`);
      return EXIT_OK;
    }
    if (action !== 'show') throw new UsageError(`Unknown credits action "${action}": use show or top-up.`);
    const report = await withEngine(org, io, async (engine) => {
      const balances = [...engine.ledger.balances()].map(([name, micros]) => ({ agent: name, credits: fromMicros(micros) }));
      if (!agent) return { balances };
      if (!balances.some((balance) => balance.agent === agent)) throw new CliFailure(`The ledger has no agent named "${agent}" (agents appear once the org has run).`);
      const history = engine.ledger.history(agent, { limit: 50 }).map((entry) => ({ ...entry, amount: fromMicros(entry.amountMicro), balance: fromMicros(entry.balanceMicro) }));
      return { balances: balances.filter((balance) => balance.agent === agent), history };
    });
    if (values.json) printJson(io, report);
    else {
      for (const balance of report.balances) io.stdout.write(`${balance.agent}: ${balance.credits}\n`);
      for (const entry of report.history ?? []) io.stdout.write(`  #${entry.id} ${entry.time} ${entry.kind} ${entry.amount > 0 ? '+' : ''}${entry.amount} → ${entry.balance} (${entry.reason})\n`);
    }
    return EXIT_OK;
  },
};
