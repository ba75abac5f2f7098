import { formatProblem } from '../../api/problem';
import type { ToolVerdict } from '../../api/tool-schemas';
import { explainSkills, type AgentSkills } from '../../app/skills';
import { callTool, explainTools } from '../../app/tools';
import { approvalPolicies, cliApprovalAsker, FORM_OPTIONS } from '../approval-answers';
import { EXIT_OK, printJson, UsageError, type CliIo } from '../cli-io';
import type { CommandCode } from '../command';
import { answerOf, secretsFileOption, withOrgContext } from '../org-context';
import { orgFolder } from '../org-arg';

function agentArgument(positionals: string[]): string {
  const agent = positionals[1];
  if (!agent) throw new UsageError('Give the agent after the org folder.');
  return agent;
}

function describe(verdict: ToolVerdict): string {
  const mark = verdict.available ? 'yes' : 'no ';
  const failing = verdict.layers.find((layer) => !layer.passed);
  const why = verdict.available ? '' : `${failing?.layer}: ${failing?.reason}`;
  const fix = verdict.fix
    ? `\n      fix: ${verdict.fix.summary}`
    : verdict.available
      ? ''
      : '\n      no setting makes it available';
  const note = verdict.note ? `\n      note: ${verdict.note}` : '';
  return `  ${mark}  ${verdict.name.padEnd(16)} ${verdict.kind.padEnd(8)} ${why}${fix}${note}`;
}

function printSkills(io: CliIo, { agent, skills, problems }: AgentSkills): void {
  if (skills.length === 0 && problems.length === 0) return;
  io.stdout.write(`Skills of ${agent}:\n`);
  for (const skill of skills) {
    const usable = skill.usability.usable ? 'yes' : 'no ';
    const why = skill.usability.usable
      ? skill.description
      : `${skill.usability.reason}${skill.usability.fix ? `\n      fix: ${skill.usability.fix}` : ''}`;
    io.stdout.write(`  ${usable}  ${skill.name.padEnd(16)} ${why}\n`);
  }
  for (const problem of problems) io.stdout.write(`  ${problem.severity}: ${formatProblem(problem)}\n`);
}

export const toolsCommand: CommandCode = {
  options: { json: { type: 'boolean' }, ...secretsFileOption },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const agent = agentArgument(positionals);
    const { explanation, skills } = await withOrgContext(org, io, values, async (context) => ({
      explanation: await answerOf(explainTools(context, agent)),
      skills: await answerOf(explainSkills(context, agent)),
    }));
    if (values.json) {
      printJson(io, { ...explanation, skills: skills.skills, skillProblems: skills.problems });
      return EXIT_OK;
    }
    io.stdout.write(`Tools of ${agent} (available, name, kind, reason):\n`);
    const verdicts = [...explanation.tools].sort((a, b) => Number(b.available) - Number(a.available));
    for (const verdict of verdicts) io.stdout.write(`${describe(verdict)}\n`);
    printSkills(io, skills);
    return EXIT_OK;
  },
};

export const callCommand: CommandCode = {
  options: { ...secretsFileOption, ...FORM_OPTIONS },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const agent = agentArgument(positionals);
    const tool = positionals[2];
    if (!tool) throw new UsageError('Give the tool to call after the agent.');
    let args: unknown = {};
    if (positionals[3] !== undefined) {
      try {
        args = JSON.parse(positionals[3]);
      } catch (error) {
        throw new UsageError(`The tool arguments are not valid JSON: ${(error as Error).message}`);
      }
    }
    const result = await withOrgContext(org, io, values, (context) =>
      answerOf(callTool(context, { agent, tool, args }, cliApprovalAsker(io, approvalPolicies(values)))),
    );
    printJson(io, result);
    return EXIT_OK;
  },
};
