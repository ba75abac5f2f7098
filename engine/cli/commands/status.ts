import { CliFailure, EXIT_OK, printJson, UsageError } from '../cli-io';
import { stringOption, type CommandCode } from '../command';
import { heldMessage } from '../../org/org-lock';
import { orgFolder } from '../org-arg';
import { answerOf, secretsFileOption, withOrgContext, withOrgReader } from '../org-context';
import { formatProblem } from '../../api/problem';
import { creditBalances, creditHistory } from '../../app/credits';
import { topUp } from '../../app/org';
import { orgStatusReport } from '../../app/org-status';

export const statusCommand: CommandCode = {
  options: { json: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const status = await withOrgReader(org, io, (reader) => answerOf(orgStatusReport(reader)));
    if (values.json) {
      printJson(io, status);
      return EXIT_OK;
    }
    io.stdout.write(`${status.org}\nnext tick: ${status.nextTick}\n`);
    if (status.runningBy) io.stdout.write(`${heldMessage(status.runningBy)}\n`);
    for (const agent of status.agents) {
      if (!agent.valid) {
        io.stdout.write(`  ${agent.name}  INVALID: ${agent.problems.map(formatProblem).join('; ')}\n`);
        continue;
      }
      const last = agent.lastTurn
        ? `last turn tick ${agent.lastTurn.tick} ${agent.lastTurn.status}`
        : 'has not run';
      io.stdout.write(
        `  ${agent.name}  ${agent.title}  credits ${agent.credits ?? '(not yet seeded)'}  next turn ${agent.nextDue.words}  ${last}\n`,
      );
    }
    return EXIT_OK;
  },
};

export const creditsCommand: CommandCode = {
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
