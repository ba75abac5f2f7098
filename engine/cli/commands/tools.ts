import { UnknownAgentError } from '../../run/org-engine';
import type { ToolVerdict } from '../../tools/policy-resolver';
import { CliFailure, EXIT_OK, printJson, UsageError } from '../cli-io';
import type { Command } from '../command';
import { withEngine } from '../open-engine';
import { orgFolder } from '../org-arg';

function agentArgument(positionals: string[]): string {
  const agent = positionals[1];
  if (!agent) throw new UsageError('Give the agent after the org folder.');
  return agent;
}

/** Unknown agents are failures (exit 1), not usage errors. */
async function unknownAgentIsFailure<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => Promise.reject(error instanceof UnknownAgentError ? new CliFailure(error.message) : error));
}

function describe(verdict: ToolVerdict): string {
  const mark = verdict.available ? 'yes' : 'no ';
  const failing = verdict.layers.find((layer) => !layer.passed);
  const why = verdict.available ? '' : `${failing?.layer}: ${failing?.reason}`;
  const fix = verdict.fix ? `\n      fix: ${verdict.fix.summary}` : verdict.available ? '' : '\n      no setting makes it available';
  const note = verdict.note ? `\n      note: ${verdict.note}` : '';
  return `  ${mark}  ${verdict.name.padEnd(16)} ${verdict.kind.padEnd(8)} ${why}${fix}${note}`;
}

export const toolsCommand: Command = {
  name: 'tools',
  summary: "Explain an agent's tools: which it has, and for each it lacks, which layer refuses it, why, and the fix.",
  usage: 'tools <org> <agent> [--json]',
  options: { json: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const agent = agentArgument(positionals);
    const { verdicts, skills } = await withEngine(org, io, async (engine) => ({
      verdicts: await unknownAgentIsFailure(engine.explainTools(agent)),
      skills: await engine.explainSkills(agent),
    }));
    if (values.json) {
      printJson(io, { agent, tools: verdicts, skills: skills.skills, skillProblems: skills.problems });
      return EXIT_OK;
    }
    io.stdout.write(`Tools of ${agent} (available, name, kind, reason):\n`);
    for (const verdict of [...verdicts].sort((a, b) => Number(b.available) - Number(a.available))) io.stdout.write(`${describe(verdict)}\n`);
    if (skills.skills.length > 0 || skills.problems.length > 0) {
      io.stdout.write(`Skills of ${agent}:\n`);
      for (const skill of skills.skills) {
        const usable = skill.usability.usable ? 'yes' : 'no ';
        const why = skill.usability.usable ? skill.description : `${skill.usability.reason}${skill.usability.fix ? `\n      fix: ${skill.usability.fix}` : ''}`;
        io.stdout.write(`  ${usable}  ${skill.name.padEnd(16)} ${why}\n`);
      }
      for (const problem of skills.problems) io.stdout.write(`  ${problem.severity}: ${problem.file}${problem.line !== undefined ? `:${problem.line}` : ''} ${problem.field ? `(${problem.field}) ` : ''}${problem.message}\n`);
    }
    return EXIT_OK;
  },
};

export const callCommand: Command = {
  name: 'call',
  summary: 'Run one tool as an agent, with every check an agent turn has; prints the result as JSON (a failed tool still exits 0).',
  usage: "call <org> <agent> <tool> ['<json args>']",
  options: {},
  async run({ positionals }, io) {
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
    const result = await withEngine(org, io, (engine) => unknownAgentIsFailure(engine.callTool(agent, tool, args)));
    printJson(io, result);
    return EXIT_OK;
  },
};
