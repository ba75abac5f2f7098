import { resolve } from 'node:path';
import { BUNDLE_CHOICES, type BundleIncludes } from '../../api/bundle-schemas';
import { exportBundle } from '../../app/bundle-export';
import { importBundle, inspectBundle } from '../../app/bundle-import';
import { manifestLines } from '../../app/bundle-words';
import { EXIT_OK, printJson, UsageError, type CommandIo } from '../cli-io';
import { stringOption, type CommandCode, type ParsedCommandArgs } from '../command';
import { orgFolder } from '../org-arg';
import { answerOf, cliTrustStore, secretsFileOption, withOrgReader } from '../org-context';
import { cliSecretStore } from './secrets';

const WITH_WORDS = ['memory', 'outboxes', 'history', 'workspaces', 'everything'] as const;

function includesOf(values: ParsedCommandArgs['values']): BundleIncludes {
  const asked = values.with;
  const list = (Array.isArray(asked) ? asked : asked === undefined ? [] : [asked]).flatMap((value: unknown) =>
    String(value).split(','),
  );
  const includes: BundleIncludes = { ...BUNDLE_CHOICES.structure };
  for (const word of list) {
    if (!(WITH_WORDS as readonly string[]).includes(word))
      throw new UsageError(`--with takes ${WITH_WORDS.join(', ')}; not "${word}".`);
    if (word === 'everything') Object.assign(includes, BUNDLE_CHOICES.everything);
    else if (word === 'memory') Object.assign(includes, { memory: true, outboxes: true });
    else includes[word as keyof BundleIncludes] = true;
  }
  return includes;
}

async function exportRun({ positionals, values }: ParsedCommandArgs, io: CommandIo): Promise<number> {
  const org = await orgFolder(positionals[1]);
  const file = positionals[2];
  if (!file) throw new UsageError('Give the bundle file to write, e.g. my-org.lemming.zip.');
  const { store } = await cliSecretStore(io, values, [org]);
  const department = stringOption(values, 'department');
  const includes = includesOf(values);
  const manifest = await withOrgReader(org, io, (reader) =>
    answerOf(
      exportBundle(
        {
          orgPath: org,
          secrets: store,
          ...(reader.timeline ? { writeTimeline: (path: string) => reader.timeline!.exportJsonl(path) } : {}),
        },
        file,
        { includes, ...(department !== undefined ? { department } : {}) },
      ),
    ),
  );
  if (values.json) printJson(io, manifest);
  else
    io.stdout.write(
      `${[`Wrote ${resolve(file)}: ${manifest.files.length} files.`, ...manifestLines(manifest, [])].join('\n')}\n`,
    );
  return EXIT_OK;
}

async function inspectRun({ positionals, values }: ParsedCommandArgs, io: CommandIo): Promise<number> {
  const file = positionals[1];
  if (!file) throw new UsageError('Give the bundle file to inspect.');
  const { store } = await cliSecretStore(io, values);
  const inspection = await answerOf(inspectBundle({ secrets: store }, file));
  if (values.json) printJson(io, inspection);
  else io.stdout.write(`${manifestLines(inspection.manifest, inspection.missingSecrets).join('\n')}\n`);
  return EXIT_OK;
}

async function importRun({ positionals, values }: ParsedCommandArgs, io: CommandIo): Promise<number> {
  const [, file, folder] = positionals;
  if (!file || !folder) throw new UsageError('Give the bundle file and the folder to import it into.');
  const { store } = await cliSecretStore(io, values);
  const target = values.into
    ? ({ kind: 'into', orgPath: await orgFolder(folder) } as const)
    : ({ kind: 'new', folder: resolve(folder) } as const);
  const imported = await answerOf(importBundle({ secrets: store, trust: cliTrustStore(io) }, file, target));
  if (values.json) printJson(io, imported);
  else {
    const lines = [
      `Imported ${imported.written.length} files into ${imported.orgPath}.`,
      ...manifestLines(imported.manifest, imported.missingSecrets),
      '',
      'The org is not trusted: nothing in it runs until you have looked at what it would run and trusted it:',
      `  lemming trust ${JSON.stringify(imported.orgPath)}`,
    ];
    if (imported.missingSecrets.length > 0)
      lines.push(
        `Set the secrets it needs first: ${imported.missingSecrets.map((name) => `lemming secret set ${name}`).join('; ')}`,
      );
    io.stdout.write(`${lines.join('\n')}\n`);
  }
  return EXIT_OK;
}

/**
 * `lemming bundle export <org> <file>`, `bundle import <file> <folder> [--into]` and `bundle inspect
 * <file>`: an org (or one department) as one .lemming.zip, without secrets or run state
 * (docs/BUNDLE-FORMAT.md).
 */
export const bundleCommand: CommandCode = {
  options: {
    department: { type: 'string' },
    with: { type: 'string', multiple: true },
    into: { type: 'boolean' },
    json: { type: 'boolean' },
    ...secretsFileOption,
  },
  async run(args, io) {
    const action = args.positionals[0];
    if (action === 'export') return exportRun(args, io);
    if (action === 'import') return importRun(args, io);
    if (action === 'inspect') return inspectRun(args, io);
    throw new UsageError(
      `Say what to do: bundle export, bundle import or bundle inspect${action ? ` (not "${action}")` : ''}.`,
    );
  },
};
