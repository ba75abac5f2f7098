import { resolve } from 'node:path';
import { initOrg } from '../../app/init-org';
import { trustCreatedOrg } from '../../app/trust';
import { cliTrustStore } from '../org-context';
import { CliFailure, EXIT_OK, UsageError } from '../cli-io';
import { stringOption, type CommandCode } from '../command';

export const initCommand: CommandCode = {
  options: { name: { type: 'string' }, 'into-existing': { type: 'boolean' } },
  async run({ positionals, values }, io) {
    if (!positionals[0]) throw new UsageError('Give the folder to create the org in.');
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
