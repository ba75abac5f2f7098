import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../run/test-support/temp-org';
import { commands } from './commands';
import { main } from './main';
import { runLemmingProcess } from './test-support/run-cli';

/** `lemming <argv>` in this process, its stdout laid out for a terminal `columns` wide (none: not a terminal). */
async function lemming(argv: string[], columns?: number) {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    columns,
  });
  return { code, stdout, stderr };
}

const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));
/** Every word of `text`, in order, whatever the line breaks and the indent. */
const words = (text: string) => text.split(/\s+/).filter((word) => word !== '');

describe('lemming help is laid out for the terminal it is in', () => {
  it('lists every command with its whole summary within 80 columns when not a terminal', async () => {
    const help = await lemming(['help']);
    expect(help.code).toBe(0);
    expect(widest(help.stdout)).toBeLessThanOrEqual(80);
    for (const command of commands) {
      const entry = new RegExp(`^ {2}${command.name} +(.*(?:\\n {3,}.*)*)`, 'm').exec(help.stdout);
      expect(words(entry![1]!), command.name).toEqual(words(command.summary));
    }
    expect(help.stdout).toContain("Run 'lemming help <command>' or 'lemming <command> --help'");
  });

  it('uses a wider terminal, and keeps a narrow one readable', async () => {
    const wide = await lemming(['help'], 120);
    expect(widest(wide.stdout)).toBeLessThanOrEqual(120);
    expect(widest(wide.stdout)).toBeGreaterThan(100);
    expect(wide.stdout).toMatch(/^ {2}tick {8}Run exactly one tick\.$/m);
    expect(widest((await lemming(['help'], 20)).stdout)).toBeLessThanOrEqual(40);
  });

  it('the real command piped: within 80 columns', async () => {
    const help = await runLemmingProcess(['help']);
    expect(help.code).toBe(0);
    expect(widest(help.stdout)).toBeLessThanOrEqual(80);
  });

  it.skipIf(process.platform !== 'linux')(
    "the real command in a terminal 120 columns wide: the terminal's width",
    async () => {
      // util-linux `script` gives the command a pseudo-terminal, sized with stty.
      const lemmingPath = join(REPO_ROOT, 'bin', 'lemming.mjs');
      const { stdout } = await promisify(execFile)(
        'script',
        ['-qec', `stty cols 120 rows 50; '${process.execPath}' '${lemmingPath}' help`, '/dev/null'],
        { cwd: REPO_ROOT },
      );
      const lines = stdout.replaceAll('\r', '');
      expect(widest(lines)).toBeLessThanOrEqual(120);
      expect(widest(lines)).toBeGreaterThan(100);
    },
  );

  it("every command's help and --help name its options, within 80 columns", async () => {
    for (const command of commands) {
      const help = await lemming(['help', command.name]);
      const dashHelp = await lemming([command.name, '--help']);
      expect(help, command.name).toMatchObject({ code: 0, stderr: '' });
      expect(dashHelp.stdout, command.name).toBe(help.stdout);
      expect(widest(help.stdout), command.name).toBeLessThanOrEqual(80);
      expect(words(help.stdout).join(' '), command.name).toContain(words(command.summary).join(' '));
      for (const option of command.usage.match(/--[a-z-]+/g) ?? [])
        expect(help.stdout, `${command.name} ${option}`).toContain(option);
    }
  });

  it('help run lists the options of run, one a line', async () => {
    const help = await lemming(['help', 'run']);
    expect(help.stdout).toMatch(/^Usage: lemming run <org> \[options\]\n/);
    for (const option of ['--ticks N', '--interval SECONDS', '--concurrency N', '--follow', '--json'])
      expect(help.stdout).toContain(`\n  ${option}\n`);
  });

  it('a usage error shows the command’s usage and options; an unknown command the list', async () => {
    const wrong = await lemming(['run', '--tciks', '3']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/^lemming run: Unknown option '--tciks'/);
    expect(wrong.stderr).toContain('Usage: lemming run <org> [options]\n\nOptions:\n  --ticks N\n');
    const unknown = await lemming(['help', 'rnu']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/^lemming: unknown command "rnu"\.\n\nUsage: lemming <command>/);
  });
});
