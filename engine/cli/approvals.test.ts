import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, resume, tempOrgs } from '../run/test-support/temp-org';
import { cliConfigDir, runCli, runLemmingProcess } from './test-support/run-cli';
import type { ApprovalRequest, FormRequest } from '../api/approval-schemas';
import { cliApprovalAsker, parseTerminalAnswer } from './approval-answers';
import type { CliIo } from './cli-io';

const LEMMING = join(REPO_ROOT, 'bin', 'lemming.mjs');
const orgs = tempOrgs();
afterEach(() => orgs.cleanup());

const lemming = (args: string[]) => runLemmingProcess(args);

/**
 * An agent granted the shell whose model asks to run `echo hi > made.txt`, then reports what it was told;
 * trusted by its person (`lemming trust --yes`), since an agent with the shell needs trust.
 */
async function shellOrg(): Promise<string> {
  const org = orgs.build({
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'script.json': {
      agents: {
        a: [
          {
            when: { round: 1 },
            respond: { tool_calls: [{ tool: 'shell', args: { command: 'echo hi > made.txt' } }] },
          },
          { respond: { notes: 'read the tool results' } },
        ],
      },
    },
    'agents/a/resume.json': resume('a', { permissions: { read_outboxes: [], tools: ['shell'] } }),
    'agents/a/workspace/.keep': '',
  });
  expect((await runCli(['trust', org, '--yes'])).code).toBe(0);
  return org;
}

function events(org: string): { kind: string; json: string }[] {
  const db = new Database(join(org, '.lemming', 'timeline.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT kind, json FROM events ORDER BY seq').all() as { kind: string; json: string }[];
  } finally {
    db.close();
  }
}

/** The prompt of the model call after the tool round: what the model was told. */
function secondPrompt(org: string): string {
  const call = events(org)
    .filter((event) => event.kind === 'model_call')
    .map((event) => JSON.parse(event.json) as { round: number; prompt: unknown })
    .find((event) => event.round === 2);
  return JSON.stringify(call?.prompt ?? null);
}

describe('lemming run and "ask me first"', () => {
  it('--deny shell in an unattended run denies the call, tells the model, and records both events', async () => {
    const org = await shellOrg();
    const ran = await lemming(['run', org, '--deny', 'shell']);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toContain('denied shell for a (--deny shell)');
    expect(existsSync(join(org, 'agents/a/workspace/made.txt'))).toBe(false);
    const kinds = events(org).map((event) => event.kind);
    expect(kinds).toContain('approval_requested');
    const answered = events(org).find((event) => event.kind === 'approval_answered')!;
    expect(JSON.parse(answered.json)).toMatchObject({
      tool: 'shell',
      answer: 'deny',
      source: 'command_line',
    });
    const result = events(org).find((event) => event.kind === 'tool_result')!;
    expect(JSON.parse(result.json)).toMatchObject({ result: { success: false } });
    expect(secondPrompt(org)).toContain('was started with --deny shell');
  });

  it('an unattended run with neither --approve nor --deny parks the turn, and says how to answer it', async () => {
    const org = await shellOrg();
    const ran = await lemming(['run', org]);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('tick 1: a parked');
    expect(ran.stdout).toContain(
      `a's turn waits for your answer (the others go on): lemming approvals ${org}`,
    );
    expect(events(org).map((event) => event.kind)).not.toContain('approval_answered');
    expect(existsSync(join(org, 'agents/a/workspace/made.txt'))).toBe(false);
  });

  it('--approve shell runs the call', async () => {
    const org = await shellOrg();
    const ran = await lemming(['run', org, '--approve', 'shell']);
    expect(ran.code).toBe(0);
    expect(readFileSync(join(org, 'agents/a/workspace/made.txt'), 'utf8')).toBe('hi\n');
    const answered = events(org).find((event) => event.kind === 'approval_answered')!;
    expect(JSON.parse(answered.json)).toMatchObject({ answer: 'approve_once', source: 'command_line' });
  });

  it('refuses a tool that is both approved and denied', async () => {
    const ran = await lemming([
      'run',
      await shellOrg(),
      '--approve',
      'shell',
      '--deny',
      'shell,http_request',
    ]);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('shell cannot be both --approve and --deny');
  });
});

