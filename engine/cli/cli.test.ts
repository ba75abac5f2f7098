import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { DEMO_ORG, REPO_ROOT, tempOrgs, UPSTREAM } from '../run/test-support/temp-org';
import { openTimeline } from '../timeline/timeline-store';
import { cliConfigDir, runCli } from './test-support/run-cli';

const orgs = tempOrgs();
afterEach(() => orgs.cleanup());
const EXAMPLE_ORG = join(UPSTREAM, 'example-org');

const lemming = (...argv: string[]) => runCli(argv);

/** Runs the installed `lemming` command through npx in a real process, with no network keys in its environment. */
async function npxLemming(...argv: string[]) {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    LEMMING_CONFIG_DIR: cliConfigDir(),
    npm_config_update_notifier: 'false',
  };
  try {
    const { stdout, stderr } = await promisify(execFile)('npx', ['--no-install', 'lemming', ...argv], {
      cwd: REPO_ROOT,
      env,
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npx lemming run, offline', () => {
  it(
    "runs a copy of LeMMing's example org for 3 ticks: agents without an API key fail on their own, the rest run",
    { timeout: 120_000 },
    async () => {
      const org = orgs.copy(EXAMPLE_ORG);
      // It names OpenAI's address and key variable and runs a program: its person trusts it first.
      expect((await lemming('trust', org, '--yes')).code).toBe(0);
      const run = await npxLemming('run', org, '--ticks', '3');
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(/^tick 1: .*echo_cli completed/m);
      expect(run.stdout).toMatch(/^tick 3: /m);
      expect(JSON.parse(readFileSync(join(org, 'lemming/config/tick.json'), 'utf8'))).toEqual({
        current_tick: 4,
      });
      const errors = await lemming('timeline', org, '--kind', 'error', '--json', '--limit', '1000');
      const messages = (
        JSON.parse(errors.stdout).events as { agent: string; event: { message: string } }[]
      ).filter((row) => row.agent === 'manager');
      expect(messages.length).toBeGreaterThan(0);
      expect(messages[0]!.event.message).toMatch(/OPENAI_API_KEY/);
    },
  );

  it('runs a copy of the demo org for 5 ticks', { timeout: 120_000 }, async () => {
    const org = orgs.copy(DEMO_ORG);
    const run = await npxLemming('run', org, '--ticks', '5');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([
      'tick 1: manager completed, researcher completed, writer completed',
      'tick 2: manager completed, researcher completed',
      'tick 3: manager completed, researcher completed, writer completed',
      'tick 4: manager completed, researcher completed',
      'tick 5: manager completed, researcher completed, writer completed',
    ]);
  });
});

describe('lemming validate', () => {
  function brokenExampleOrg(): string {
    const org = orgs.copy(EXAMPLE_ORG);
    writeFileSync(join(org, 'agents/spec_writer/resume.json'), '{\n  "name": "spec_writer",\n  "title": 5\n');
    const manager = JSON.parse(readFileSync(join(org, 'agents/manager/resume.json'), 'utf8'));
    manager.schedule.phase_offset = 'soon';
    writeFileSync(join(org, 'agents/manager/resume.json'), JSON.stringify(manager, null, 2));
    return org;
  }

  it('lists each invalid resume with its file, position, field and reason, and exits 0', async () => {
    const result = await lemming('validate', brokenExampleOrg());
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^7 agents, 5 valid, 2 invalid$/m);
    expect(result.stdout).toMatch(/^error: agents\/spec_writer\/resume\.json:4:1: invalid JSON/m);
    expect(result.stdout).toMatch(
      /^error: agents\/manager\/resume\.json:28:21 \(schedule\.phase_offset\): phase_offset must be a whole number$/m,
    );
  });

  it('exits 1 with --strict when there are errors, and 0 when there are none', async () => {
    expect((await lemming('validate', brokenExampleOrg(), '--strict')).code).toBe(1);
    expect((await lemming('validate', orgs.copy(DEMO_ORG), '--strict')).code).toBe(0);
  });

  it(
    'reads mcp.json and policy.json: --strict fails on either, naming file, field and line (the real command)',
    { timeout: 120_000 },
    async () => {
      const org = orgs.copy(DEMO_ORG);
      writeFileSync(
        join(org, 'lemming/config/mcp.json'),
        '{\n  "servers": {\n    "files": { "type": "stdio", "command": "npx" },\n    "remote": { "type": "sse", "url": "ftp://x" }\n  }\n}\n',
      );
      const badMcp = await npxLemming('validate', org, '--strict');
      expect(badMcp.code).toBe(1);
      expect(badMcp.stdout).toMatch(
        /^error: lemming\/config\/mcp\.json:4:39 \(servers\.remote\.url\): url must be an http or https URL$/m,
      );
      expect(badMcp.stdout).not.toContain('servers.files');

      writeFileSync(join(org, 'lemming/config/mcp.json'), '{ "mcpServers": {} }\n');
      writeFileSync(join(org, 'lemming/config/policy.json'), '{\n  "network": { "enabled": "yes" }\n}\n');
      const badPolicy = await npxLemming('validate', org, '--strict');
      expect(badPolicy.code).toBe(1);
      expect(badPolicy.stdout).toMatch(
        /^error: lemming\/config\/policy\.json:2:27 \(network\.enabled\): network\.enabled must be true or false$/m,
      );

      writeFileSync(join(org, 'lemming/config/policy.json'), '{ "network": { "enabled": true } }\n');
      expect((await npxLemming('validate', org, '--strict')).code).toBe(0);
    },
  );

  it('reports as JSON', async () => {
    const report = JSON.parse((await lemming('validate', brokenExampleOrg(), '--json')).stdout);
    expect(
      report.agents
        .filter((agent: { valid: boolean }) => !agent.valid)
        .map((agent: { name: string }) => agent.name)
        .sort(),
    ).toEqual(['manager', 'spec_writer']);
  });
});

