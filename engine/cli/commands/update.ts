import {
  ApplyOrgUpdateInput,
  type AgentUpdate,
  type OrgUpdatePlan,
  type OrgUpdatePlanInput,
} from '../../api/org-update-schemas';
import { applyOrgUpdate, planOrgUpdate } from '../../app/org-update';
import { templatesFolder } from '../shipped-templates';
import { describeItem } from '../../trust/trust-words';
import { EXIT_OK, printJson, UsageError, type CliIo } from '../cli-io';
import { stringOption, type CommandCode } from '../command';
import { orgFolder } from '../org-arg';
import { answerOf, secretsFileOption, withOrgContext } from '../org-context';

const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];

const STATUS_WORDS: Record<AgentUpdate['status'], string> = {
  changed: 'changes',
  unchanged: 'unchanged',
  added: 'new agent',
  removed: 'not in the newer copy',
};

function printPlan(io: CliIo, plan: OrgUpdatePlan, shown: readonly AgentUpdate[], command: string): void {
  const lines = [`Updating from ${plan.source}`, ''];
  for (const agent of shown.filter((item) => item.status !== 'unchanged')) {
    lines.push(
      `${agent.agent}: ${STATUS_WORDS[agent.status]}${agent.reachAdded.length > 0 ? ' (reaches further)' : ''}`,
    );
    for (const change of agent.changes)
      lines.push(`  ${change.words}${change.widens ? ' (more power)' : ''}`);
    for (const item of agent.reachAdded) lines.push(`  New to trust: ${describeItem(item)}`);
    if (agent.status === 'changed' && agent.instructionsDiff)
      for (const line of agent.instructionsDiff)
        if (line.kind !== 'same') lines.push(`    ${line.kind === 'added' ? '+' : '-'} ${line.text}`);
  }
  const unchanged = shown.filter((item) => item.status === 'unchanged').map((item) => item.agent);
  if (unchanged.length > 0) lines.push(`Unchanged: ${unchanged.join(', ')}`);
  for (const problem of plan.problems) lines.push(`Left out: ${problem.file}: ${problem.message}`);
  const toApply = shown.filter((item) => item.status === 'changed' || item.status === 'added');
  if (toApply.length === 0) lines.push('', 'Nothing to update.');
  else {
    if (toApply.some((item) => item.reachAdded.length > 0))
      lines.push(
        '',
        'Agents marked “reaches further” make the org need your trust again (lemming trust) before it runs.',
      );
    lines.push('', `To apply: ${command} --yes (or name agents with --agent NAME).`);
  }
  io.stdout.write(`${lines.join('\n')}\n`);
}

/** The newer copy: a folder or bundle named with --from, or a template shipped with the command. */
function sourceOf(from: string | undefined, template: string | undefined): OrgUpdatePlanInput {
  if (from && template) throw new UsageError('Give --from or --from-template, not both.');
  if (from) return { source: from };
  if (!template)
    throw new UsageError(
      'Name the newer copy to update from with --from FOLDER|BUNDLE or --from-template NAME.',
    );
  return { template };
}

/**
 * `lemming update <org> --from <folder|bundle>` (or `--from-template NAME`): what updating each agent from
 * a newer copy of the org (a template, a bundle, another copy) would change; `--yes` applies it to the changed and new agents (or
 * those named with --agent), keeping what they learned; `--remove NAME` also removes an agent the newer
 * copy no longer has.
 */
export const updateCommand: CommandCode = {
  options: {
    from: { type: 'string' },
    'from-template': { type: 'string' },
    agent: { type: 'string', multiple: true },
    remove: { type: 'string', multiple: true },
    yes: { type: 'boolean' },
    json: { type: 'boolean' },
    ...secretsFileOption,
  },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const named = sourceOf(stringOption(values, 'from'), stringOption(values, 'from-template'));
    const chosen = names(values.agent);
    const remove = names(values.remove);
    if (remove.length > 0 && !values.yes)
      throw new UsageError('--remove removes agents: give it with --yes.');
    const plan = await answerOf(planOrgUpdate(org, named, 'template' in named ? templatesFolder() : null));
    const from = plan.source;
    const unknown = chosen.filter((name) => !plan.agents.some((agent) => agent.agent === name));
    if (unknown.length > 0)
      throw new UsageError(
        `Neither copy has an agent named ${unknown.map((name) => `"${name}"`).join(', ')}.`,
      );
    const shown =
      chosen.length > 0 ? plan.agents.filter((agent) => chosen.includes(agent.agent)) : plan.agents;
    if (!values.yes) {
      if (values.json) printJson(io, { ...plan, agents: shown });
      else printPlan(io, plan, shown, `lemming update ${JSON.stringify(org)} --from ${JSON.stringify(from)}`);
      return EXIT_OK;
    }
    const input = ApplyOrgUpdateInput.safeParse({
      source: from,
      agents: shown
        .filter((agent) => agent.status === 'changed' || agent.status === 'added')
        .map((agent) => agent.agent),
      remove,
    });
    if (!input.success)
      throw new UsageError(
        input.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
      );
    const applied = await withOrgContext(org, io, values, (context) =>
      answerOf(applyOrgUpdate(context, input.data)),
    );
    if (values.json) printJson(io, applied);
    else {
      const list = (items: readonly string[]) => (items.length > 0 ? items.join(', ') : 'none');
      const lines = [
        `Updated: ${list(applied.updated)}. Added: ${list(applied.added)}. Removed: ${list(applied.removed)}.`,
      ];
      if (applied.needsTrustAgain)
        lines.push(
          'The org can now run or reach more than you trusted:',
          ...applied.reachAdded.map((item) => `  ${item.because}: ${item.subject}`),
          `It will not run until you trust it again: lemming trust ${JSON.stringify(org)}`,
        );
      io.stdout.write(`${lines.join('\n')}\n`);
    }
    return EXIT_OK;
  },
};
