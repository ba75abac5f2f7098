import { formatProblem } from '../../api/problem';
import { getAgent, updateAgent } from '../../app/agents';
import { agentList } from '../../app/org';
import { EXIT_OK, printJson, UsageError } from '../cli-io';
import { stringOption, type CommandCode } from '../command';
import { orgFolder } from '../org-arg';
import { answerOf, secretsFileOption, withOrgContext } from '../org-context';

export const agentsCommand: CommandCode = {
  options: {
    json: { type: 'boolean' },
    'switch-off': { type: 'string' },
    'switch-on': { type: 'string' },
    ...secretsFileOption,
  },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const switchOff = stringOption(values, 'switch-off');
    const switchOn = stringOption(values, 'switch-on');
    if (switchOff !== undefined && switchOn !== undefined)
      throw new UsageError('Give --switch-off or --switch-on, not both.');
    const switched = switchOff ?? switchOn;
    if (switched !== undefined) {
      const agent = await withOrgContext(org, io, values, (context) =>
        answerOf(updateAgent(context, { agent: switched, patch: { switched_off: switchOff !== undefined } })),
      );
      if (values.json) printJson(io, agent);
      else
        io.stdout.write(
          `${agent.name} is switched ${agent.resume?.switched_off ? 'off: it takes no turns until switched on' : 'on'}; next turn ${agent.nextDue?.words ?? 'unknown'}.\n`,
        );
      return EXIT_OK;
    }
    const name = positionals[1];
    if (name !== undefined) {
      const agent = await withOrgContext(org, io, values, (context) => answerOf(getAgent(context, name)));
      if (values.json) printJson(io, agent);
      else {
        io.stdout.write(`${agent.name} (${agent.file}): ${agent.state.words}`);
        io.stdout.write(`${agent.balance === null ? '' : `, ${agent.balance} credits`}\n`);
        if (agent.nextDue) io.stdout.write(`  next turn: ${agent.nextDue.words}\n`);
        for (const problem of [...agent.problems, ...agent.warnings])
          io.stdout.write(`  ${formatProblem(problem)}\n`);
      }
      return EXIT_OK;
    }
    const agents = await withOrgContext(org, io, values, (context) => answerOf(agentList(context)));
    if (values.json) {
      printJson(io, agents);
      return EXIT_OK;
    }
    for (const agent of agents) {
      io.stdout.write(
        `  ${agent.valid ? 'valid  ' : 'INVALID'}  ${agent.name}${agent.title ? `  ${agent.title}` : ''}\n`,
      );
      if (agent.valid) io.stdout.write(`      ${agent.state.words}\n`);
      for (const problem of agent.problems) io.stdout.write(`      error: ${formatProblem(problem)}\n`);
      for (const problem of agent.warnings) io.stdout.write(`      warning: ${formatProblem(problem)}\n`);
    }
    return EXIT_OK;
  },
};