describe('usage errors exit 2, failures exit 1', () => {
  const usage: string[][] = [
    [],
    ['frobnicate'],
    ['run'],
    ['run', '.', '--ticks', 'many'],
    ['run', '.', '--ticks', '0'],
    ['run', '.', '--bogus'],
    ['send', '.'],
    ['send', '.', 'hi', '--importance', 'urgent'],
    ['timeline', '.', '--from', 'x'],
    ['credits', '.', 'top-up', 'a'],
  ];
  for (const argv of usage) {
    it(`lemming ${argv.join(' ')} → 2`, async () => {
      const org = orgs.copy(DEMO_ORG);
      const result = await lemming(...argv.map((arg) => (arg === '.' ? org : arg)));
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/usage|unknown command/i);
    });
  }

  it('a missing org folder is a failure that names the path', async () => {
    const result = await lemming('status', '/no/such/org');
    expect(result).toMatchObject({ code: 1, stderr: 'lemming status: No folder at /no/such/org.\n' });
  });

  it('an unknown agent is a failure that names the agent', async () => {
    const org = orgs.copy(DEMO_ORG);
    expect((await lemming('inbox', org, 'nobody')).stderr).toMatch(/There is no agent named "nobody"/);
    expect((await lemming('send', org, 'hello', '--to', 'nobody')).code).toBe(1);
    expect((await lemming('credits', org, 'top-up', 'nobody', '5')).stderr).toMatch(
      /There is no agent named "nobody"/,
    );
  });

  it('an invalid tick.json stops the run with its line and column', async () => {
    const org = orgs.copy(DEMO_ORG);
    writeFileSync(join(org, 'lemming/config/tick.json'), '{"current_tick": }');
    const result = await lemming('run', org);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/lemming\/config\/tick\.json:1:\d+/);
  });
});