describe('lemming run at a terminal', () => {
  // util-linux `script` (Linux) gives the command a pseudo-terminal; BSD `script` takes other arguments.
  it.skipIf(process.platform !== 'linux')(
    'asks the person and gives their denial and its reason to the model',
    async () => {
      const org = await shellOrg();
      const child = spawn('script', ['-qfec', `${process.execPath} ${LEMMING} run '${org}'`, '/dev/null'], {
        cwd: REPO_ROOT,
        env: { PATH: process.env.PATH ?? '', LEMMING_CONFIG_DIR: cliConfigDir() },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let output = '';
      let answered = false;
      child.stdout.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (!answered && output.includes('Allow it?')) {
          answered = true;
          child.stdin.write('n not on this machine\r');
        }
      });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(output).toContain('a asks to run shell {"command":"echo hi > made.txt"}');
      expect(code).toBe(0);
      const answer = events(org).find((event) => event.kind === 'approval_answered')!;
      expect(JSON.parse(answer.json)).toMatchObject({
        answer: 'deny',
        source: 'person',
        reason: 'not on this machine',
      });
      expect(secondPrompt(org)).toContain('Their reason: not on this machine');
    },
  );
});

describe('answers typed at the terminal', () => {
  it('reads y, a and n with a reason', () => {
    expect(parseTerminalAnswer('y')).toEqual({ answer: 'approve_once', source: 'person' });
    expect(parseTerminalAnswer(' always ')).toEqual({ answer: 'approve_always', source: 'person' });
    expect(parseTerminalAnswer('n not on my disk')).toEqual({
      answer: 'deny',
      source: 'person',
      reason: 'not on my disk',
    });
    expect(parseTerminalAnswer('')).toEqual({ answer: 'deny', source: 'person' });
  });
});

describe('the terminal asker', () => {
  const request: ApprovalRequest = {
    id: 'r1',
    agent: 'writer',
    tool: 'shell',
    args: { command: 'ls' },
    reason: 'It runs a command on this computer with your rights.',
    tick: 1,
    asked_at: '2026-01-01T00:00:00.000Z',
    expires_at: '2026-01-01T00:05:00.000Z',
  };
  const io = (answers: string[], asked: string[]): CliIo => ({
    stdout: { write: () => true },
    stderr: { write: () => true },
    env: {},
    ask: async (question) => {
      asked.push(question);
      return answers.shift() ?? '';
    },
  });
  const none = { approve: new Set<string>(), deny: new Set<string>() };

  it('asks one question at a time, showing the agent, the tool, the arguments and why', async () => {
    const asked: string[] = [];
    const asker = cliApprovalAsker(io(['n too risky', 'a'], asked), none);
    const signal = new AbortController().signal;
    const [first, second] = await Promise.all([
      asker.ask(request, signal),
      asker.ask({ ...request, id: 'r2', agent: 'editor' }, signal),
    ]);
    expect(first).toEqual({ answer: 'deny', source: 'person', reason: 'too risky' });
    expect(second).toEqual({ answer: 'approve_always', source: 'person' });
    expect(asked[0]).toContain('writer asks to run shell {"command":"ls"}');
    expect(asked[0]).toContain('why it asks: It runs a command on this computer with your rights.');
    expect(asked[1]).toContain('[a] always for editor');
  });

  it('shows what changed in an MCP tool since the person chose how it runs', async () => {
    const asked: string[] = [];
    const asker = cliApprovalAsker(io(['n'], asked), none);
    await asker.ask(
      {
        ...request,
        tool: 'mcp__notes__erase_notes',
        reason: 'It changed since you chose how it runs, so it asks first until you choose again.',
        changes: ['It now claims it only reads.', 'Its description changed.'],
      },
      new AbortController().signal,
    );
    expect(asked[0]).toContain(
      'why it asks: It changed since you chose how it runs, so it asks first until you choose again.\n  what changed: It now claims it only reads.\n  what changed: Its description changed.',
    );
  });

  it('does not ask about a tool named by --approve or --deny', async () => {
    const asked: string[] = [];
    const asker = cliApprovalAsker(io([], asked), { approve: new Set(['shell']), deny: new Set(['x']) });
    expect(await asker.ask(request, new AbortController().signal)).toEqual({
      answer: 'approve_once',
      source: 'command_line',
    });
    expect(asked).toEqual([]);
  });
});

