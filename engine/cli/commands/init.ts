import { resolve } from 'node:path';
import { initOrg } from '../../app/init-org';
import { createOrgFromTemplate, templateGallery } from '../../app/templates';
import { trustCreatedOrg } from '../../app/trust';
import { mayRun, orgTrust } from '../../trust/org-trust';
import { cliTrustStore } from '../org-context';
import { CliFailure, EXIT_OK, UsageError, type CommandIo } from '../cli-io';
import { stringOption, type CommandCode } from '../command';
import { templatesFolder } from '../shipped-templates';

export const initCommand: CommandCode = {
  options: {
    name: { type: 'string' },
    'into-existing': { type: 'boolean' },
    template: { type: 'string' },
    'list-templates': { type: 'boolean' },
  },
  async run({ positionals, values }, io) {
    if (values['list-templates'] === true) return listTemplates(io);
    if (!positionals[0]) throw new UsageError('Give the folder to create the org in.');
    const template = stringOption(values, 'template');
    if (template !== undefined) return initFromTemplate(template, positionals[0], values, io);
    const name = stringOption(values, 'name');
    const result = await initOrg(resolve(positionals[0]), {
      ...(name ? { name } : {}),
      force: values['into-existing'] === true,
    });
    if (!result.ok) throw new CliFailure(result.error.map((problem) => problem.message).join('\n'));
    await trustCreatedOrg({ orgPath: result.value.path, trust: cliTrustStore(io) }, result.value.created);
    io.stdout.write(
      `created an org in ${result.value.path}${result.value.kept.length > 0 ? ` (kept ${result.value.kept.length} existing files)` : ''}\n`,
    );
    return EXIT_OK;
  },
};

async function listTemplates(io: CommandIo): Promise<number> {
  const gallery = await templateGallery(templatesFolder());
  if (!gallery.ok) throw new CliFailure(gallery.error.message);
  for (const card of gallery.value.templates) {
    io.stdout.write(`${card.name}  ${card.title}: ${card.purpose}\n`);
    for (const agent of card.agents) io.stdout.write(`    ${agent.title}: ${agent.does}\n`);
  }
  for (const problem of gallery.value.problems)
    io.stderr.write(`${problem.template}: cannot be used: ${problem.message}\n`);
  io.stdout.write('\nCreate one with: lemming init <folder> --template NAME\n');
  return EXIT_OK;
}

async function initFromTemplate(
  template: string,
  folder: string,
  values: Record<string, string | boolean | undefined>,
  io: CommandIo,
): Promise<number> {
  if (values.name !== undefined || values['into-existing'] !== undefined)
    throw new UsageError(
      '--template makes a whole org in an empty folder; it takes no --name or --into-existing.',
    );
  const created = await createOrgFromTemplate(templatesFolder(), template, folder);
  if (!created.ok) throw new CliFailure([created.error.message, created.error.fix].filter(Boolean).join(' '));
  const path = JSON.stringify(created.value.path);
  const trust = await orgTrust(created.value.path, cliTrustStore(io));
  io.stdout.write(
    [
      `created an org from the template “${template}” in ${created.value.path}`,
      ...(mayRun(trust)
        ? []
        : [`It runs nothing until you trust it; see what it can reach with: lemming trust ${path}`]),
      `Its agents start on scripted answers, offline: lemming run ${path} --ticks 5`,
      '',
    ].join('\n'),
  );
  return EXIT_OK;
}
