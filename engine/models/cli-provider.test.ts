import { mkdir, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProvider } from './create-provider';
import { parseModelsFile, type ProviderConfig } from './models-file';
import { callError, modelEntry, testDeps } from './test-support/provider-test-kit';
import type { ChatMessage, ModelRequest } from './types';

const NODE = process.execPath;
/** A program that prints the arguments it was given, as JSON. */
const PRINT_ARGS = [NODE, '-e', 'process.stdout.write(JSON.stringify(process.argv.slice(1)))', '--'];

let orgPath: string;
beforeEach(async () => {
  orgPath = await mkdtemp(join(tmpdir(), 'cli-provider-'));
});
afterEach(async () => {
  await rm(orgPath, { recursive: true, force: true });
});

const ask = (...contents: string[]): ModelRequest => ({
  model: 'cli',
  messages: contents.map((content): ChatMessage => ({ role: 'user', content })),
});

function cli(config: ProviderConfig, env: Record<string, string | undefined> = { PATH: process.env.PATH }) {
  return createProvider(modelEntry('cli', config, 'cli-test'), testDeps([], { orgPath, env }));
}

describe('cli provider', () => {
  it('passes the last message as one extra argument and never grows the command between calls', async () => {
    const provider = cli({ command: PRINT_ARGS });

    const answers = [];
    for (const prompt of ['one', 'two words', 'three; rm -rf /'])
      answers.push(await provider.complete(ask('earlier message', prompt)));

    expect(answers.map((answer) => JSON.parse(answer.text))).toEqual([
      ['one'],
      ['two words'],
      ['three; rm -rf /'],
    ]);
    expect(answers[0]).toMatchObject({ toolCalls: [], usage: null, finishReason: 'stop', raw: '["one"]' });
    expect(provider.nativeTools).toBe(false);
  });

  it('keeps stdout as it is, trailing newline included, like LeMMing', async () => {
    const provider = cli({ command: [NODE, '-e', 'console.log(process.argv[1])'] });
    expect((await provider.complete(ask('Please get me a spec for the login page.'))).text).toBe(
      'Please get me a spec for the login page.\n',
    );
  });

  it('refuses a prompt starting with "-" without running the program', async () => {
    const marker = join(orgPath, 'ran');
    const provider = cli({
      command: [NODE, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'x')`],
    });

    const error = await callError(provider.complete(ask('--output=/etc/passwd')));

    expect(error).toMatchObject({ kind: 'refused', retryable: false });
    expect(error.message).toContain('starts with "-"');
    await expect(stat(marker)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('passes a "-" prompt through when prevent_arg_injection is false', async () => {
    const provider = cli({ command: PRINT_ARGS, prevent_arg_injection: false });
    expect(JSON.parse((await provider.complete(ask('-allowed_flag'))).text)).toEqual(['-allowed_flag']);
  });

  it('appends stderr after a failing exit, as LeMMing does', async () => {
    const provider = cli({
      command: [
        NODE,
        '-e',
        'process.stdout.write("partial"); process.stderr.write("quota exceeded"); process.exit(3)',
      ],
    });
    const response = await provider.complete(ask('go'));
    expect(response.text).toBe('partial\n[STDERR]: quota exceeded');
    expect(response.finishReason).toBe('exit_3');
    expect(response.raw).toBe('partial');
  });

  it('ignores stderr when the program succeeds', async () => {
    const provider = cli({
      command: [NODE, '-e', 'process.stdout.write("fine"); process.stderr.write("a warning")'],
    });
    expect((await provider.complete(ask('go'))).text).toBe('fine');
  });

  it('kills a program that runs past the timeout, and what it started', async () => {
    const pidFile = join(orgPath, 'grandchild.pid');
    const script = `const c = require('child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      require('fs').writeFileSync(${JSON.stringify(pidFile)}, String(c.pid)); setInterval(() => {}, 1000);`;
    const provider = cli({ command: [NODE, '-e', script], timeout: 1 });

    const error = await callError(provider.complete(ask('go')));

    expect(error).toMatchObject({ kind: 'timeout', retryable: true });
    expect(error.message).toContain('did not finish within 1000 ms');
    if (process.platform !== 'win32') {
      const grandchild = Number(await readFile(pidFile, 'utf8'));
      await expect.poll(() => isAlive(grandchild), { timeout: 5_000 }).toBe(false);
    }
  });

  it('stops the program when the call is cancelled', async () => {
    const provider = cli({ command: [NODE, '-e', 'setInterval(() => {}, 1000)'] });
    const controller = new AbortController();
    const pending = callError(provider.complete({ ...ask('go'), signal: controller.signal }));
    setTimeout(() => controller.abort(), 200);
    expect(await pending).toMatchObject({ kind: 'cancelled' });
  });

  it('gives the program only safe variables plus the configured ones, never API keys', async () => {
    const provider = cli(
      {
        command: [NODE, '-e', 'process.stdout.write(JSON.stringify(process.env))'],
        env: { GREETING: 'hello' },
      },
      {
        PATH: process.env.PATH,
        HOME: '/home/someone',
        OPENAI_API_KEY: 'sk-secret',
        ANTHROPIC_API_KEY: 'sk-ant-secret',
      },
    );
    const env = JSON.parse((await provider.complete(ask('go'))).text) as Record<string, string>;
    expect(env).toMatchObject({ GREETING: 'hello', HOME: '/home/someone', PATH: process.env.PATH });
    expect(Object.values(env).join('\n')).not.toContain('secret');
  });

  it('runs in the org folder, or in cwd relative to it', async () => {
    await mkdir(join(orgPath, 'tools'));
    const printCwd = [NODE, '-e', 'process.stdout.write(process.cwd())'];
    expect((await cli({ command: printCwd }).complete(ask('go'))).text).toBe(orgPath);
    expect((await cli({ command: printCwd, cwd: 'tools' }).complete(ask('go'))).text).toBe(
      join(orgPath, 'tools'),
    );
  });

  it('splits a string command like shlex, quotes included', async () => {
    const models = parseModelsFile(
      JSON.stringify({
        'cli-echo': {
          provider: 'cli',
          model_name: 'node',
          provider_config: {
            command: `"${NODE}" -e 'process.stdout.write(JSON.stringify(process.argv.slice(1)))' fixed`,
          },
        },
      }),
    );
    const [entry] = models.entries;
    expect(entry).toBeDefined();
    const provider = createProvider(entry!, testDeps([], { orgPath, env: { PATH: process.env.PATH } }));
    expect(JSON.parse((await provider.complete(ask('prompt'))).text)).toEqual(['fixed', 'prompt']);
  });

  it('reports a missing command or program as configuration errors', async () => {
    const noCommand = await callError(cli({}).complete(ask('go')));
    expect(noCommand).toMatchObject({ kind: 'config' });
    expect(noCommand.message).toContain('needs provider_config.command');

    const notFound = await callError(cli({ command: ['no-such-program-lemming-test'] }).complete(ask('go')));
    expect(notFound).toMatchObject({ kind: 'config' });
    expect(notFound.message).toBe(
      `model "cli-test": cannot run "no-such-program-lemming-test" in ${orgPath}: the program was not found`,
    );
  });
});

/** A zombie waiting for its new parent to reap it counts as dead. */
async function isAlive(pid: number): Promise<boolean> {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  if (process.platform !== 'linux') return true;
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  return stat !== '' && !/^\d+ \(.*\) Z/.test(stat);
}
