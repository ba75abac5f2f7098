import { formatProblem } from '../../api/problem';
import { getAgent } from '../../app/agents';
import { agentList } from '../../app/org';
import { EXIT_OK, printJson } from '../cli-io';
import type { CommandCode } from '../command';
import { orgFolder } from '../org-arg';
import { answerOf, secretsFileOption, withOrgContext } from '../org-context';

export const agentsCommand: CommandCode = {
  options: { json: { type: 'boolean' }, ...secretsFileOption },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const name = positionals[1];
    if (name !== undefined) {
      const agent = await withOrgContext(org, io, values, (context) => answerOf(getAgent(context, name)));
      if (values.json) printJson(io, agent);
      else {
        io.stdout.write(`${agent.name} (${agent.file}): ${agent.state.words}`);
        io.stdout.write(`${agent.balance === null ? '' : `, ${agent.balance} credits`}\n`);
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
