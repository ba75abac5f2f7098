import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { JobProgress } from '../../engine/api/job-schemas';
import { OVERLAY_BADGES, overlayBadge, overlayBadgeFile, taskbarProgress } from './taskbar';

const job = (done: number, total: number, ended = false): JobProgress => ({
  id: `${done}/${total}`,
  kind: 'timeline_export',
  done,
  total,
  ended,
});

describe('the taskbar progress of long jobs', () => {
  it('is the share of the work done, across the jobs going on', () => {
    expect(taskbarProgress([job(250, 1000)])).toBe(0.25);
    expect(taskbarProgress([job(250, 1000), job(750, 1000)])).toBe(0.5);
    expect(taskbarProgress([job(0, 0)])).toBe(0);
  });

  it('is gone when no job is going on', () => {
    expect(taskbarProgress([])).toBeNull();
    expect(taskbarProgress([job(1000, 1000, true)])).toBeNull();
  });
});

describe('the Windows taskbar overlay', () => {
  it('counts 1 to 9, then says 9+, in words for a screen reader', () => {
    expect(overlayBadge(0)).toBeNull();
    expect(overlayBadge(1)).toEqual({ badge: '1', description: '1 thing needs you' });
    expect(overlayBadge(3)).toEqual({ badge: '3', description: '3 things need you' });
    expect(overlayBadge(9)?.badge).toBe('9');
    expect(overlayBadge(10)).toEqual({ badge: '9+', description: '10 things need you' });
    expect(overlayBadge(250)?.badge).toBe('9+');
  });

  it('has a file name for each image', () => {
    expect(overlayBadgeFile('4')).toBe('badge-4.png');
    expect(overlayBadgeFile('9+')).toBe('badge-9-plus.png');
  });
});

it('has each overlay image in the build resources the app ships', () => {
  const folder = join(import.meta.dirname, '..', '..', 'build', 'badges');
  expect(OVERLAY_BADGES.filter((badge) => !existsSync(join(folder, overlayBadgeFile(badge))))).toEqual([]);
});
