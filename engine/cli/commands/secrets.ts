import { openHeadlessSecretStore } from '../../secrets/headless-secret-store';
import { SECRET_VARIABLE_PREFIX } from '../../secrets/env-secret-store';
import { SECRETS_FILE_VARIABLE } from '../../secrets/secrets-file-variable';
import { MIN_REDACTED_LENGTH } from '../../secrets/secret-spellings';
import { revealAll, type SecretStore } from '../../secrets/secret-store';
import type { SecretsAccess } from '../../app/org-context';
import { deleteSecret, listSecrets, setSecret } from '../../app/secrets';
import { grantToOrg, type TrustContext } from '../../app/trust';
import { SecretName } from '../../api/secret-name';
import type { SecretListItem } from '../../api/settings-schemas';
import { orgFolder } from '../org-arg';
import { answerOf, cliTrustStore } from '../org-context';
import { CliFailure, EXIT_OK, printJson, UsageError, type CliIo, type CommandIo } from '../cli-io';
import { stringOption, type CommandCode, type ParsedCommandArgs } from '../command';

/** What `secret set` reads a value from; the process's stdin unless the caller (a test) passes its own. */
interface SecretInput extends AsyncIterable<string | Buffer> {
  isTTY?: boolean;
  setRawMode?(raw: boolean): unknown;
  setEncoding?(encoding: BufferEncoding): unknown;
  on(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  off(event: 'data', listener: (chunk: string | Buffer) => void): unknown;
  resume?(): unknown;
  pause?(): unknown;
}
type SecretCliIo = CommandIo & { stdin?: SecretInput };

const NO_FILE = `no secrets file: give --secrets-file PATH or set ${SECRETS_FILE_VARIABLE} (secrets from ${SECRET_VARIABLE_PREFIX}* variables are read-only)`;

/** The secret store a CLI command uses; warnings about the file go to stderr. */
export async function cliSecretStore(
  io: CommandIo,
  values: ParsedCommandArgs['values'],
  orgPaths: readonly string[] = [],
): Promise<{ store: SecretStore; file: string | null }> {
  const opened = await openHeadlessSecretStore({
    file: stringOption(values, 'secrets-file'),
    env: io.env,
    orgPaths,
  });
  if (!opened.ok) throw new CliFailure(opened.error);
  io.redactSecrets(await revealAll(opened.value.store));
  for (const warning of opened.value.warnings) io.stderr.write(`warning: ${warning}\n`);
  return opened.value;
}

/**
 * The CLI's secrets for the use-cases. A secret set meanwhile (a server added with its values) is
 * redacted from the command's output from then on, as those it opened with are.
 */
export const cliSecretsAccess = (store: SecretStore, io: CommandIo): SecretsAccess => ({
  store,
  changed: async () => io.redactSecrets(await revealAll(store)),
});

function nameArgument(positionals: string[], action: string): string {
  const name = positionals[1];
  if (!name)
    throw new UsageError(
      `Give the name of the secret to ${action}, e.g. lemming secret ${action} GITHUB_TOKEN.`,
    );
  if (positionals.length > 2)
    throw new UsageError(
      `Unexpected "${positionals[2]}": the value is read from stdin or --value, never from the arguments.`,
    );
  return name;
}

/** The org a grant, a revoke or a list names with --org, and the person's trust record for it. */
async function orgOption(io: CliIo, values: ParsedCommandArgs['values']): Promise<TrustContext | null> {
  const org = stringOption(values, 'org');
  return org === undefined ? null : { orgPath: await orgFolder(org), trust: cliTrustStore(io) };
}

async function list(io: CommandIo, values: ParsedCommandArgs['values']): Promise<number> {
  const org = await orgOption(io, values);
  const listed = await answerOf(
    listSecrets(
      cliSecretsAccess((await cliSecretStore(io, values, org ? [org.orgPath] : [])).store, io),
      org,
    ),
  );
  if (values.json) {
    printJson(io, listed);
    return EXIT_OK;
  }
  const { secrets } = listed;
  if (secrets.length === 0) {
    io.stdout.write(
      `No secrets in ${listed.store.location}.\nAdd one with: lemming secret set NAME --secrets-file PATH\n`,
    );
    return EXIT_OK;
  }
  const width = Math.max(4, ...secrets.map((secret) => secret.name.length));
  const granted = (secret: SecretListItem) =>
    secret.grantedToOrg === null ? '' : `  ${(secret.grantedToOrg ? 'yes' : 'no').padEnd(7)}`;
  io.stdout.write(`${'NAME'.padEnd(width)}  ${'UPDATED'.padEnd(24)}${org ? '  GRANTED' : ''}  SOURCE\n`);
  for (const secret of secrets)
    io.stdout.write(
      `${secret.name.padEnd(width)}  ${(secret.updatedAt ?? '-').padEnd(24)}${granted(secret)}  ${secret.source ?? 'not set'}\n`,
    );
  return EXIT_OK;
}

/** `secret grant|revoke NAME --org ORG`: whether the org may use the secret, whichever store holds it. */
async function grant(
  io: CommandIo,
  positionals: string[],
  values: ParsedCommandArgs['values'],
  granted: boolean,
): Promise<number> {
  const action = granted ? 'grant' : 'revoke';
  const name = nameArgument(positionals, action);
  const checked = SecretName.safeParse(name);
  if (!checked.success)
    throw new UsageError(`"${name}" is not a secret name: ${checked.error.issues[0]?.message ?? 'invalid'}.`);
  const org = await orgOption(io, values);
  if (!org)
    throw new UsageError(`Say which org with --org, e.g. lemming secret ${action} ${name} --org my-org.`);
  await answerOf(grantToOrg(org, { kind: 'secret', name, granted }));
  io.stdout.write(
    granted
      ? `The org ${org.orgPath} may now use the secret ${name}.\n`
      : `The org ${org.orgPath} may no longer use the secret ${name}.\n`,
  );
  if (granted && !(await (await cliSecretStore(io, values, [org.orgPath])).store.has(name)))
    io.stderr.write(`note: ${name} is not set yet; set it with: lemming secret set ${name}\n`);
  return EXIT_OK;
}

async function set(
  io: SecretCliIo,
  positionals: string[],
  values: ParsedCommandArgs['values'],
): Promise<number> {
  const name = nameArgument(positionals, 'set');
  const { store, file } = await cliSecretStore(io, values);
  if (file === null) throw new UsageError(NO_FILE);
  const given = stringOption(values, 'value');
  const value = given ?? (await readValue(io, name));
  const changed = await answerOf(setSecret(cliSecretsAccess(store, io), name, value));
  io.stdout.write(`${changed.existed ? 'Replaced' : 'Set'} ${name} in the secrets file ${file}.\n`);
  if ([...value].length < MIN_REDACTED_LENGTH)
    io.stderr.write(
      `warning: ${name} is shorter than ${MIN_REDACTED_LENGTH} characters, so it is not redacted from tool results, logs and the timeline.\n`,
    );
  return EXIT_OK;
}

async function remove(
  io: CommandIo,
  positionals: string[],
  values: ParsedCommandArgs['values'],
): Promise<number> {
  const name = nameArgument(positionals, 'delete');
  const { store, file } = await cliSecretStore(io, values);
  if (file === null) throw new UsageError(NO_FILE);
  const changed = await answerOf(deleteSecret(cliSecretsAccess(store, io), name));
  const fromEnvironment = `the environment variable ${SECRET_VARIABLE_PREFIX}${name}`;
  if (!changed.existed) {
    throw new CliFailure(
      (await store.has(name))
        ? `${name} is not in the secrets file ${file}; it comes from ${fromEnvironment}, which this command cannot change`
        : `there is no secret ${name} in the secrets file ${file}`,
    );
  }
  io.stdout.write(`Deleted ${name} from the secrets file ${file}.\n`);
  if (await store.has(name)) io.stdout.write(`${name} is still set by ${fromEnvironment}.\n`);
  return EXIT_OK;
}

/** The value from stdin: typed without echo at a terminal, else everything piped in, less one final newline. */
async function readValue(io: SecretCliIo, name: string): Promise<string> {
  const input: SecretInput = io.stdin ?? process.stdin;
  const value = input.isTTY && input.setRawMode ? await readHidden(input, io, name) : await readAll(input);
  if (value === null) throw new CliFailure('cancelled; nothing was changed');
  if (value === '')
    throw new UsageError(
      `No value was given for ${name}: pipe it in (e.g. from a password manager) or type it when asked.`,
    );
  return value;
}

async function readAll(input: SecretInput): Promise<string> {
  let text = '';
  for await (const chunk of input) text += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
  return text.replace(/\r?\n$/, '');
}

/** Reads a line at a terminal with echo off (raw mode); Ctrl-C or Ctrl-D on an empty line cancels (null). */
function readHidden(input: SecretInput, io: CliIo, name: string): Promise<string | null> {
  return new Promise((resolve) => {
    let value = '';
    const finish = (result: string | null) => {
      input.off('data', onData);
      input.setRawMode?.(false);
      input.pause?.();
      io.stderr.write('\n');
      resolve(result);
    };
    const onData = (chunk: string | Buffer) => {
      for (const character of typeof chunk === 'string' ? chunk : chunk.toString('utf8')) {
        if (character === '\r' || character === '\n') return finish(value);
        if (character === '\u0003' || (character === '\u0004' && value === '')) return finish(null);
        if (character === '\u007f' || character === '\b') value = [...value].slice(0, -1).join('');
        else value += character;
      }
    };
    // Echo goes off before the prompt appears, so nothing typed in answer to it is ever shown.
    input.setRawMode?.(true);
    io.stderr.write(`Value for ${name} (not shown): `);
    input.setEncoding?.('utf8');
    input.on('data', onData);
    input.resume?.();
  });
}

export const secretCommand: CommandCode = {
  options: {
    'secrets-file': { type: 'string' },
    value: { type: 'string' },
    json: { type: 'boolean' },
    org: { type: 'string' },
  },
  async run({ positionals, values }, io) {
    const action = positionals[0];
    switch (action) {
      case 'list':
        if (positionals.length > 1) throw new UsageError('lemming secret list takes no name.');
        return list(io, values);
      case 'set':
        return set(io, positionals, values);
      case 'delete':
        return remove(io, positionals, values);
      case 'grant':
        return grant(io, positionals, values, true);
      case 'revoke':
        return grant(io, positionals, values, false);
      default:
        throw new UsageError(
          action === undefined
            ? 'Say what to do: list, set, delete, grant or revoke.'
            : `Unknown action "${action}": use list, set, delete, grant or revoke.`,
        );
    }
  },
};