describe('working with an org', () => {
  it('send, inbox, tick, status, timeline, credits', async () => {
    const org = orgs.copy(DEMO_ORG);
    expect(
      (await lemming('send', org, 'Please', 'hurry', '--importance', 'high', '--to', 'manager')).code,
    ).toBe(0);
    const inbox = await lemming('inbox', org, 'manager');
    expect(inbox.stdout).toContain('New for manager (1):');
    expect(inbox.stdout).toContain('! [tick 1] human (message): Please hurry');
    expect((await lemming('inbox', org, 'writer')).stdout).toContain('New for writer (0):');

    expect((await lemming('tick', org)).stdout).toBe(
      'tick 1: manager completed, researcher completed, writer completed\n',
    );
    expect((await lemming('inbox', org, 'manager', '--json')).stdout).toContain('"fresh": []');

    const status = JSON.parse((await lemming('status', org, '--json')).stdout);
    expect(status.nextTick).toBe(2);
    expect(status.agents.find((agent: { name: string }) => agent.name === 'writer')).toMatchObject({
      firesNextTick: false,
      nextFiringTicks: [3, 5, 7],
      lastTurn: { tick: 1, status: 'completed' },
    });

    const messages = JSON.parse(
      (await lemming('timeline', org, '--kind', 'message', '--agent', 'manager', '--json')).stdout,
    );
    expect(messages.events).toHaveLength(2);
    expect(
      messages.events.every(
        // "message" lists every message, each under its entry's own kind ("message:request").
        (row: { kind: string; agent: string }) => /^message(:|$)/.test(row.kind) && row.agent === 'manager',
      ),
    ).toBe(true);
    const search = JSON.parse((await lemming('timeline', org, '--text', 'hurry', '--json')).stdout);
    expect(search.events.some((row: { kind: string }) => /^message(:|$)/.test(row.kind))).toBe(true);

    expect((await lemming('credits', org, 'top-up', 'writer', '10', '--reason', 'bonus')).stdout).toMatch(
      /^writer: 69\.\d+ credits$/m,
    );
    const credits = JSON.parse((await lemming('credits', org, 'show', 'writer', '--json')).stdout);
    expect(credits.history[0]).toMatchObject({ kind: 'top_up', amount: 10, reason: 'bonus' });
  });

  it('timeline --text notes on stderr the newest events it cannot search yet, and --json stays clean', async () => {
    const org = orgs.copy(DEMO_ORG);
    const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'));
    if (!opened.ok) throw new Error(opened.error.message);
    opened.timeline.appendMany([
      { kind: 'message', text: 'zebra crossing' },
      { kind: 'message', text: 'zebra again' },
    ]);
    try {
      const before = await lemming('timeline', org, '--text', 'zebra', '--json');
      expect(before.code).toBe(0);
      expect(JSON.parse(before.stdout).events).toEqual([]);
      expect(before.stderr).toBe(
        'note: the newest 2 events are not searchable yet; they are indexed when the engine finishes its tick or closes\n',
      );
    } finally {
      opened.timeline.close();
    }
    const after = await lemming('timeline', org, '--text', 'zebra', '--json');
    expect(JSON.parse(after.stdout).events).toHaveLength(2);
    expect(after.stderr).toBe('');
  });

  it('export and import round-trip the timeline as JSON Lines', async () => {
    const source = orgs.copy(DEMO_ORG);
    await lemming('run', source, '--ticks', '2');
    const file = join(source, '..', 'timeline.jsonl');
    expect((await lemming('export', source, file)).code).toBe(0);
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const target = orgs.copy(DEMO_ORG);
    const imported = JSON.parse((await lemming('import', target, file, '--json')).stdout);
    expect(imported.imported).toBe(lines.length);
    const exportedAgain = join(target, '..', 'again.jsonl');
    await lemming('export', target, exportedAgain);
    expect(readFileSync(exportedAgain, 'utf8').trim().split('\n')).toEqual(lines);
  });

  it('init creates an org that validates, and refuses a folder that is not empty', async () => {
    const parent = orgs.build({ 'placeholder.txt': 'x' });
    const target = join(parent, 'new-org');
    expect((await lemming('init', target)).code).toBe(0);
    expect((await lemming('validate', target, '--strict')).code).toBe(0);
    const again = await lemming('init', parent);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/not empty/);
  });
});

