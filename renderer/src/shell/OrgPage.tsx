import type { OrgSummary } from '../../../engine/api';
import { useQuery } from '../server-state/use-query';
import { CreditsPanel } from '../views/credits/CreditsPanel';
import { SendMessageForm } from '../views/run/SendMessageForm';
import { AgentList } from '../views/AgentList';
import { OrgView } from '../views/org/OrgView';

/** The Org view (graph and table), the agents' resume health, beside the two things you do to a running org: write to it and watch what it spends. */
export function OrgPage({ org }: { org: OrgSummary }) {
  const { result } = useQuery('org.agents', {});
  const agents = result?.ok ? result.value : [];
  return (
    <div className="org-page">
      <div className="org-page-main">
        <OrgView />
        <AgentList org={org} agents={agents} />
      </div>
      <aside className="org-page-side" aria-label="Messages and credits">
        <SendMessageForm agents={agents} />
        <CreditsPanel />
      </aside>
    </div>
  );
}
