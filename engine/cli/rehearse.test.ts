import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { rehearsalDetail } from '../app/rehearsal-inspector';
import { resume, tempOrgs } from '../run/test-support/temp-org';
import { openTimeline } from '../timeline/timeline-store';
import { runCli } from './test-support/run-cli';

const orgs = tempOrgs();
afterEach(() => orgs.cleanup());

/** Ada writes notes.md and runs the shell with tools, then sends Bo a message and adds to her memory. */
async function adaOrg(): Promise<string> {
  const org = orgs.build({
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'script.json': {
      agents: {
        ada: [
          {
            when: { round: 1 },
            respond: {
              tool_calls: [
                { tool: 'file_write', args: { path: 'notes.md', content: 'a new plan' } },
                { tool: 'shell', args: { command: 'rm -rf shared' } },
              ],
            },
          },
          {
            respond: {
              outbox_entries: [{ kind: 'message', payload: { text: 'Plan is ready' }, to: ['bo'] }],
              memory_updates: [{ key: 'done', op: 'append', value: 'plan' }],
            },
          },
        ],
      },
    },
    'agents/ada/resume.json': resume('ada', {
      permissions: { read_outboxes: ['human'], tools: ['file_write', 'shell'] },
    }),
    'agents/ada/workspace/notes.md': 'the old plan\n',
    'agents/bo/resume.json': resume('bo'),
    'shared/keep.md': 'kept\n',
  });
  expect((await runCli(['trust', org, '--yes'])).code).toBe(0);
  return org;
}

function fileHashes(org: string): Record<string, string> {
  const hashes: Record<string, string> = {};
  for (const entry of readdirSync(org, { recursive: true, withFileTypes: true })) {
    const path = relative(org, join(entry.parentPath, entry.name));
    if (entry.isFile() && !path.startsWith(join('.lemming', 'timeline.sqlite')))
      hashes[path] = createHash('sha256')
        .update(readFileSync(join(org, path)))
        .digest('hex');
  }
  return hashes;
}

function eventKinds(org: string): string[] {
  const db = new Database(join(org, '.lemming', 'timeline.sqlite'), { readonly: true });
  try {
    return db.prepare('SELECT kind FROM events ORDER BY seq').pluck().all() as string[];
  } finally {
    db.close();
  }
}

describe('lemming rehearse', () => {
  it('of a turn that writes a file, sends a message, appends memory and runs the shell changes no file and adds only its record', async () => {
    const org = await adaOrg();
    expect((await runCli(['send', org, 'Plan the week, Ada.', '--to', 'ada'])).code).toBe(0);
    const kindsBefore = eventKinds(org);
    const filesBefore = fileHashes(org);

    const rehearsed = await runCli(['rehearse', org, 'ada']);

    expect(rehearsed.stderr).toBe('');
    expect(rehearsed.code).toBe(0);
    expect(fileHashes(org)).toEqual(filesBefore);
    expect(eventKinds(org)).toEqual([...kindsBefore, 'rehearsal']);
    const wouldDo = [
      'Would do: Write a file notes.md (10 characters)',
      'Would do: Run a shell command rm -rf shared',
      "Would do: Add to the memory 'done'",
      'Would do: Send a message to bo: Plan is ready',
    ];
    expect(rehearsed.stdout.split('\n').filter((line) => line.startsWith('  Would do: '))).toEqual(
      wouldDo.map((line) => `  ${line}`),
    );

    const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'), { readonly: true });
    if (!opened.ok) throw new Error(opened.error.message);
    try {
      const seq = opened.timeline.latestSeq();
      const detail = rehearsalDetail(opened.timeline, seq);
      if (!detail.ok) throw new Error(detail.error.message);
      expect(detail.value.wouldDo.map(({ title, target }) => `Would do: ${title} ${target}`)).toEqual(
        wouldDo,
      );
    } finally {
      opened.timeline.close();
    }
  });

  it('of an agent with no credits says its turn would be skipped, and why', async () => {
    const org = await adaOrg();
    writeFileSync(
      join(org, 'lemming/config/credits.json'),
      JSON.stringify({ bo: { model: 'scripted', cost_per_action: 0.01, credits_left: 0 } }),
    );
    const rehearsed = await runCli(['rehearse', org, 'bo']);
    expect(rehearsed.code).toBe(0);
    expect(rehearsed.stdout.split('\n').slice(0, 3)).toEqual([
      "Rehearsal of bo's turn (as tick 1): skipped. Nothing was done.",
      'bo has no credits left.',
      'It would have done nothing.',
    ]);
  });

  it('says which agent it does not know', async () => {
    const org = await adaOrg();
    const rehearsed = await runCli(['rehearse', org, 'nobody']);
    expect(rehearsed.code).not.toBe(0);
    expect(rehearsed.stderr).toContain('There is no agent named "nobody"');
  });
});
