import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { z } from 'zod';
import type { RecentOrg } from '../../engine/api/desktop-schemas';
import { writeJsonAtomic } from '../../engine/files/atomic-write';

export const RECENT_ORGS_FILE = 'recent-orgs.json';

/** How many orgs the list keeps besides the pinned ones. */
export const RECENT_ORGS_KEPT = 10;

const Kept = z.array(z.object({ path: z.string(), openedAt: z.string(), pinned: z.boolean() }));
type Kept = z.infer<typeof Kept>;

/** The orgs the person opened, in `<userData>/recent-orgs.json`: pinned ones first, then the newest. */
export interface RecentOrgs {
  list(): Promise<RecentOrg[]>;
  remember(path: string): Promise<RecentOrg[]>;
  pin(path: string, pinned: boolean): Promise<RecentOrg[]>;
  forget(path: string): Promise<RecentOrg[]>;
}

export function recentOrgsIn(userDataPath: string, now: () => Date = () => new Date()): RecentOrgs {
  const file = join(userDataPath, RECENT_ORGS_FILE);
  const read = async (): Promise<Kept> => {
    try {
      const parsed = Kept.safeParse(JSON.parse(await readFile(file, 'utf8')));
      return parsed.success ? parsed.data : [];
    } catch {
      return [];
    }
  };
  const save = async (kept: Kept) => {
    const ordered = order(kept);
    const pinned = ordered.filter((org) => org.pinned);
    const rest = ordered.filter((org) => !org.pinned).slice(0, RECENT_ORGS_KEPT);
    await writeJsonAtomic(file, [...pinned, ...rest]);
    return shown([...pinned, ...rest]);
  };
  return {
    list: async () => shown(order(await read())),
    async remember(path) {
      const kept = await read();
      const pinned = kept.find((org) => org.path === path)?.pinned ?? false;
      return save([
        { path, openedAt: now().toISOString(), pinned },
        ...kept.filter((org) => org.path !== path),
      ]);
    },
    pin: async (path, pinned) =>
      save((await read()).map((org) => (org.path === path ? { ...org, pinned } : org))),
    forget: async (path) => save((await read()).filter((org) => org.path !== path)),
  };
}

function order(kept: Kept): Kept {
  return [...kept].sort(
    (a, b) => Number(b.pinned) - Number(a.pinned) || b.openedAt.localeCompare(a.openedAt),
  );
}

function shown(kept: Kept): RecentOrg[] {
  return kept.map((org) => ({ ...org, name: basename(org.path), missing: !existsSync(org.path) }));
}
