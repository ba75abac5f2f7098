import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fromMicros } from '../credits/credit-amount';
import { nextTickToRead, openTimelineToRead } from '../app/org-reader';
import { OrgEngine } from './org-engine';
import { REPO_ROOT, scriptedOrgFiles, tempOrgs } from './test-support/temp-org';
import { trustAsIs } from '../trust/test-support/trust-as-is';

const CHILD = join(REPO_ROOT, 'engine', 'run', 'test-support', 'crash-child.ts');
const orgs = tempOrgs();
afterAll(() => orgs.cleanup());

/**
 * Every step of writing tick.json and credits.json: their first write (a temp file renamed into place,
 * at tick 1) and each later one (through the spare beside the file, from tick 2), and the moments around
 * the commit that closes a tick.
 */
const CRASH_POINTS = [
  ...['tick.json', 'credits.json'].flatMap((file) => [
    `${file}:temp-written#1`,
    `${file}:renamed#1`,
    `${file}:spare-written#1`,
    `${file}:moved-aside#1`,
    `${file}:spare-in-place#1`,
  ]),
  'tick:turns-committed#2',
  'tick:closing-committed#2',
  'tick:files-written#2',
];

function runChildUntilKilled(org: string, crashAt: string): Promise<NodeJS.Signals | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, org, '4'], {
      cwd: REPO_ROOT,
      env: { ...process.env, LEMMING_CRASH_AT: crashAt },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) =>
      code === 0 || signal === 'SIGKILL'
        ? resolve(signal)
        : reject(new Error(`child failed (${code}): ${stderr}`)),
    );
  });
}

/** alpha runs every tick, beta every other one; both post a message each turn. */
function alphaAndBeta(): string {
  return orgs.build(
    scriptedOrgFiles(
      {
        default: [
          { respond: { outbox_entries: [{ kind: 'message', payload: { text: 'hi' } }], notes: 'ok' } },
        ],
      },
      { alpha: {}, beta: { schedule: { run_every_n_ticks: 2, phase_offset: 0 } } },
    ),
  );
}

function completedTicks(engine: OrgEngine): number[] {
  return engine.timeline.db
    .prepare("SELECT tick FROM events WHERE kind = 'tick_completed' ORDER BY seq")
    .pluck()
    .all() as number[];
}

describe('a kill inside any step of writing tick.json or credits.json', () => {
  it.each(CRASH_POINTS)(
    'at %s leaves the org whole: the files valid, the next tick right, one tick_completed per tick',
    { timeout: 60_000 },
    async (crashAt) => {
      const org = alphaAndBeta();
      expect(await runChildUntilKilled(org, crashAt)).toBe('SIGKILL');

      // Before anything repairs the org, a read-only look (lemming status) already sees the right next tick.
      const look = await openTimelineToRead(org);
      const seenByStatus = await nextTickToRead({ orgPath: org, timeline: look.timeline });
      const completedBefore = look.timeline
        ? (look.timeline.db
            .prepare("SELECT coalesce(max(tick), 0) FROM events WHERE kind = 'tick_completed'")
            .pluck()
            .get() as number)
        : null;
      look.timeline?.close();
      expect(look.note).toBeNull();
      expect(seenByStatus).toEqual({ ok: true, value: completedBefore! + 1 });
      expect(completedBefore).toBeGreaterThan(0);

      const engine = await OrgEngine.open({
        trust: await trustAsIs(org),
        orgPath: org,
        env: {},
      });
      try {
        const completed = completedTicks(engine);
        expect(completed).toEqual(Array.from({ length: completed.length }, (_, index) => index + 1));
        for (const file of ['tick.json', 'credits.json']) {
          const path = join(org, 'lemming', 'config', file);
          expect(existsSync(path), file).toBe(true);
          expect(() => JSON.parse(readFileSync(path, 'utf8')), file).not.toThrow();
        }
        expect(await engine.currentTick()).toBe(completed.length + 1);

        await engine.runTick();
        await engine.runTick();
        const after = completedTicks(engine);
        expect(after).toEqual(Array.from({ length: completed.length + 2 }, (_, index) => index + 1));
        expect(JSON.parse(readFileSync(join(org, 'lemming/config/tick.json'), 'utf8'))).toEqual({
          current_tick: after.length + 1,
        });
        const credits = JSON.parse(readFileSync(join(org, 'lemming/config/credits.json'), 'utf8')) as Record<
          string,
          { credits_left: number }
        >;
        for (const [agent, micros] of engine.ledger.balances())
          expect(credits[agent]?.credits_left, agent).toBe(fromMicros(micros));
        // Every turn ran once: alpha at every tick, beta at the even ones.
        const turns = engine.timeline.db
          .prepare("SELECT agent || ':' || tick FROM turns ORDER BY tick, agent")
          .pluck()
          .all();
        const expected = after.flatMap((tick) =>
          tick % 2 === 0 ? [`alpha:${tick}`, `beta:${tick}`] : [`alpha:${tick}`],
        );
        expect(turns).toEqual(expected);
      } finally {
        engine.close();
      }
    },
  );
});