describe('lemming tools and lemming call', () => {
  function orgWithPolicy() {
    const org = orgs.copy(DEMO_ORG);
    writeFileSync(
      join(org, 'lemming/config/policy.json'),
      JSON.stringify({ tools: { deny: ['list_agents'] } }),
    );
    return org;
  }

  it('tools explains each tool: available or not, the refusing layer, the reason and the fix', async () => {
    const org = orgWithPolicy();
    const text = await lemming('tools', org, 'manager');
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/^ {2}yes {2}memory_read +memory/m);
    expect(text.stdout).toMatch(/^ {2}no {3}list_agents +org +org_deny: the org denies it to every agent/m);
    expect(text.stdout).toContain('fix: remove "list_agents" from tools.deny in lemming/config/policy.json');
    const json = JSON.parse((await lemming('tools', org, 'researcher', '--json')).stdout);
    const fileWrite = json.tools.find((tool: { name: string }) => tool.name === 'file_write');
    expect(fileWrite).toMatchObject({
      available: false,
      kind: 'file',
      fix: { changes: [{ kind: 'grant_tool', tool: 'file_write' }] },
    });
  });

  it('call runs a permitted tool and records it in the timeline', async () => {
    const org = orgs.copy(DEMO_ORG);
    const result = await lemming('call', org, 'writer', 'memory_write', '{"key":"idea","value":{"n":1}}');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({
      success: true,
      output: "Saved memory key 'idea'",
      error: null,
    });
    expect(JSON.parse(readFileSync(join(org, 'agents/writer/memory/idea.json'), 'utf8'))).toMatchObject({
      key: 'idea',
      value: { n: 1 },
      agent: 'writer',
      operation: 'set',
    });
    expect(
      JSON.parse((await lemming('call', org, 'writer', 'memory_read', '{"key":"idea"}')).stdout).output,
    ).toBe('{"n":1}');
    const events = JSON.parse(
      (await lemming('timeline', org, '--agent', 'writer', '--json')).stdout,
    ).events.map((row: { kind: string }) => row.kind);
    expect(events).toEqual(expect.arrayContaining(['tool_call', 'tool_result', 'memory_update']));
  });

  it('call returns a failed result, exit 0, for an unknown tool, a missing permission and bad arguments', async () => {
    const org = orgWithPolicy();
    const unknown = await lemming('call', org, 'writer', 'teleport', '{}');
    expect(unknown.code).toBe(0);
    expect(JSON.parse(unknown.stdout)).toEqual({
      success: false,
      output: null,
      error: 'Unknown tool: teleport',
      failure: { kind: 'not_found' },
    });
    const forbidden = JSON.parse(
      (await lemming('call', org, 'writer', 'file_read', '{"path":"notes.md"}')).stdout,
    );
    expect(forbidden).toMatchObject({
      success: false,
      error: expect.stringMatching(
        /^Tool 'file_read' not permitted for writer: its resume does not grant it/,
      ),
      failure: { kind: 'refused' },
    });
    const denied = JSON.parse((await lemming('call', org, 'manager', 'list_agents')).stdout);
    expect(denied.error).toMatch(/the org denies it to every agent/);
    const badArgs = JSON.parse((await lemming('call', org, 'writer', 'memory_write', '{"value":1}')).stdout);
    expect(badArgs).toMatchObject({
      success: false,
      error: expect.stringMatching(/^Invalid arguments for memory_write: key/),
    });
  });

  it('call refuses bad JSON and missing arguments with exit 2, and an unknown agent with exit 1', async () => {
    const org = orgs.copy(DEMO_ORG);
    expect(await lemming('call', org, 'writer', 'memory_read', '{key:')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/not valid JSON/),
    });
    expect((await lemming('call', org, 'writer')).code).toBe(2);
    expect((await lemming('tools', org)).code).toBe(2);
    expect(await lemming('call', org, 'nobody', 'memory_read', '{}')).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/no agent named "nobody"/),
    });
    expect((await lemming('tools', org, 'nobody')).code).toBe(1);
  });
});

describe('the shell in the explainer', () => {
  it('says whether shell commands are confined on this machine', async () => {
    const org = orgs.copy(DEMO_ORG);
    const json = JSON.parse((await lemming('tools', org, 'manager', '--json')).stdout);
    const shell = json.tools.find((tool: { name: string }) => tool.name === 'shell');
    expect(shell.note).toMatch(/^Shell (commands are confined|access is not confined on this machine)/);
    expect((await lemming('tools', org, 'manager')).stdout).toContain(`note: ${shell.note}`);
  });
});

describe("file tools and the org's own files", () => {
  it('an agent granted the whole org for writing still cannot rewrite a resume, the config or another outbox', async () => {
    const org = orgs.copy(DEMO_ORG);
    const writer = JSON.parse(readFileSync(join(org, 'agents/writer/resume.json'), 'utf8'));
    writer.permissions.tools.push('file_write');
    writer.permissions.file_access = { allow_read: ['.'], allow_write: ['.'] };
    writeFileSync(join(org, 'agents/writer/resume.json'), JSON.stringify(writer, null, 2));
    const before = readFileSync(join(org, 'agents/writer/resume.json'), 'utf8');
    const attempt = async (path: string) =>
      JSON.parse(
        (await lemming('call', org, 'writer', 'file_write', JSON.stringify({ path, content: 'x' }))).stdout,
      );

    expect(await attempt('../resume.json')).toMatchObject({
      success: false,
      error: expect.stringMatching(/outside its workspace/),
    });
    expect(await attempt('../../manager/outbox/00000009_forged.json')).toMatchObject({ success: false });
    expect(await attempt('../../../lemming/config/policy.json')).toMatchObject({
      success: false,
      error: expect.stringMatching(/lemming\/ folder/),
    });
    expect(await attempt('../../../tools/evil.yaml')).toMatchObject({ success: false });
    expect(await attempt('../../../reports/q1.md')).toMatchObject({ success: true });
    expect(readFileSync(join(org, 'agents/writer/resume.json'), 'utf8')).toBe(before);
    expect(readFileSync(join(org, 'reports/q1.md'), 'utf8')).toBe('x');
  });
});

