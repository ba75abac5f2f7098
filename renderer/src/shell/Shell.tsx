import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import type { OrgSummary } from '../../../engine/api';
import { ActivityIndicator } from '../components/ActivityIndicator';
import { ConfirmDialog } from '../components/ConfirmDialog';
import { Toasts } from '../components/Toasts';
import { useServerEvent } from '../server-state/use-query';
import { useNavigation } from '../stores/navigation-store';
import { useOrgStore } from '../stores/org-store';
import { useRunState } from '../stores/run-store';
import { trustScreenShown, useTrustStore } from '../stores/trust-store';
import { AgentView } from '../views/agent/AgentView';
import { FirstRunView } from '../views/first-run/FirstRunView';
import { NewOrgDialog } from '../views/first-run/NewOrgDialog';
import { useNewOrgDialog } from '../stores/new-org-store';
import { InboxButton } from '../views/inbox/InboxButton';
import { InboxView } from '../views/inbox/InboxView';
import { InspectorView } from '../views/inspector/TurnInspectorView';
import { useLiveAnswerFeed } from '../shared/live/use-live-answers';
import { RunControls } from '../views/run/RunControls';
import { SettingsView } from '../views/settings/SettingsView';
import { TimelineView } from '../views/timeline/TimelineView';
import { ToolStoreView } from '../views/tool-store/ToolStoreView';
import { TrustScreen } from '../views/trust/TrustScreen';
import { useTrustRefresh } from '../views/trust/use-trust-refresh';
import { ApprovalCards } from '../views/approvals/ApprovalCards';
import { ExportBundleDialog } from '../views/bundle/ExportBundleDialog';
import { UpdateReadyBanner } from '../views/updates/UpdateReadyBanner';
import { NavBar } from './NavBar';
import { OrgPage } from './OrgPage';
import { useViewShortcuts } from './use-view-shortcuts';
import { ViewPlaceholder } from './ViewPlaceholder';
import './shell.css';

/** The window: header, run controls and navigation while an org is open, the current view, and toasts. */
export function Shell() {
  const state = useOrgStore((store) => store.state);
  const main = useRef<HTMLElement>(null);
  // Focus moves to the view for keyboard and screen-reader users; the page must not scroll the run bar away.
  const focusMain = useCallback(() => main.current?.focus({ preventScroll: true }), []);
  const isOpen = state.status === 'open';
  // An org not trusted as it is now shows what it would do before any of it can run.
  const deciding = useTrustStore(trustScreenShown) && isOpen;
  // The org's views appear once the person has chosen (or its trust could not be read: they only look).
  const shownBefore = useTrustStore((store) => store.trust === null || store.decided !== null);
  useViewShortcuts(isOpen && !deciding, focusMain);
  // Each view starts at its top: the last view's scroll position means nothing in the next one.
  const view = useNavigation((store) => store.view);
  const agentShown = useNavigation((store) => store.agent);
  const placeShown = useRef<string | null>(null);
  useLayoutEffect(() => {
    if (!main.current) return;
    main.current.scrollTop = 0;
    const place = `${view}:${agentShown ?? ''}`;
    const moved = placeShown.current !== null && placeShown.current !== place;
    placeShown.current = place;
    // The control that led here (a graph node's "Open agent", a turn's row) went with the last view:
    // the view takes focus instead of the page.
    if (moved && (document.activeElement === null || document.activeElement === document.body)) focusMain();
  }, [view, agentShown, focusMain]);
  useTrustRefresh(isOpen);
  // The menu and notifications lead to a place; focus follows, as with the nav bar.
  const [exporting, setExporting] = useState(false);
  useServerEvent('app.navigate', (place) => {
    useNavigation.getState().goTo(place);
    if (place.open === 'export-bundle') setExporting(true);
    else focusMain();
  });
  useServerEvent('app.newOrg', () => useNewOrgDialog.getState().show());

  return (
    <div className="app" data-app-state={state.status}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="app-header">
        <h1>LeMMing Desktop</h1>
        {isOpen && <OrgHeading org={state.org} />}
        <span className="header-end">
          <ActivityIndicator />
          {isOpen && <InboxButton key={state.org.path} />}
          {isOpen && <OrgMenu onExport={() => setExporting(true)} />}
        </span>
      </header>
      <UpdateReadyBanner />
      {isOpen && <ApprovalCards key={`approvals:${state.org.path}`} />}
      {isOpen && !deciding && (
        <>
          <RunControls key={state.org.path} />
          <NavBar onNavigate={focusMain} />
        </>
      )}
      <main id="main" ref={main} tabIndex={-1} className={isOpen ? 'app-main wide' : 'app-main'}>
        {!isOpen ? (
          <FirstRunView />
        ) : (
          <>
            {deciding && <TrustScreen orgName={state.org.name} />}
            {/* Views shown before keep what was typed in them while the trust screen asks again. */}
            {shownBefore && (
              <div className="org-views" hidden={deciding}>
                <OpenOrg key={state.org.path} org={state.org} />
              </div>
            )}
          </>
        )}
      </main>
      <NewOrgDialog />
      {isOpen && exporting && <ExportBundleDialog onClose={() => setExporting(false)} />}
      <Toasts />
    </div>
  );
}

function OrgHeading({ org }: { org: OrgSummary }) {
  return (
    <span className="org-heading">
      <span className="org-name">{org.name}</span>
      <span className="org-path" title={org.path}>
        {org.path}
      </span>
    </span>
  );
}

function OrgMenu({ onExport }: { onExport: () => void }) {
  const pickAndOpen = useOrgStore((store) => store.pickAndOpen);
  const showNewOrg = useNewOrgDialog((store) => store.show);
  const close = useOrgStore((store) => store.close);
  const phase = useRunState()?.phase ?? 'idle';
  const [confirming, setConfirming] = useState(false);

  return (
    <>
      <button type="button" onClick={showNewOrg}>
        New org…
      </button>
      <button type="button" onClick={() => void pickAndOpen()}>
        Open another org…
      </button>
      <button type="button" onClick={onExport}>
        Export org…
      </button>
      <button type="button" onClick={() => (phase === 'idle' ? void close() : setConfirming(true))}>
        Close org
      </button>
      <ConfirmDialog
        open={confirming}
        title="Stop the run and close the org?"
        confirmLabel="Stop and close"
        destructive
        onConfirm={() => {
          setConfirming(false);
          void close();
        }}
        onCancel={() => setConfirming(false)}
      >
        <p>The tick in progress finishes and is saved; the run does not continue until you start it again.</p>
      </ConfirmDialog>
    </>
  );
}

function OpenOrg({ org }: { org: OrgSummary }) {
  const view = useNavigation((store) => store.view);
  const agent = useNavigation((store) => store.agent);
  useLiveAnswerFeed();

  switch (view) {
    case 'org':
      return <OrgPage org={org} />;
    case 'agent':
      return agent ? (
        <AgentView key={agent} agent={agent} />
      ) : (
        <ViewPlaceholder title="No agent chosen">Open an agent from the Org view.</ViewPlaceholder>
      );
    case 'timeline':
      return <TimelineView />;
    case 'tools':
      return <ToolStoreView />;
    case 'settings':
      return <SettingsView />;
    case 'inspector':
      return <InspectorView />;
    case 'inbox':
      return <InboxView />;
  }
}
