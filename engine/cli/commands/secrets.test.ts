import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, resume, tempOrgs } from '../../run/test-support/temp-org';
import { runCli } from '../test-support/run-cli';

const made: string[] = [];
const orgs = tempOrgs();
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  orgs.cleanup();
});
function secretsFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lemming-cli-secrets-'));
  made.push(dir);
  return join(dir, 'secrets.json');
}

const lemming = runCli;

const VALUE = 'ghp_cli-secret-value-0042';

describe('lemming secret', () => {
  it('set reads the value from stdin without printing it; list shows names and dates only; delete removes it', async () => {
    const file = secretsFile();
    const set = await lemming(['secret', 'set', 'GITHUB_TOKEN', '--secrets-file', file], {
      input: `${VALUE}\n`,
    });
    expect(set).toEqual({ code: 0, stdout: `Set GITHUB_TOKEN in the secrets file ${file}.\n`, stderr: '' });
    expect(JSON.parse(readFileSync(file, 'utf8')).secrets.GITHUB_TOKEN.value).toBe(VALUE);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

    const list = await lemming(['secret', 'list', '--secrets-file', file]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(
      /^NAME\s+UPDATED\s+SOURCE\nGITHUB_TOKEN\s+\d{4}-\d\d-\d\dT[\d:.]+Z\s+file\n$/,
    );
    const json = await lemming(['secret', 'list', '--json'], { env: { LEMMING_SECRETS_FILE: file } });
    expect(JSON.parse(json.stdout).secrets).toEqual([
      {
        name: 'GITHUB_TOKEN',
        isSet: true,
        updatedAt: expect.any(String),
        source: 'file',
        usedBy: [],
        grantedToOrg: null,
      },
    ]);
    for (const output of [set, list, json]) expect(output.stdout + output.stderr).not.toContain(VALUE);

    const replaced = await lemming([
      'secret',
      'set',
      'GITHUB_TOKEN',
      '--value',
      'another-value',
      '--secrets-file',
      file,
    ]);
    expect(replaced.stdout).toBe(`Replaced GITHUB_TOKEN in the secrets file ${file}.\n`);

    expect(await lemming(['secret', 'delete', 'GITHUB_TOKEN', '--secrets-file', file])).toMatchObject({
      code: 0,
      stdout: `Deleted GITHUB_TOKEN from the secrets file ${file}.\n`,
    });
    expect(await lemming(['secret', 'delete', 'GITHUB_TOKEN', '--secrets-file', file])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`there is no secret GITHUB_TOKEN in the secrets file ${file}`),
    });
    expect((await lemming(['secret', 'list', '--secrets-file', file])).stdout).toMatch(
      /^No secrets in the secrets file/,
    );
  });

  it('lists secrets from LEMMING_SECRET_* variables, and says when deleting cannot reach them', async () => {
    const file = secretsFile();
    const env = { LEMMING_SECRETS_FILE: file, LEMMING_SECRET_CI_TOKEN: 'ci-token-value' };
    expect((await lemming(['secret', 'list'], { env })).stdout).toMatch(/^CI_TOKEN\s+-\s+environment$/m);
    expect(await lemming(['secret', 'delete', 'CI_TOKEN'], { env })).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(
        'it comes from the environment variable LEMMING_SECRET_CI_TOKEN, which this command cannot change',
      ),
    });
    await lemming(['secret', 'set', 'CI_TOKEN', '--value', 'file-value'], { env });
    expect(await lemming(['secret', 'delete', 'CI_TOKEN'], { env })).toMatchObject({
      code: 0,
      stdout: expect.stringContaining(
        'CI_TOKEN is still set by the environment variable LEMMING_SECRET_CI_TOKEN.',
      ),
    });
  });

  it('grants a secret to an org and takes it back, whichever store holds it; list --org says which it may use', async () => {
    const file = secretsFile();
    const org = orgs.build({
      'agents/a/resume.json': resume('a'),
      'lemming/config/models.json': {
        gpt: { provider: 'openai', model_name: 'gpt-4o', provider_config: { api_key_secret: 'OPENAI_KEY' } },
      },
    });
    const env = {
      LEMMING_SECRETS_FILE: file,
      LEMMING_CONFIG_DIR: join(file, '..', 'config'),
      LEMMING_SECRET_CI_TOKEN: 'ci-token-value-123',
    };
    await lemming(['secret', 'set', 'GITHUB_TOKEN', '--value', VALUE], { env });
    const listed = async () => (await lemming(['secret', 'list', '--org', org], { env })).stdout;
    expect(await listed()).toMatch(
      /^NAME\s+UPDATED\s+GRANTED\s+SOURCE\nCI_TOKEN\s+-\s+no\s+environment\nGITHUB_TOKEN\s+\S+\s+no\s+file\nOPENAI_KEY\s+-\s+no\s+not set\n$/,
    );

    expect(await lemming(['secret', 'grant', 'GITHUB_TOKEN', '--org', org], { env })).toEqual({
      code: 0,
      stdout: `The org ${org} may now use the secret GITHUB_TOKEN.\n`,
      stderr: '',
    });
    expect(await lemming(['secret', 'grant', 'CI_TOKEN', '--org', org], { env })).toMatchObject({ code: 0 });
    expect(await lemming(['secret', 'grant', 'OPENAI_KEY', '--org', org], { env })).toMatchObject({
      code: 0,
      stderr: 'note: OPENAI_KEY is not set yet; set it with: lemming secret set OPENAI_KEY\n',
    });
    expect(await listed()).toMatch(/^CI_TOKEN\s+-\s+yes\s+environment$/m);
    expect(await listed()).toMatch(/^GITHUB_TOKEN\s+\S+\s+yes\s+file$/m);
    expect(JSON.parse(readFileSync(join(env.LEMMING_CONFIG_DIR, 'trust.json'), 'utf8'))).toMatchObject({
      orgs: {
        [realpathSync(org)]: {
          trusted: null,
          grants: { secrets: ['CI_TOKEN', 'GITHUB_TOKEN', 'OPENAI_KEY'] },
        },
      },
    });

    expect(await lemming(['secret', 'revoke', 'CI_TOKEN', '--org', org], { env })).toEqual({
      code: 0,
      stdout: `The org ${org} may no longer use the secret CI_TOKEN.\n`,
      stderr: '',
    });
    expect(await listed()).toMatch(/^CI_TOKEN\s+-\s+no\s+environment$/m);
    const json = JSON.parse((await lemming(['secret', 'list', '--json', '--org', org], { env })).stdout);
    expect(
      json.secrets.map((secret: { name: string; grantedToOrg: boolean }) => [
        secret.name,
        secret.grantedToOrg,
      ]),
    ).toEqual([
      ['CI_TOKEN', false],
      ['GITHUB_TOKEN', true],
      ['OPENAI_KEY', true],
    ]);

    expect(await lemming(['secret', 'grant', 'GITHUB_TOKEN'], { env })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'Say which org with --org, e.g. lemming secret grant GITHUB_TOKEN --org my-org.',
      ),
    });
    expect(await lemming(['secret', 'grant', 'github-token', '--org', org], { env })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('"github-token" is not a secret name'),
    });
    expect(
      await lemming(['secret', 'grant', 'GITHUB_TOKEN', '--org', join(org, 'nope')], { env }),
    ).toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`No folder at ${join(org, 'nope')}.`),
    });
  });

  it('exits 2 on usage mistakes: no action, no name, a value as an argument, no secrets file, no value', async () => {
    const file = secretsFile();
    expect(await lemming(['secret'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Say what to do: list, set, delete, grant or revoke.'),
    });
    expect(await lemming(['secret', 'show', 'X'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Unknown action "show"'),
    });
    expect(await lemming(['secret', 'set', '--secrets-file', file])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('Give the name of the secret to set'),
    });
    expect(await lemming(['secret', 'set', 'TOKEN', 'inline-value', '--secrets-file', file])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('never from the arguments'),
    });
    expect(await lemming(['secret', 'set', 'TOKEN'], { input: 'value' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining(
        'no secrets file: give --secrets-file PATH or set LEMMING_SECRETS_FILE',
      ),
    });
    expect(await lemming(['secret', 'set', 'TOKEN', '--secrets-file', file], { input: '\n' })).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('No value was given for TOKEN'),
    });
    expect(existsSync(file)).toBe(false);
  });

  it('exits 1 when the store refuses: a bad name, a file inside an org', async () => {
    const file = secretsFile();
    expect(
      await lemming(['secret', 'set', 'github-token', '--value', 'value-1', '--secrets-file', file]),
    ).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('"github-token" is not a valid secret name'),
    });
    const org = join(file, '..', 'org');
    mkdirSync(join(org, 'lemming', 'config'), { recursive: true });
    expect(
      await lemming([
        'secret',
        'set',
        'TOKEN',
        '--value',
        'value-1',
        '--secrets-file',
        join(org, 'secrets.json'),
      ]),
    ).toMatchObject({ code: 1, stderr: expect.stringContaining('is inside the org folder') });
  });

  it('warns that a value too short to redact will not be redacted', async () => {
    const set = await lemming(['secret', 'set', 'PIN', '--secrets-file', secretsFile()], { input: '123' });
    expect(set).toMatchObject({
      code: 0,
      stderr: expect.stringContaining('PIN is shorter than 4 characters, so it is not redacted'),
    });
  });

  it('reads a piped value in a real `npx lemming` process', { timeout: 120_000 }, async () => {
    const file = secretsFile();
    const run = await runProcess(
      ['npx', '--no-install', 'lemming', 'secret', 'set', 'PIPED', '--secrets-file', file],
      `${VALUE}\r\n`,
    );
    expect(run.code, run.output).toBe(0);
    expect(run.output).not.toContain(VALUE);
    expect(JSON.parse(readFileSync(file, 'utf8')).secrets.PIPED.value).toBe(VALUE);
  });

  it.runIf(process.platform === 'linux' && existsSync('/usr/bin/script'))(
    'at a terminal, asks for the value and does not echo what is typed',
    { timeout: 120_000 },
    async () => {
      const file = secretsFile();
      const typed = 'typed-at-terminal-7781';
      const command = `npx --no-install lemming secret set TYPED --secrets-file '${file}'`;
      const run = await runProcess(
        ['/usr/bin/script', '-qec', command, '/dev/null'],
        `${typed}\r`,
        'not shown',
      );
      expect(run.code, run.output).toBe(0);
      expect(run.output).toContain('Value for TYPED (not shown): ');
      expect(run.output).not.toContain(typed);
      expect(JSON.parse(readFileSync(file, 'utf8')).secrets.TYPED.value).toBe(typed);
    },
  );
});

/** Runs a process, writing `input` once its output shows `waitFor` (at once when not given). */
function runProcess(
  argv: string[],
  input: string,
  waitFor?: string,
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd: REPO_ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        npm_config_update_notifier: 'false',
      },
    });
    let output = '';
    let sent = false;
    const send = () => {
      if (sent) return;
      sent = true;
      child.stdin.write(input);
      if (waitFor === undefined) child.stdin.end();
    };
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (waitFor !== undefined && output.includes(waitFor)) send();
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
    if (waitFor === undefined) send();
  });
}
