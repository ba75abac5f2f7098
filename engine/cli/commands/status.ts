import { CliFailure, EXIT_OK, printJson, UsageError } from '../cli-io';
import { stringOption, type CommandCode } from '../command';
import { heldMessage } from '../../org/org-lock';
import { orgFolder } from '../org-arg';
import { answerOf, secretsFileOption, withOrgContext, withOrgReader } from '../org-context';
import { formatProblem } from '../../api/problem';
import { creditBalances, creditHistory } from '../../app/credits';
import { topUp } from '../../app/org';
import { resumeBudget } from '../../app/budgets';
import type { CreditBalance } from '../../api/credit-schemas';
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
    if (action === 'resume') {
      if (!agent) throw new UsageError('resume needs the agent paused over a budget.');
      const resumed = await withOrgContext(org, io, values, (context) =>
        answerOf(resumeBudget(context, { agent })),
      );
      if (values.json) printJson(io, resumed);
      else if (resumed.resumed === 0) io.stdout.write(`${agent} is not paused over a budget.\n`);
      else
        io.stdout.write(`${agent} resumed: it may spend one more budget for the rest of the day or month.\n`);
      return EXIT_OK;
    }
    if (action !== 'show')
      throw new UsageError(`Unknown credits action "${action}": use show, top-up or resume.`);
    const report = await withOrgContext(org, io, values, async (context) => {
      const balances = await answerOf(creditBalances(context));
      if (!agent) return { balances };
      const own = balances.filter((balance) => balance.agent === agent);
      if (own.length === 0) throw new CliFailure(`There is no agent named "${agent}" in ${org}.`);
      return { balances: own, history: creditHistory(context, { agent, limit: 50 }).entries };
    });
    if (values.json) printJson(io, report);
    else {
      for (const balance of report.balances) io.stdout.write(creditLines(balance));
      for (const entry of report.history ?? [])
        io.stdout.write(
          `  #${entry.id} ${entry.time} ${entry.kind} ${entry.amount > 0 ? '+' : ''}${entry.amount} → ${entry.balance} (${entry.reason})\n`,
        );
    }
    return EXIT_OK;
  },
};

/** An agent's balance, what its unpriced model used, its budgets and whether one pauses it. */
function creditLines(balance: CreditBalance): string {
  const lines = [`${balance.agent}: ${balance.balance ?? '(not yet seeded)'}`];
  const { unpriced } = balance;
  if (unpriced)
    lines.push(
      `  model ${unpriced.model}: unpriced (no prices in models.json), ${unpriced.calls} calls, ${unpriced.inputTokens} tokens in, ${unpriced.outputTokens} tokens out`,
    );
  for (const budget of balance.budgets)
    if (budget.budget === 'soft_cap')
      lines.push(
        `  soft cap ${budget.limit}: ${budget.spent} spent since it was last given credits${budget.warned ? ' (reached)' : ''}`,
      );
    else
      lines.push(
        `  ${budget.scope === 'org' ? "org's budget" : 'budget'} ${budget.words}: ${budget.spent} of ${budget.limit} spent (${budget.period})${budget.cannotSee.length > 0 ? `; cannot see ${budget.cannotSee.join(', ')} (unpriced)` : ''}`,
      );
  if (balance.overBudget)
    lines.push(`  ${balance.overBudget} (lemming credits <org> resume ${balance.agent})`);
  return `${lines.join('\n')}\n`;
}
