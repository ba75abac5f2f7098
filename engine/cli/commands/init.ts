import { resolve } from 'node:path';
import { initOrg } from '../../org/init-org';
import { EXIT_OK, UsageError } from '../cli-io';
import { stringOption, type Command } from '../command';

export const initCommand: Command = {
  name: 'init',
  summary: 'Create a new, empty org folder that LeMMing and this app can both run.',
  usage: 'init <folder> [--name NAME] [--force]',
  options: { name: { type: 'string' }, force: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    if (!positionals[0]) throw new UsageError('Give the folder to create the org in.');
    const path = resolve(positionals[0]);
    await initOrg(path, { name: stringOption(values, 'name'), force: values.force === true });
    io.stdout.write(`created an org in ${path}\n`);
    return EXIT_OK;
  },
};
