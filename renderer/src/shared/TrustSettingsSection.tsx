import { useId, useState } from 'react';
import type { OrgTrust } from '../../../engine/api';
import { Advanced } from '../components/Advanced';
import { Badge, type BadgeTone } from '../components/Badge';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { useTrustStore } from '../stores/trust-store';
import { useRunState, useRunStore } from '../stores/run-store';
import '../views/trust/trust.css';

const STATE_WORDS: Record<OrgTrust['state'], { badge: string; tone: BadgeTone; words: string }> = {
  not_needed: {
    badge: 'Needs no trust',
    tone: 'neutral',
    words: 'This org starts no program, contacts no address and uses no secret, so it runs without asking.',
  },
  trusted: {
    badge: 'Trusted',
    tone: 'ok',
    words: 'Its agents may run: they may start the programs and contact the places you saw.',
  },
  untrusted: {
    badge: 'Not trusted',
    tone: 'warn',
    words: 'Nothing in this org runs until you trust it. You can look at everything in it meanwhile.',
  },
  changed: {
    badge: 'Changed since you trusted it',
    tone: 'warn',
    words: 'What it would start or contact changed. Nothing of it runs until you look at the change.',
  },
};

/** Settings → Trust: whether the open org may run, with the way to review it and to take trust back. */
export function TrustSettingsSection() {
  const headingId = useId();
  const trust = useTrustStore((store) => store.trust);
  if (!trust) return null;
  const state = STATE_WORDS[trust.state];
  const since = trust.trustedAt ? new Date(trust.trustedAt).toLocaleString() : null;
  return (
    <section className="panel" aria-labelledby={headingId} data-trust-state={trust.state}>
      <h3 id={headingId}>Trust</h3>
      <p className="trust-settings-state">
        <Badge tone={state.tone}>{state.badge}</Badge>
        {trust.state === 'trusted' && since && <span className="muted small">since {since}</span>}
      </p>
      <p className="small">{state.words}</p>
      <TrustActions trust={trust} />
      <Advanced>
        Your choice is kept by this app, outside the org folder, for <code>{trust.orgPath}</code>. On the
        command line: <code>lemming trust &lt;org&gt;</code> lists what it would do, <code>--yes</code> trusts
        it, <code>--revoke</code> takes trust back.
      </Advanced>
    </section>
  );
}

function TrustActions({ trust }: { trust: OrgTrust }) {
  const review = useTrustStore((store) => store.review);
  const revoke = useTrustStore((store) => store.revoke);
  const phase = useRunState()?.phase ?? 'idle';
  const stop = useRunStore((store) => store.stop);
  const [confirming, setConfirming] = useState(false);
  if (trust.state === 'not_needed') return null;

  const takeBack = async () => {
    setConfirming(false);
    if (phase !== 'idle') await stop();
    await revoke();
  };

  return (
    <div className="button-row">
      <button type="button" className={trust.state === 'trusted' ? undefined : 'primary'} onClick={review}>
        {trust.state === 'trusted' ? 'Review what it may do…' : 'Review and trust…'}
      </button>
      {trust.state === 'trusted' && (
        <button type="button" onClick={() => setConfirming(true)}>
          Stop trusting this org…
        </button>
      )}
      <ConfirmDialog
        open={confirming}
        title="Stop trusting this org?"
        confirmLabel="Stop trusting it"
        destructive
        onConfirm={() => void takeBack()}
        onCancel={() => setConfirming(false)}
      >
        <p>
          Nothing in it runs until you trust it again
          {phase !== 'idle' ? ' (the run stops after this tick)' : ''}. The secrets you let it use stay
          allowed, for when you do.
        </p>
      </ConfirmDialog>
    </div>
  );
}
