import AxeBuilder from '@axe-core/playwright';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, openSync, readdirSync, readSync } from 'node:fs';
import { join } from 'node:path';
import { openTimeline } from '../../engine/timeline/timeline-store';
import { partialPathOf } from '../../engine/timeline/write-lines';
import { DEMO_ORG, expect, test } from '../harness/lemming-fixture';

const EVENTS = 60_000;

/** A long run's timeline, written with the engine's own store. */
function seedTimeline(org: string): void {
  const opened = openTimeline(join(org, '.lemming', 'timeline.sqlite'));
  if (!opened.ok) throw new Error(opened.error.message);
  try {
    for (let start = 0; start < EVENTS; start += 5000)
      opened.timeline.appendMany(
        Array.from({ length: 5000 }, (_, offset) => ({
          kind: 'note',
          agent: 'manager',
          tick: 1 + Math.floor((start + offset) / 100),
          text: `note number ${start + offset} of a long run`,
        })),
      );
  } finally {
    opened.timeline.close();
  }
}

/**
 * A disk that takes bytes only when the test says so: the export's file is written through a named
 * pipe (where the export writes before the file is complete), which the test reads at its own pace.
 */
function slowDisk(file: string) {
  execFileSync('mkfifo', [partialPathOf(file)]);
  const reader = openSync(partialPathOf(file), constants.O_RDONLY | constants.O_NONBLOCK);
  const buffer = Buffer.alloc(1 << 20);
  return {
    /** Takes about `bytes` from the pipe, as much as has been written of them. */
    take(bytes: number): number {
      let taken = 0;
      while (taken < bytes) {
        try {
          const read = readSync(reader, buffer, 0, Math.min(buffer.length, bytes - taken), null);
          if (read === 0) break;
          taken += read;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
          throw error;
        }
      }
      return taken;
    },
    close: () => closeSync(reader),
  };
}

test.skip(process.platform === 'win32', 'the slow disk is a named pipe');

test('a long export shows how far it is, and Cancel stops it and leaves no file', async ({ lemming }) => {
  const { page } = lemming;
  const org = lemming.copyOfFolder(DEMO_ORG);
  seedTimeline(org);
  const folder = join(lemming.copyOfFolder(join(org, 'shared')), 'exports');
  execFileSync('mkdir', [folder]);
  const file = join(folder, 'timeline.jsonl');
  lemming.setExportFile(file);
  const disk = slowDisk(file);
  try {
    await lemming.trustAsIs(org);
    await lemming.openOrgAt(org);
    await lemming.showView('Timeline');
    await page.getByRole('button', { name: 'Export all events…' }).click();

    const bar = page.getByRole('progressbar', { name: 'Export progress' });
    await expect(bar).toBeVisible();
    const written = () => bar.evaluate((element) => (element as HTMLProgressElement).value);
    let before = await written();
    for (let step = 0; step < 2; step++) {
      await expect
        .poll(async () => {
          disk.take(256 * 1024);
          return written();
        })
        .toBeGreaterThan(before);
      before = await written();
    }
    await expect(page.getByText(/^Exporting [\d,]+ of [\d,]+ events…$/)).toBeVisible();
    await page
      .locator('.timeline-header')
      .screenshot({ path: test.info().outputPath('export-progress.png') });
    const axe = await new AxeBuilder({ page }).include('.timeline-header').analyze();
    expect(axe.violations.map((violation) => violation.id)).toEqual([]);

    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Export cancelled.' })).toBeVisible();
    await expect(bar).toBeHidden();
    await expect(page.getByRole('button', { name: 'Export all events…' })).toBeEnabled();
    await page.locator('.timeline-view').screenshot({ path: test.info().outputPath('export-cancelled.png') });
  } finally {
    disk.close();
  }
  expect(existsSync(file)).toBe(false);
  expect(readdirSync(folder)).toEqual([]);
});
