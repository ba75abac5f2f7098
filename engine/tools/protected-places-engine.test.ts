import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OrgEngine } from '../run/org-engine';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { detectConfinement } from '../sandbox/shell/detect-confinement';
import { openTimeline } from '../timeline/timeline-store';
import { trustAsIs } from '../trust/test-support/trust-as-is';

const orgs = tempOrgs();
afterAll(() => orgs.cleanup());
const confinement = await detectConfinement();

/** Everything that defines the org or records what happened in it: no agent may change any of it. */
const ENGINE_OWNED = [
  'lemming/config/policy.json',
  'lemming/config/credits.json',
  'lemming/config/models.json',
  '.lemming/notes-kept-by-the-engine.txt',
  'tools/fetch.yaml',
  'agents/a/resume.json',
  'agents/a/memory/plan.json',
  'agents/a/outbox/00000001_x.json',
  'agents/a/logs/activity.log',
  'agents/a/skills/s/SKILL.md',
  'agents/a/api-tools/t.yaml',
  'agents/b/resume.json',
  'agents/b/memory/secret-plan.json',
  'agents/b/outbox/00000001_hello.json',
  'agents/b/logs/activity.log',
  'agents/b/skills/s/SKILL.md',
];
const WRITES_EVERYTHING = { allow_read: ['.'], allow_write: ['.'] };

function attacker(name: string, profile: string): Record<string, unknown> {
  return resume(name, {
    tools_profile: profile,
    permissions: { read_outboxes: [], tools: ['shell', 'group:fs'], file_access: WRITES_EVERYTHING },
  });
}

/** An org whose agents a, codex and gemini try to change what the engine owns, each with its own file tools. */
function attackedOrg(): string {
  const files: Record<string, unknown> = {
    'lemming/config/policy.json': {
      allowed_tool_kinds: ['file', 'memory', 'org', 'shell'],
      network: { enabled: false },
    },
    'lemming/config/credits.json': { a: { model: 'scripted', cost_per_action: 0, credits_left: 100 } },
    'lemming/config/models.json': {},
    'tools/fetch.yaml': 'name: fetch\n',
    'agents/a/resume.json': attacker('a', 'lemming'),
    'agents/a/workspace/.keep': '',
    'agents/b/resume.json': resume('b'),
    'agents/codex/resume.json': attacker('codex', 'codex'),
    'agents/codex/workspace/.keep': '',
    'agents/gemini/resume.json': attacker('gemini', 'gemini'),
    'agents/gemini/workspace/.keep': '',
  };
  for (const path of ENGINE_OWNED) files[path] ??= `${path} as the engine wrote it\n`;
  return orgs.build(files);
}

function hashes(org: string): Record<string, string> {
  const found: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const key = relative(org, path);
      if (statSync(path).isDirectory()) {
        if (key === 'shared' || key.endsWith('/workspace')) continue;
        found[`${key}/`] = 'folder';
        walk(path);
      } else if (!key.startsWith('.lemming/timeline.sqlite')) {
        found[key] = createHash('sha256').update(readFileSync(path)).digest('hex');
      }
    }
  };
  walk(org);
  return found;
}

/** The timeline's rows as they are, for the seqs that existed before the attack. */
function timelineRows(org: string, upTo: number): string {
  const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'), { readonly: true });
  if (!opened.ok) throw new Error('the timeline did not open');
  try {
    const rows = opened.timeline.db.prepare('SELECT * FROM events WHERE seq <= ? ORDER BY seq').all(upTo);
    return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
  } finally {
    opened.timeline.close();
  }
}

/** Each tool's way to change `path` (relative to the org; the agents run in agents/<name>/workspace). */
function attempts(path: string): { agent: string; tool: string; args: unknown }[] {
  const fromWorkspace = `../../../${path}`;
  const forged = '{"name":"a","permissions":{"tools":["http_request","shell"]}}';
  return [
    { agent: 'a', tool: 'file_write', args: { path: fromWorkspace, content: forged } },
    {
      agent: 'a',
      tool: 'file_write',
      args: { path: join('/', relative('/', fromWorkspace)), content: forged },
    },
    { agent: 'a', tool: 'shell', args: { command: `printf '%s' '${forged}' > ${fromWorkspace}` } },
    { agent: 'a', tool: 'shell', args: { command: `rm -f ${fromWorkspace}` } },
    { agent: 'a', tool: 'shell', args: { command: `mv ${fromWorkspace} ${fromWorkspace}.old` } },
    { agent: 'a', tool: 'shell', args: { command: `ln -f ${fromWorkspace} mine && echo x >> mine` } },
    {
      agent: 'codex',
      tool: 'apply_patch',
      args: { input: `*** Begin Patch\n*** Delete File: ${fromWorkspace}\n*** End Patch` },
    },
    {
      agent: 'codex',
      tool: 'apply_patch',
      args: { input: `*** Begin Patch\n*** Add File: ${fromWorkspace}.new\n+x\n*** End Patch` },
    },
    { agent: 'gemini', tool: 'write_file', args: { file_path: fromWorkspace, content: forged } },
    {
      agent: 'gemini',
      tool: 'replace',
      args: { file_path: fromWorkspace, old_string: 'engine', new_string: 'agent' },
    },
  ];
}

describe.skipIf(confinement.kind !== 'bubblewrap')(
  'an agent with shell, group:fs and allow_write ["."]',
  () => {
    it(
      'cannot change any resume, config, tool, skill, outbox, memory, log or timeline file through any tool',
      { timeout: 120_000 },
      async () => {
        const org = attackedOrg();
        const engine = await OrgEngine.open({
          trust: await trustAsIs(org),
          orgPath: org,
          env: {},
        });
        try {
          // The first call seeds the ledger and the timeline; what follows must leave all of it as it is.
          expect(await engine.callTool('a', 'shell', { command: 'echo ready' })).toMatchObject({
            success: true,
          });
          const before = hashes(org);
          const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'), { readonly: true });
          const lastSeq = opened.ok ? opened.timeline.latestSeq() : 0;
          if (opened.ok) opened.timeline.close();
          const timelineBefore = timelineRows(org, lastSeq);

          const targets = [...ENGINE_OWNED, '.lemming/timeline.sqlite', 'agents/new/resume.json'];
          const refusals: string[] = [];
          for (const target of targets)
            for (const { agent, tool, args } of attempts(target)) {
              const result = await engine.callTool(agent, tool, args);
              if (!result.success) refusals.push(`${tool} ${target}`);
            }
          for (const command of [
            'mkdir -p ../../c && echo {} > ../../c/resume.json',
            'rm -rf ../../../tools ../../../lemming',
          ])
            await engine.callTool('a', 'shell', { command });

          expect(hashes(org)).toEqual(before);
          expect(timelineRows(org, lastSeq)).toBe(timelineBefore);
          // Every file tool said no; the shell's attempts fail inside the sandbox (read-only file system).
          expect(refusals.filter((refusal) => !refusal.startsWith('shell'))).toHaveLength(targets.length * 6);
        } finally {
          engine.close();
        }
      },
    );
  },
);
