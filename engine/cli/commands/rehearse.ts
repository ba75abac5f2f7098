import { rehearse } from '../../app/rehearse';
import type { RehearsalSummary } from '../../api/rehearsal-schemas';
import { EXIT_OK, printJson, UsageError } from '../cli-io';
import type { CommandCode } from '../command';
import { orgFolder } from '../org-arg';
import { answerOf, secretsFileOption, withOrgContext } from '../org-context';

export const rehearseCommand: CommandCode = {
  options: { json: { type: 'boolean' }, ...secretsFileOption },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const agent = positionals[1];
    if (!agent) throw new UsageError('Give the agent whose turn to rehearse.');
    const summary = await withOrgContext(org, io, values, (context) =>
      answerOf(rehearse(context, { agent })),
    );
    if (values.json) printJson(io, summary);
    else io.stdout.write(formatRehearsal(summary));
    return EXIT_OK;
  },
};

function formatRehearsal(rehearsal: RehearsalSummary): string {
  const lines = [
    `Rehearsal of ${rehearsal.agent}'s turn (as tick ${rehearsal.asTick}): ${rehearsal.status}. Nothing was done.`,
    ...(rehearsal.problem ? [rehearsal.problem] : []),
    rehearsal.wouldDo.length === 0 ? 'It would have done nothing.' : 'What it would have done:',
    ...rehearsal.wouldDo.map(
      (action) => `  Would do: ${action.title}${action.target ? ` ${action.target}` : ''}`,
    ),
    rehearsal.costWords,
    `Its record is event ${rehearsal.seq} of the timeline; the app's inspector shows the whole turn.`,
  ];
  return `${lines.join('\n')}\n`;
}
