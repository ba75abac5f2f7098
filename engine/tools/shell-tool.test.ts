import { createRedactor } from '../secrets/redactor';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResumeSchema } from '../org/resume-schema';
import { TurnMemory } from '../memory/turn-memory';
import { detectConfinement } from '../sandbox/shell/detect-confinement';
import {
  createShellOrg,
  HAS_JQ,
  SECRET_CANARY,
  UNCONFINED,
  withEnvironment,
  type ShellOrg,
} from '../sandbox/shell/test-support/shell-org';
import type { Confinement } from '../sandbox/shell/confinement';
import {
  confinementNote,
  confinementSummary,
  createShellTool,
  DEFAULT_SHELL_OUTPUT_BYTES,
  MAX_COMMAND_BYTES,
} from './shell-tool';
import { ToolResult } from './tool-result';
import type { ToolContext } from './tool-spec';

const resume = ResumeSchema.parse({
  name: 'a',
  title: 'Agent A',
  instructions: 'Use the shell.',
  model: 'scripted',
  permissions: { read_outboxes: [], tools: ['shell'] },
  schedule: { run_every_n_ticks: 1, phase_offset: 0 },
});

function contextFor(org: ShellOrg): ToolContext {
  return {
    orgPath: org.org,
    agentDir: org.agentDir,
    resume,
    tick: 1,
    memory: new TurnMemory(org.agentDir),
    sandbox: org.sandbox(),
    agents: [{ name: 'a', title: 'Agent A' }],
    redaction: createRedactor(),
  };
}

const detected = await detectConfinement();

describe('the shell tool', () => {
  let org: ShellOrg;
  let context: ToolContext;
  let restoreEnvironment: () => void;
  beforeAll(async () => {
    org = await createShellOrg();
    context = contextFor(org);
    restoreEnvironment = withEnvironment({
      LEMMING_TEST_SECRET: SECRET_CANARY,
      OPENAI_API_KEY: SECRET_CANARY,
    });
  });
  afterAll(async () => {
    restoreEnvironment();
    await org.dispose();
  });

  const shell = createShellTool({ confinement: detected, timeoutMs: 20_000, maxOutputBytes: 1024 });
  const call = async (args: unknown) => ToolResult.parse(await shell.run(args, context));

  it("is the shell kind with LeMMing's argument name", () => {
    expect(shell).toMatchObject({ name: 'shell', kind: 'shell', definition: { name: 'shell' } });
    expect(shell.definition.parameters).toMatchObject({
      required: ['command'],
      properties: { command: { type: 'string' } },
    });
  });

  describe("refuses bad arguments with LeMMing's texts", () => {
    const cases: [string, unknown, string][] = [
      ['no arguments', undefined, "Missing 'command' parameter"],
      ['no command', {}, "Missing 'command' parameter"],
      ['an empty command', { command: '' }, "Missing 'command' parameter"],
      ['a command that is not text', { command: ['ls'] }, 'Command must be a string'],
      ['a blank command', { command: '  \n' }, 'Empty command'],
      ['a NUL byte', { command: 'ls\0-la' }, 'Command must not contain NUL characters'],
      [
        'an over-long command',
        { command: 'x'.repeat(MAX_COMMAND_BYTES + 1) },
        `Command too long (${MAX_COMMAND_BYTES + 1} bytes). Max size is ${MAX_COMMAND_BYTES} bytes.`,
      ],
    ];
    it.each(cases)('%s', async (_name, args, error) => {
      expect(await call(args)).toEqual({ success: false, output: null, error });
    });
  });

  it('runs /bin/sh -c in the workspace: pipes, redirections and variables work', async () => {
    expect(
      await call({ command: 'echo "one two" | wc -w > count.txt; cat count.txt; echo "$HOME"' }),
    ).toEqual({
      success: true,
      output: `2\n${org.workspace}\n`,
      error: null,
    });
    expect(await readFile(join(org.workspace, 'count.txt'), 'utf8')).toBe('2\n');
  });

  it('creates the workspace when it is missing', async () => {
    await rm(org.workspace, { recursive: true });
    expect(await call({ command: 'pwd' })).toEqual({
      success: true,
      output: `${org.workspace}\n`,
      error: null,
    });
  });

  it('keeps what a successful command printed to stderr', async () => {
    expect(await call({ command: 'echo done; echo warning >&2' })).toEqual({
      success: true,
      output: 'done\n',
      error: 'warning\n',
    });
  });

  it('fails a non-zero exit with stdout as output, and stderr and the exit code as error', async () => {
    expect(await call({ command: 'echo partial; echo broken >&2; exit 2' })).toEqual({
      success: false,
      output: 'partial\n',
      error: 'broken\nExit code 2',
    });
    expect(await call({ command: 'grep nothing-like-this /dev/null' })).toEqual({
      success: false,
      output: '',
      error: 'Exit code 1',
    });
  });

  it('says a command was not found', async () => {
    const result = await call({ command: 'no-such-program-here' });
    expect(result.success).toBe(false);
    expect(result.error).toMatch(/not found\nExit code 127$/);
  });

  it("gives the app's secrets to no command", async () => {
    const commands = [
      'env',
      'printenv',
      'cat /proc/self/environ',
      ...(HAS_JQ ? ['jq -n env', 'jq -n env.OPENAI_API_KEY'] : []),
    ];
    for (const command of commands) {
      const result = await call({ command });
      expect(result.success).toBe(true);
      expect(JSON.stringify(result)).not.toContain(SECRET_CANARY);
    }
  });

  it("stops at its timeout with LeMMing's text and what was printed so far", async () => {
    const quick = createShellTool({ confinement: detected, timeoutMs: 1000 });
    const result = await quick.run({ command: 'echo begun; sleep 10 & sleep 10' }, context);
    expect(result).toEqual({
      success: false,
      output: 'begun\n',
      error: 'Command timed out after 1 second; it and everything it started were stopped',
    });
  });

  it('keeps the first bytes of a long output and says how much there was', async () => {
    const result = await call({ command: 'head -c 10485760 /dev/zero | tr "\\0" x' });
    expect(result).toEqual({
      success: true,
      output: `${'x'.repeat(1024)}\n[truncated: 10485760 bytes were printed, the first 1024 are shown]`,
      error: null,
    });
  });

  it('cuts output at 64 KiB after redaction: no first characters of a stored secret, plain or base64, stay at the cut', async () => {
    const token = 'tok-shell-Pw3Nz8Qx5Rk1';
    const withSecret = { ...context, redaction: createRedactor([{ name: 'SERVICE_TOKEN', value: token }]) };
    const wide = createShellTool({ confinement: detected, timeoutMs: 20_000 });
    for (const spelling of [token, Buffer.from(token).toString('base64')])
      for (const kept of [8, 13, token.length - 1]) {
        const padded = `head -c ${DEFAULT_SHELL_OUTPUT_BYTES - kept} /dev/zero | tr "\\0" x; printf '%s and more' '${spelling}'`;
        const result = await wide.run({ command: `{ ${padded}; }; { ${padded}; } >&2` }, withSecret);
        for (const text of [result.output ?? '', result.error ?? '']) {
          expect(text).toContain(
            `[truncated: ${DEFAULT_SHELL_OUTPUT_BYTES - kept + spelling.length + 9} bytes were printed`,
          );
          expect(text).not.toContain(spelling.slice(0, 8));
        }
      }
  });

  it('says when the agent may not read its workspace, without running anything', async () => {
    const narrow = { ...context, sandbox: org.sandbox({ allow_read: ['shared'] }) };
    expect(await shell.run({ command: 'touch ran' }, narrow)).toEqual({
      success: false,
      output: null,
      error:
        'The shell cannot run: your resume does not let you read your workspace, and the shell runs in it',
    });
  });
});

