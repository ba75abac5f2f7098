import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, REPO_ROOT, test } from '../harness/lemming-fixture';

/** `lemming run` on the org in its own process; resolves once its first tick is done. */
function cliRun(org: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [join(REPO_ROOT, 'bin', 'lemming.mjs'), 'run', org, '--ticks', '1000', '--interval', '0.5'],
    {
      cwd: REPO_ROOT,
      // Its own trust record, never the person's real one in ~/.config.
      env: {
        PATH: process.env.PATH ?? '',
        LEMMING_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'lemming-config-')),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('tick 1:')) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`lemming run exited with ${code}: ${out}`)));
  });
}

test('while `lemming run` runs the org, the run controls say another program runs it; after it is killed, the app runs it', async ({
  lemming,
}, testInfo) => {
  await lemming.gotoApp();
  const { page } = lemming;
  await page.getByRole('button', { name: 'Open the demo org' }).click();
  await expect(page.locator('[data-app-state="open"]')).toBeVisible();
  const org = lemming.currentOrgPath();
  const controls = page.getByRole('region', { name: 'Run controls' });

  const cli = await cliRun(org);
  try {
    const notice = controls.getByTestId('run-held-elsewhere');
    await expect(notice).toContainText('This org is being run by another program', { timeout: 10_000 });
    await expect(controls.getByRole('button', { name: 'Step one tick' })).toHaveCount(0);
    await expect(controls.getByRole('button', { name: 'Start' })).toHaveCount(0);
    await notice.getByText('Advanced').click();
    await expect(notice).toContainText(`lemming run, process ${cli.pid}`);
    // What the other program commits reaches the timeline view.
    await page.keyboard.press('Control+2');
    await expect(page.getByRole('heading', { name: 'Timeline', level: 2 })).toBeVisible();
    await page.keyboard.press('Control+1');
    await controls.screenshot({ path: testInfo.outputPath('run-held-elsewhere.png') });
    await page.screenshot({ path: testInfo.outputPath('run-held-elsewhere-page.png'), fullPage: true });

    // The app's own run controls are refused by the engine too, not only hidden: a Step asked over the
    // bridge (as a stale window would) runs no tick of the app's own.
    const refused = await page.evaluate(() => window.lemming.run.step());
    expect(refused).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(refused.ok ? '' : refused.error.message).toMatch(
      /being run by another program: lemming run \(pid \d+/,
    );
    expect(await page.evaluate(() => window.lemming.run.state())).toMatchObject({
      ok: true,
      value: { phase: 'idle', ticksRun: 0, heldElsewhere: { pid: cli.pid, program: 'lemming run' } },
    });
  } finally {
    cli.kill('SIGKILL');
  }

  await expect(controls.getByTestId('run-held-elsewhere')).toHaveCount(0, { timeout: 10_000 });
  const before = await controls.getByTestId('current-tick').textContent();
  await controls.getByRole('button', { name: 'Step one tick' }).click();
  await expect(controls.getByTestId('ticks-done')).toHaveText('1 tick done');
  const nextTick = Number(/\d+/.exec(before ?? '')![0]);
  await expect(controls.getByTestId('current-tick')).toHaveText(`Next tick ${nextTick + 1}`);
  await controls.screenshot({ path: testInfo.outputPath('run-after-kill.png') });
});