describe('file tool profiles', () => {
  function withProfile(profile: string, tools: string[]) {
    const org = orgs.copy(DEMO_ORG);
    const writer = JSON.parse(readFileSync(join(org, 'agents/writer/resume.json'), 'utf8'));
    writer.tools_profile = profile;
    writer.permissions.tools = tools;
    writeFileSync(join(org, 'agents/writer/resume.json'), JSON.stringify(writer, null, 2));
    return org;
  }
  const available = async (org: string) =>
    (
      JSON.parse((await lemming('tools', org, 'writer', '--json')).stdout).tools as {
        name: string;
        available: boolean;
        kind: string;
      }[]
    )
      .filter((tool) => tool.kind === 'file')
      .map((tool) => `${tool.name}:${tool.available}`)
      .sort();

  it('LeMMing grants map to the codex profile: file_read gives its read tools, file_write gives apply_patch', async () => {
    expect(await available(withProfile('codex', ['file_read']))).toEqual([
      'apply_patch:false',
      'grep_files:true',
      'list_dir:true',
      'read_file:true',
    ]);
    expect(await available(withProfile('codex', ['file_write']))).toEqual([
      'apply_patch:true',
      'grep_files:false',
      'list_dir:false',
      'read_file:false',
    ]);
  });

  it('the gemini profile, by name or by group', async () => {
    expect(await available(withProfile('gemini', ['group:fs']))).toEqual([
      'glob:true',
      'grep_search:true',
      'list_directory:true',
      'read_file:true',
      'replace:true',
      'write_file:true',
    ]);
  });

  it('apply_patch runs as the agent through the sandbox', async () => {
    const org = withProfile('codex', ['file_write', 'file_read']);
    const patch = '*** Begin Patch\n*** Add File: notes.md\n+hello\n*** End Patch';
    expect(
      JSON.parse(
        (await lemming('call', org, 'writer', 'apply_patch', JSON.stringify({ input: patch }))).stdout,
      ),
    ).toMatchObject({ success: true });
    expect(readFileSync(join(org, 'agents/writer/workspace/notes.md'), 'utf8')).toBe('hello\n');
    const escape = '*** Begin Patch\n*** Add File: ../../../escaped.md\n+x\n*** End Patch';
    expect(
      JSON.parse(
        (await lemming('call', org, 'writer', 'apply_patch', JSON.stringify({ input: escape }))).stdout,
      ),
    ).toMatchObject({ success: false });
  });
});

describe('skills in the explainer and the prompt', () => {
  function orgWithSkill() {
    const org = orgs.copy(DEMO_ORG);
    const skill = join(org, 'agents/writer/skills/poll');
    mkdirSync(skill, { recursive: true });
    writeFileSync(
      join(skill, 'SKILL.md'),
      '---\nname: poll\ndescription: Ask an API for the latest numbers\ncommand-dispatch: tool\ncommand-tool: memory_read\n---\nRead the numbers from memory.\n',
    );
    return org;
  }

  it('lemming tools lists a skill with whether its tool passes the policy, and the fix when not', async () => {
    const org = orgWithSkill();
    const usable = JSON.parse((await lemming('tools', org, 'writer', '--json')).stdout);
    expect(usable.skills).toEqual([
      {
        name: 'poll',
        file: 'agents/writer/skills/poll/SKILL.md',
        description: 'Ask an API for the latest numbers',
        dispatch: { tool: 'memory_read', argMode: 'object' },
        usability: { usable: true },
      },
    ]);
    writeFileSync(
      join(org, 'lemming/config/policy.json'),
      JSON.stringify({ tools: { deny: ['memory_read'] } }),
    );
    const text = (await lemming('tools', org, 'writer')).stdout;
    expect(text).toMatch(
      /^ {2}no {3}poll +it runs the tool "memory_read", which is not available: the org denies it/m,
    );
  });
});
