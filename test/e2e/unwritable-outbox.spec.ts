import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { canMakeImmutable, chattr } from '../harness/immutable-folder';
import { expect, test } from '../harness/lemming-fixture';

// Issue 26, Done-means 2: one agent's outbox becomes unwritable during a run (`chattr +i`, which even root
// cannot write through); that agent's turn fails with a plain reason on screen, the others complete, the app
// keeps answering and runs the next tick.

const AGENTS = ['alpha', 'beta', 'gamma'];

/** A small org whose three agents each send a message and append to their memory every tick. */
function threeAgentOrg(folder: string): string {
  const org = join(folder, 'org');
  const files: Record<string, unknown> = {
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'script.json': {
      default: [
        {
          respond: {
            outbox_entries: [{ kind: 'message', payload: { text: 'all well' } }],
            memory_updates: [{ key: 'seen', op: 'append', value: 1 }],
            notes: 'ok',
            delay_ms: 100,
          },
        },
      ],
    },
  };
  for (const name of AGENTS)
    files[`agents/${name}/resume.json`] = {
      name,
      title: `${name} title`,
      short_description: `${name} agent`,
      instructions: `You are ${name}.`,
      model: { key: 'scripted' },
      permissions: { read_outboxes: ['*'], tools: [] },
      schedule: { run_every_n_ticks: 1, phase_offset: 0 },
    };
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(org, path)), { recursive: true });
    writeFileSync(join(org, path), JSON.stringify(content, null, 2));
  }
  mkdirSync(join(org, 'agents', 'beta', 'outbox'));
  return org;
}

test.skip(
  !canMakeImmutable(),
  'needs `chattr +i` to make a folder unwritable (Linux as root on ext4/xfs/btrfs, as on CI)',
);

test('an outbox made unwritable during a run fails only its agent’s turn, in plain words; the app goes on and runs the next tick', async ({
  lemming,
}, testInfo) => {
  test.setTimeout(120_000);
  const folder = mkdtempSync(join(tmpdir(), 'lemming-e2e-outbox-'));
  const org = threeAgentOrg(folder);
  const outbox = join(org, 'agents', 'beta', 'outbox');
  try {
    await lemming.trustAsIs(org);
    await lemming.openOrgAt(org);
    const { page } = lemming;
    await expect(page.locator('[data-app-state="open"]')).toBeVisible();
    const controls = page.getByRole('region', { name: 'Run controls' });

    // A run of three ticks, four seconds apart; after its first tick beta's outbox becomes unwritable (the
    // pause leaves the page time to show the first tick done on a loaded machine).
    const start = controls.getByRole('form', { name: 'Start a run' });
    await start.getByLabel('Ticks to run').fill('3');
    await start.getByLabel('Seconds between ticks').fill('4');
    await start.getByRole('button', { name: 'Start' }).click();
    await expect(controls.getByTestId('ticks-done')).toHaveText('1 of 3 ticks done', { timeout: 30_000 });
    chattr('+i', outbox);
    await expect(controls.getByTestId('ticks-done')).toHaveText('3 of 3 ticks done', { timeout: 60_000 });
    await expect(controls).toHaveAttribute('data-run-phase', 'idle');

    const reason = 'What it did could not be saved in its folder agents/beta/outbox: permission denied.';
    const beta = page.locator('[data-agent-node="beta"]');
    await expect(beta).toContainText('Failing');
    await expect(beta.locator('.agent-node-reason')).toContainText(reason);
    for (const name of ['alpha', 'gamma'])
      await expect(page.locator(`[data-agent-node="${name}"]`)).not.toContainText('Failing');
    await page.screenshot({ path: testInfo.outputPath('outbox-unwritable-org.png') });

    // The turns that failed are beta's alone: alpha and gamma completed every tick of the run.
    const errors = await page.evaluate(() =>
      window.lemming.timeline.page({ kinds: ['error'], direction: 'asc', limit: 100 }),
    );
    if (!errors.ok) throw new Error(errors.error.message);
    expect(errors.value.rows.map((row) => row.agent)).toContain('beta');
    expect(errors.value.rows.filter((row) => row.agent !== 'beta')).toEqual([]);
    expect(errors.value.rows.find((row) => row.tick === 3)?.summary).toBe(reason);
    const others = await page.evaluate(() =>
      window.lemming.timeline.page({ kinds: ['turn_completed'], agents: ['alpha', 'gamma'], limit: 100 }),
    );
    if (!others.ok) throw new Error(others.error.message);
    expect(others.value.rows.map((row) => `${row.agent}@${row.tick}`).sort()).toEqual([
      'alpha@1',
      'alpha@2',
      'alpha@3',
      'gamma@1',
      'gamma@2',
      'gamma@3',
    ]);

    await page.getByRole('button', { name: 'Table' }).click();
    await expect(page.locator('[data-agent-row="beta"]')).toContainText(reason);
    await page.getByRole('button', { name: 'beta', exact: true }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Its last turn (tick 3) failed' });
    await expect(alert).toContainText(reason);
    await expect(
      page.getByRole('list', { name: 'Recent turns of beta' }).getByRole('listitem').first(),
    ).toHaveText(/^Tick 3 failed/);
    await page.screenshot({ path: testInfo.outputPath('outbox-unwritable-agent.png') });
    await alert.getByRole('button', { name: 'Show that turn in the timeline' }).click();
    await expect(page.getByRole('heading', { name: 'Timeline', level: 2 })).toBeVisible();
    await expect(page.getByText(reason).first()).toBeVisible();
    await page.screenshot({ path: testInfo.outputPath('outbox-unwritable-timeline.png') });

    // The app keeps answering and runs the next tick; once the outbox can be written again, beta completes.
    expect(await page.evaluate(() => window.lemming.app.info())).toMatchObject({ ok: true });
    await lemming.showView('Org');
    await page.getByRole('button', { name: 'Graph' }).click();
    await controls.getByRole('button', { name: 'Step one tick' }).click();
    await expect(controls.getByTestId('current-tick')).toHaveText('Next tick 5', { timeout: 30_000 });
    await expect(beta.locator('.agent-node-reason')).toContainText(reason);
    chattr('-i', outbox);
    await controls.getByRole('button', { name: 'Step one tick' }).click();
    await expect(controls.getByTestId('current-tick')).toHaveText('Next tick 6', { timeout: 30_000 });
    await expect(beta).not.toContainText('Failing');
    await page.screenshot({ path: testInfo.outputPath('outbox-writable-again.png') });
  } finally {
    chattr('-i', outbox);
    rmSync(folder, { recursive: true, force: true });
  }
});
