import { fromMicros } from '../../credits/credit-amount';
import { discoverAgents } from '../../org/discover';
import { firesAt, nextFiringTicks } from '../../org/schedule';
import { CliFailure, EXIT_OK, printJson, UsageError } from '../cli-io';
import { stringOption, type Command } from '../command';
import { orgFolder } from '../org-arg';
import { answerOf, secretsFileOption, withOrgContext } from '../org-context';
import { creditBalances, creditHistory } from '../../app/credits';
import { topUp } from '../../app/org';

export const statusCommand: Command = {
  name: 'status',
  summary: "Show the next tick, each agent's schedule, balance and last turn, and invalid resumes.",
  usage: 'status <org> [--json] [--secrets-file PATH]',
  options: { json: { type: 'boolean' }, ...secretsFileOption },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const discovered = await discoverAgents(org);
    const status = await withOrgContext(org, io, values, async (context) => {
      const tick = await context.engine.currentTick();
      return {
        org,
        nextTick: tick,
        agents: discovered.map((agent) => {
          if (!agent.valid) return { folder: agent.folder, name: agent.name, valid: false, problems: agent.problems };
          const balance = context.engine.ledger.balance(agent.resume.name);
          return {
            folder: agent.folder,
            name: agent.resume.name,
            title: agent.resume.title,
            valid: true,
            model: agent.resume.model.key,
            firesNextTick: firesAt(tick, agent.resume.schedule),
            nextFiringTicks: nextFiringTicks(agent.resume.schedule, tick, 3),
            credits: balance === null ? null : fromMicros(balance),
            lastTurn: context.turnStatus.latest(agent.resume.name),
          };
        }),
      };
    });
    if (values.json) {
      printJson(io, status);
      return EXIT_OK;
    }
    io.stdout.write(`${status.org}\nnext tick: ${status.nextTick}\n`);
    for (const agent of status.agents) {
      if (!agent.valid) {
        io.stdout.write(`  ${agent.name}  INVALID: ${agent.problems?.map((problem) => `${problem.field ? `${problem.field}: ` : ''}${problem.message}`).join('; ')}\n`);
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
