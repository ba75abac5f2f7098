import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RECENT_ORGS_KEPT, recentOrgsIn } from './recent-orgs';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function setUp() {
  const dir = mkdtempSync(join(tmpdir(), 'lemming-recent-'));
  made.push(dir);
  let minute = 0;
  const clock = () => new Date(Date.UTC(2026, 10, 27, 10, minute++));
  const org = (name: string) => {
    const path = join(dir, name);
    mkdirSync(path, { recursive: true });
    return path;
  };
  return { recent: recentOrgsIn(join(dir, 'userData'), clock), org };
}

describe('recent orgs', () => {
  it('lists the orgs opened, newest first, each once', async () => {
    const { recent, org } = setUp();
    const acme = org('acme');
    const beta = org('beta');
    await recent.remember(acme);
    await recent.remember(beta);
    const list = await recent.remember(acme);
    expect(list.map((entry) => entry.name)).toEqual(['acme', 'beta']);
    expect(await recent.list()).toEqual(list);
  });

  it('keeps pinned orgs first and beyond the limit', async () => {
    const { recent, org } = setUp();
    const pinned = org('keep-me');
    await recent.remember(pinned);
    await recent.pin(pinned, true);
    for (let index = 0; index < RECENT_ORGS_KEPT + 3; index++) await recent.remember(org(`org-${index}`));
    const list = await recent.list();
    expect(list[0]).toMatchObject({ name: 'keep-me', pinned: true });
    expect(list).toHaveLength(RECENT_ORGS_KEPT + 1);
  });

  it('shows a folder that is gone as missing, and forgets it when asked', async () => {
    const { recent, org } = setUp();
    const gone = org('gone');
    await recent.remember(gone);
    rmSync(gone, { recursive: true });
    expect(await recent.list()).toEqual([expect.objectContaining({ name: 'gone', missing: true })]);
    expect(await recent.forget(gone)).toEqual([]);
  });
});
