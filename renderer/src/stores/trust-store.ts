import { create } from 'zustand';
import type { GrantInput, OrgGrants, OrgTrust } from '../../../engine/api';
import { valueOf, write } from '../server-state/write';
import { serverState } from '../server-state/instance';

interface TrustStore {
  /** The open org's trust as main last said it; null before it is read (nothing may run then). */
  trust: OrgTrust | null;
  /**
   * The fingerprint the person last made a choice about (trusted it, or opened it without running):
   * the trust screen comes back on its own only when what the org can run or reach moves past it.
   */
  decided: string | null;
  /** The person asked to see the trust screen (Review trust, or a run refused because of trust). */
  reviewing: boolean;
  /** Trust was refused because the org changed while its list was on screen: the new list is shown. */
  changedWhileShown: boolean;
  /** Reads the trust of the org just opened, before any of its views (or its run bar) appears. */
  opened(): Promise<void>;
  /** Reads it again (the org may have been edited); the screen returns if what it can do moved. */
  refresh(): void;
  review(): void;
  /** A run was refused because the org is not trusted: read its trust again and show the screen. */
  runRefused(): Promise<void>;
  openWithoutRunning(): void;
  /** Trust the org as shown (its fingerprint), granting exactly `granted` of what the screen listed. */
  accept(fingerprint: string, listed: OrgGrants, granted: OrgGrants): Promise<void>;
  revoke(): Promise<boolean>;
  grant(input: GrantInput): Promise<void>;
  closed(): void;
}

export const mayRun = (trust: OrgTrust): boolean => trust.state === 'trusted' || trust.state === 'not_needed';

/** Whether the trust screen stands in front of the open org. */
export function trustScreenShown({
  trust,
  decided,
  reviewing,
}: Pick<TrustStore, 'trust' | 'decided' | 'reviewing'>): boolean {
  if (trust === null) return false;
  return reviewing || (!mayRun(trust) && trust.fingerprint !== decided);
}

/** Answers about an org that is no longer open are dropped. */
let generation = 0;
/** Stops following the open org's trust through the server-state layer. */
let stopWatching: () => void = () => undefined;

export const useTrustStore = create<TrustStore>((set, get) => {
  /** Reads the open org's trust; null when that failed or another org was opened meanwhile. */
  async function read(): Promise<OrgTrust | null> {
    const asked = generation;
    const answer = await serverState().refetch('trust.state', {});
    return answer.ok && asked === generation ? answer.value : null;
  }

  /** What main answered after a change; an org that may run is what the person decided about. */
  function show(trust: OrgTrust, changes: Partial<TrustStore> = {}) {
    set({ trust, ...(mayRun(trust) ? { decided: trust.fingerprint } : {}), ...changes });
  }

  return {
    trust: null,
    decided: null,
    reviewing: false,
    changedWhileShown: false,

    async opened() {
      generation += 1;
      set({ trust: null, decided: null, reviewing: false, changedWhileShown: false });
      stopWatching();
      const trust = await read();
      if (trust) show(trust);
      // From now on every new answer (a push or a save made it stale) is shown as it arrives.
      const watched = generation;
      stopWatching = serverState().watch('trust.state', {}, () => {
        const answer = serverState().peek('trust.state', {});
        if (answer?.ok && watched === generation) show(answer.value);
      });
    },

    refresh() {
      serverState().markStale('trust.state');
    },

    review() {
      set({ reviewing: true, changedWhileShown: false });
    },

    async runRefused() {
      const trust = await read();
      if (trust) show(trust, { reviewing: true });
    },

    openWithoutRunning() {
      const { trust } = get();
      set({ decided: trust?.fingerprint ?? null, reviewing: false, changedWhileShown: false });
    },

    async accept(fingerprint, listed, granted) {
      const asked = generation;
      // Trusting only adds grants: what was granted before, listed, and unticked now is taken back first.
      const held = get().trust?.grants ?? { secrets: [], environment: [] };
      const unticked = (kind: GrantInput['kind'], key: keyof OrgGrants): GrantInput[] =>
        held[key]
          .filter((name) => listed[key].includes(name) && !granted[key].includes(name))
          .map((name) => ({ kind, name, granted: false }));
      for (const input of [...unticked('secret', 'secrets'), ...unticked('environment', 'environment')]) {
        const taken = await write('trust.grant', input, {
          progress: `Taking back ${input.name}…`,
          failure: `${input.name} was not taken back`,
        }).then(valueOf);
        if (!taken) return;
      }
      const accepted = await write(
        'trust.accept',
        { fingerprint, ...granted },
        { progress: 'Trusting this org…', failure: 'This org was not trusted' },
      ).then(valueOf);
      if (asked !== generation) return;
      if (accepted) return show(accepted, { reviewing: false, changedWhileShown: false });
      const now = await read();
      if (now) show(now, { changedWhileShown: now.fingerprint !== fingerprint });
    },

    async revoke() {
      const asked = generation;
      const revoked = await write(
        'trust.revoke',
        {},
        { progress: 'Stopping trust in this org…', failure: 'Trust was not taken back' },
      ).then(valueOf);
      if (!revoked || asked !== generation) return false;
      set({ trust: revoked, decided: revoked.fingerprint, reviewing: false });
      return true;
    },

    async grant(input) {
      const asked = generation;
      const changed = await write('trust.grant', input, {
        progress: input.granted
          ? `Letting this org use ${input.name}…`
          : `Taking ${input.name} back from this org…`,
        failure: `Could not change whether this org may use ${input.name}`,
      }).then(valueOf);
      if (changed && asked === generation) show(changed);
    },

    closed() {
      generation += 1;
      stopWatching();
      set({ trust: null, decided: null, reviewing: false, changedWhileShown: false });
    },
  };
});
