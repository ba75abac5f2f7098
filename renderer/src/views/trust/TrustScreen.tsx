import { useEffect, useId, useRef, useState, type RefObject } from 'react';
import type { OrgGrants, OrgTrust } from '../../../../engine/api';
import { Advanced } from '../../components/Advanced';
import { useTrustStore } from '../../stores/trust-store';
import { useQuery } from '../../server-state/use-query';
import { BundleOriginSection } from './BundleOriginSection';
import { GrantList } from './GrantList';
import { ReachSection } from './ReachSection';
import { reachLines, REACH_SECTIONS } from './reach-words';
import { WhatChanged } from './WhatChanged';
import './trust.css';

/**
 * Stands in front of an org that would start programs, contact addresses or use secrets and is not
 * trusted as it is now: what it would do, in plain words, and the person's choice. Nothing of the org
 * has run while it is shown.
 */
export function TrustScreen({ orgName }: { orgName: string }) {
  const trust = useTrustStore((store) => store.trust);
  if (!trust) return null;
  // A new list (the org changed) starts from what is granted now, not from the ticks of the old one.
  return <TrustDecision key={trust.fingerprint} trust={trust} orgName={orgName} />;
}

function TrustDecision({ trust, orgName }: { trust: OrgTrust; orgName: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  const headingId = useId();
  const changedWhileShown = useTrustStore((store) => store.changedWhileShown);
  const listed = namesListed(trust);
  const [granted, setGranted] = useState<OrgGrants>(() => ({
    secrets: trust.grants.secrets.filter((name) => listed.secrets.includes(name)),
    environment: trust.grants.environment.filter((name) => listed.environment.includes(name)),
  }));
  const { result: secretList } = useQuery('secrets.list', {});
  const stored = new Set(
    secretList?.ok
      ? secretList.value.secrets.filter((secret) => secret.isSet).map((secret) => secret.name)
      : [],
  );

  useEffect(() => heading.current?.focus({ preventScroll: true }), []);

  const lines = reachLines(trust.reach.items);
  const tick = (kind: keyof OrgGrants) => (name: string, on: boolean) =>
    setGranted((now) => ({
      ...now,
      [kind]: on ? [...now[kind], name] : now[kind].filter((held) => held !== name),
    }));

  return (
    <section className="trust-screen" aria-labelledby={headingId} data-trust-state={trust.state}>
      <TrustHeading trust={trust} orgName={orgName} headingId={headingId} heading={heading} />
      {changedWhileShown && (
        <p className="trust-notice" role="status">
          This org changed while you were looking at it, so nothing was trusted. Below is what it would do
          now.
        </p>
      )}
      {trust.state === 'changed' && trust.changes && <WhatChanged changes={trust.changes} />}
      <BundleOriginSection trust={trust} stored={secretList?.ok ? stored : null} />
      {REACH_SECTIONS.map((section) => (
        <ReachSection
          key={section.title}
          title={section.title}
          explanation={section.explanation}
          lines={lines.filter((line) => section.kinds.includes(line.kind))}
        />
      ))}
      <GrantList
        kind="secret"
        lines={lines.filter((line) => line.kind === 'secret')}
        granted={granted.secrets}
        stored={secretList?.ok ? stored : null}
        onTick={tick('secrets')}
      />
      <GrantList
        kind="environment"
        lines={lines.filter((line) => line.kind === 'environment')}
        granted={granted.environment}
        stored={null}
        onTick={tick('environment')}
      />
      <UnreadableFiles trust={trust} />
      <Advanced label="Advanced: where the org says so">
        <ul className="trust-where">
          {lines.map((line) => (
            <li key={`${line.kind}:${line.subject}`}>
              <code>{line.subject}</code>: {line.where.join(', ')}
            </li>
          ))}
        </ul>
        <p className="muted small">
          Your choice is kept by this app, outside the org folder, for <code>{trust.orgPath}</code>.
        </p>
      </Advanced>
      <TrustChoices trust={trust} listed={listed} granted={granted} />
    </section>
  );
}

function TrustHeading({
  trust,
  orgName,
  headingId,
  heading,
}: {
  trust: OrgTrust;
  orgName: string;
  headingId: string;
  heading: RefObject<HTMLHeadingElement | null>;
}) {
  const since = trust.trustedAt ? new Date(trust.trustedAt).toLocaleDateString() : null;
  const [title, words] =
    trust.state === 'changed'
      ? [
          'This org changed since you trusted it',
          `What “${orgName}” would start or contact is not what you trusted${since ? ` on ${since}` : ''}. Nothing of it runs until you look at the change and trust it again.`,
        ]
      : trust.state === 'trusted' || trust.state === 'not_needed'
        ? [
            'What this org may do',
            `You trust “${orgName}”${since ? ` since ${since}` : ''}. This is what it may start, contact and use.`,
          ]
        : [
            'Do you trust this org?',
            `“${orgName}” is a folder on your computer that can start programs and send what its agents write to other places. Nothing in it has run yet. Look at what it would do, then choose.`,
          ];
  return (
    <header className="trust-heading">
      <h2 id={headingId} ref={heading} tabIndex={-1}>
        {title}
      </h2>
      <p>{words}</p>
    </header>
  );
}

function UnreadableFiles({ trust }: { trust: OrgTrust }) {
  const headingId = useId();
  if (trust.reach.unreadable.length === 0) return null;
  return (
    <section className="trust-section" aria-labelledby={headingId}>
      <h3 id={headingId}>Settings it could not read</h3>
      <p className="trust-explanation">
        Some of this org’s settings could not be read, so this list may not be complete. Trust it only if you
        know where it comes from.
      </p>
      <Advanced>
        <ul className="trust-where">
          {trust.reach.unreadable.map((file) => (
            <li key={file.file}>
              <code>{file.file}</code>: {file.message}
            </li>
          ))}
        </ul>
      </Advanced>
    </section>
  );
}

function TrustChoices({
  trust,
  listed,
  granted,
}: {
  trust: OrgTrust;
  listed: OrgGrants;
  granted: OrgGrants;
}) {
  const accept = useTrustStore((store) => store.accept);
  const openWithoutRunning = useTrustStore((store) => store.openWithoutRunning);
  const [busy, setBusy] = useState(false);
  const trusted = trust.state === 'trusted' || trust.state === 'not_needed';
  const trustIt = async () => {
    setBusy(true);
    await accept(trust.fingerprint, listed, granted);
    setBusy(false);
  };

  return (
    <div className="trust-choices">
      <div className="trust-choice">
        <button type="button" className="primary" disabled={busy} onClick={() => void trustIt()}>
          {trusted ? 'Keep trusting it' : 'Trust this org'}
        </button>
        <p className="muted small">
          Its agents may run: they start these programs and contact these places when they need them, and use
          only the secrets and variables you ticked.
        </p>
      </div>
      <div className="trust-choice">
        <button type="button" disabled={busy} onClick={openWithoutRunning}>
          {trusted ? 'Close' : 'Open without running'}
        </button>
        <p className="muted small">
          {trusted
            ? 'Nothing changes.'
            : 'See its agents, timeline and tools. Nothing starts and nothing is sent until you trust it.'}
        </p>
      </div>
    </div>
  );
}

/** The secrets and variables the screen lists: the only ones its ticks may grant or take back. */
function namesListed(trust: OrgTrust): OrgGrants {
  const named = (kind: 'secret' | 'environment') => [
    ...new Set(trust.reach.items.filter((item) => item.kind === kind).map((item) => item.subject)),
  ];
  return { secrets: named('secret'), environment: named('environment') };
}
