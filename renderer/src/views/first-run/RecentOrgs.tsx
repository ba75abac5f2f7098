import { useId } from 'react';
import type { RecentOrg } from '../../../../engine/api';
import { valueOf, write } from '../../server-state/write';
import { useOrgStore } from '../../stores/org-store';
import { useQuery } from '../../server-state/use-query';

/** The orgs opened before, pinned first: open one with a click; a folder that is gone says so and can be taken off. */
export function RecentOrgs() {
  const headingId = useId();
  const open = useOrgStore((store) => store.open);
  const busy = useOrgStore((store) => store.state.status === 'opening');
  const { result, replace } = useQuery('recentOrgs.list', {});
  const orgs = result?.ok ? result.value : [];
  if (orgs.length === 0) return null;

  const change = async (work: () => Promise<RecentOrg[] | null>) => {
    const list = await work();
    if (list) replace(list);
  };
  const pin = (org: RecentOrg) =>
    change(() =>
      write(
        'recentOrgs.pin',
        { path: org.path, pinned: !org.pinned },
        { progress: org.pinned ? 'Unpinning…' : 'Pinning…', failure: 'Could not change the list' },
      ).then(valueOf),
    );
  const forget = (org: RecentOrg) =>
    change(() =>
      write(
        'recentOrgs.forget',
        { path: org.path },
        { progress: 'Taking it off the list…', failure: 'Could not change the list' },
      ).then(valueOf),
    );

  return (
    <section className="recent-orgs" aria-labelledby={headingId}>
      <h3 id={headingId}>Open a recent org</h3>
      <ul>
        {orgs.map((org) => (
          <li key={org.path} className={org.missing ? 'missing' : undefined}>
            <button
              type="button"
              className="recent-open"
              disabled={busy || org.missing}
              onClick={() => void open(org.path)}
            >
              <span className="recent-name">
                {org.name}
                {org.pinned && <span className="recent-pinned">Pinned</span>}
              </span>
              <span className="recent-path">{org.missing ? `Folder not found: ${org.path}` : org.path}</span>
            </button>
            {org.missing ? (
              <button type="button" onClick={() => void forget(org)}>
                Remove from list
              </button>
            ) : (
              <button type="button" aria-pressed={org.pinned} onClick={() => void pin(org)}>
                {org.pinned ? 'Unpin' : 'Pin'}
                <span className="visually-hidden"> {org.name}</span>
              </button>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