describe('what the shell tool says about confinement', () => {
  const unconfined: Confinement = {
    kind: 'none',
    reason: 'bubblewrap (bwrap) was not found at /missing/bwrap',
  };

  it('says plainly, in the description the model sees, when shell access is not confined and why', async () => {
    const note = confinementNote(unconfined);
    expect(note).toMatch(
      /^Shell access is not confined on this machine \(bubblewrap \(bwrap\) was not found at \/missing\/bwrap\)/,
    );
    expect(createShellTool({ confinement: unconfined }).definition.description).toContain(note);
  });

  it('says the commands are confined when they are', () => {
    const bubblewrap: Confinement = {
      kind: 'bubblewrap',
      bwrapPath: '/usr/bin/bwrap',
      hardened: true,
      bindsOpenPlaces: true,
      systemRoots: [],
    };
    expect(confinementNote(bubblewrap)).toMatch(
      /^Shell commands are confined with bubblewrap: .*have no network/,
    );
    expect(confinementNote({ kind: 'sandbox-exec', sandboxExecPath: '/usr/bin/sandbox-exec' })).toMatch(
      /^Shell commands are confined by the macOS sandbox/,
    );
    expect(createShellTool({ confinement: bubblewrap }).definition.description).not.toContain('not confined');
  });

  it('tells the person when bubblewrap is too old to mount folders as they were checked', () => {
    const current: Confinement = {
      kind: 'bubblewrap',
      bwrapPath: '/usr/bin/bwrap',
      hardened: true,
      bindsOpenPlaces: true,
      systemRoots: [],
    };
    expect(confinementSummary(current)).toMatch(/^Shell commands run walled off: .*other agents' files\.$/);
    expect(confinementSummary({ ...current, hardened: false, bindsOpenPlaces: false })).toMatch(
      /older than version 0\.8, though: an agent that may change the shared folder could trick another agent's commands into writing outside the org\. Updating bubblewrap closes that gap\.$/,
    );
  });

  it('states its limits in the description', () => {
    expect(createShellTool({ confinement: UNCONFINED }).definition.description).toContain(
      'It gets no input, nothing it starts in the background outlives it, it is stopped after 30 seconds, and the first 65536 bytes of its output and of its errors are kept.',
    );
  });

  it('runs unconfined when detection pointed at a missing bwrap, and says so', async () => {
    const confinement = await detectConfinement({ platform: 'linux', bwrapPath: '/missing/bwrap' });
    expect(confinement.kind).toBe('none');
    const org = await createShellOrg();
    try {
      const tool = createShellTool({ confinement });
      expect(tool.definition.description).toContain(
        'Shell access is not confined on this machine (bubblewrap (bwrap) was not found at /missing/bwrap)',
      );
      expect(await tool.run({ command: `cat ${org.outsideFile}` }, contextFor(org))).toMatchObject({
        success: true,
        output: `${SECRET_CANARY}\n`,
      });
    } finally {
      await org.dispose();
    }
  });

  it.runIf(detected.kind === 'bubblewrap')(
    'under bubblewrap cannot read a file outside the workspace',
    async () => {
      const org = await createShellOrg();
      try {
        const result = await createShellTool({ confinement: detected }).run(
          { command: `cat ${org.outsideFile}` },
          contextFor(org),
        );
        expect(result).toMatchObject({ success: false, output: '' });
        expect(JSON.stringify(result)).not.toContain(SECRET_CANARY);
      } finally {
        await org.dispose();
      }
    },
  );
});