describe('a form an MCP server asks for, at the terminal', () => {
  const form: FormRequest = {
    server: 'everything',
    message: 'Who are you?',
    fields: [
      { name: 'name', type: 'text', required: true },
      { name: 'age', type: 'integer', required: false, maximum: 120, default: 30 },
      {
        name: 'pet',
        type: 'choice',
        required: false,
        choices: [
          { value: 'p1', label: 'Cats' },
          { value: 'p2', label: 'Dogs' },
        ],
      },
      { name: 'agree', type: 'yes_no', required: false },
    ],
  };
  const request: ApprovalRequest = {
    id: 'f1',
    agent: 'writer',
    tool: 'mcp__everything__ask',
    args: {},
    reason: 'The tool server everything asks you to fill in a form.',
    form,
    tick: 1,
    asked_at: '2026-01-01T00:00:00.000Z',
    expires_at: '2026-01-01T00:05:00.000Z',
  };
  const written: string[] = [];
  const io = (answers: string[] | null, asked: string[]): CliIo => ({
    stdout: { write: (text: string) => written.push(text) > 0 },
    stderr: { write: (text: string) => written.push(text) > 0 },
    env: {},
    ...(answers
      ? {
          ask: async (question: string) => {
            asked.push(question);
            return answers.shift() ?? '';
          },
        }
      : {}),
  });
  const none = { approve: new Set<string>(), deny: new Set<string>() };
  const signal = new AbortController().signal;

  it('asks each field in turn; empty keeps the default, an answer that does not fit is asked again', async () => {
    const asked: string[] = [];
    const answer = await cliApprovalAsker(io(['y', 'Ada', '200', '', 'dogs', 'y'], asked), none).ask(
      request,
      signal,
    );
    expect(answer).toEqual({
      answer: 'approve_once',
      source: 'person',
      values: { name: 'Ada', pet: 'p2', agree: true },
    });
    expect(asked[0]).toContain(
      'writer uses mcp__everything__ask, and the tool server everything asks you: Who are you?',
    );
    expect(asked[2]).toContain('age [30]');
    expect(asked[3]).toBe(asked[2]);
    expect(written.join('')).toContain('age must be at most 120');
  });

  it('n declines it', async () => {
    expect(await cliApprovalAsker(io(['n'], []), none).ask(request, signal)).toEqual({
      answer: 'deny',
      source: 'person',
    });
  });

  it('with no one at a terminal it is declined, unless --accept-forms accepts it with its defaults', async () => {
    expect(await cliApprovalAsker(io(null, []), none).ask(request, signal)).toMatchObject({
      answer: 'deny',
      source: 'unattended',
    });
    const defaultsOnly = { ...request, form: { ...form, fields: form.fields.slice(1) } };
    expect(
      await cliApprovalAsker(io(null, []), { ...none, acceptForms: true }).ask(defaultsOnly, signal),
    ).toEqual({
      answer: 'approve_once',
      source: 'command_line',
      values: {},
    });
    // A required field without a default cannot be answered for the person.
    expect(
      await cliApprovalAsker(io(null, []), { ...none, acceptForms: true }).ask(request, signal),
    ).toMatchObject({
      answer: 'deny',
      source: 'unattended',
    });
  });
});
