import { useId, useState } from 'react';
import type { IpcError, TemplateCard } from '../../../../engine/api';
import { useQuery } from '../../server-state/use-query';
import { useOrgStore } from '../../stores/org-store';
import { TemplatePicture } from './TemplatePicture';

/**
 * The templates shipped with the app, a card each (its graph, purpose and what each agent does), and an
 * empty org last. Choosing one asks for an empty folder, makes the org there and opens it; like any org,
 * what it can reach is shown for the person to trust before it runs.
 */
export function TemplateGallery({ onCreated }: { onCreated?: () => void }) {
  const { result } = useQuery('templates.gallery', {});
  const createNewOrg = useOrgStore((store) => store.createNewOrg);
  const [creating, setCreating] = useState<string | null>(null);
  const [failure, setFailure] = useState<IpcError | null>(null);

  const create = async (template: string | null) => {
    setCreating(template ?? '');
    setFailure(null);
    const problem = await createNewOrg(template);
    setCreating(null);
    if (problem) setFailure(problem);
    else if (useOrgStore.getState().state.status === 'open') onCreated?.();
  };

  if (!result) return <p className="template-gallery-note">Loading the templates…</p>;
  if (!result.ok)
    return (
      <p className="error-banner" role="alert">
        The templates could not be read. {result.error.message}
      </p>
    );
  const { templates, problems } = result.value;
  return (
    <div className="template-gallery">
      {failure && (
        <div className="error-banner" role="alert">
          <strong>The org was not created.</strong> {failure.message}
          {failure.fix && <div>{failure.fix}</div>}
        </div>
      )}
      <ul className="template-cards" aria-label="Templates">
        {templates.map((card) => (
          <TemplateCardItem
            key={card.name}
            card={card}
            busy={creating !== null}
            creating={creating === card.name}
            onCreate={() => void create(card.name)}
          />
        ))}
        <li className="template-card empty-org">
          <h4>An empty org</h4>
          <p className="template-purpose">Just you and an empty team: add your own agents one by one.</p>
          <button type="button" disabled={creating !== null} onClick={() => void create(null)}>
            {creating === '' ? 'Creating…' : 'Create an empty org…'}
          </button>
        </li>
      </ul>
      {problems.length > 0 && (
        <p className="template-gallery-note">
          Not shown, because they cannot be read: {problems.map((problem) => problem.template).join(', ')}.
        </p>
      )}
    </div>
  );
}

function TemplateCardItem({
  card,
  busy,
  creating,
  onCreate,
}: {
  card: TemplateCard;
  busy: boolean;
  creating: boolean;
  onCreate(): void;
}) {
  const headingId = useId();
  // The trust screen's own words for each thing it reaches ("the agent “scout”, which may send web requests…").
  const reach = [...new Set(card.reach.map((item) => item.because))];
  return (
    <li className="template-card" aria-labelledby={headingId}>
      <TemplatePicture card={card} />
      <h4 id={headingId}>{card.title}</h4>
      <p className="template-purpose">{card.purpose}</p>
      <ul className="template-agents" aria-label={`The agents of ${card.title}`}>
        {card.agents.map((agent) => (
          <li key={agent.name}>
            <strong>{agent.title}:</strong> {agent.does}
          </li>
        ))}
      </ul>
      <p className="template-reach">
        {reach.length === 0
          ? 'Reaches nothing outside this computer. Starts on scripted answers, offline.'
          : `You are asked to trust it before it runs: it reaches out through ${reach.join('; ')}. Starts on scripted answers, offline.`}
      </p>
      <button type="button" className="primary" disabled={busy} onClick={onCreate}>
        {creating ? 'Creating…' : `Create ${card.title}…`}
      </button>
    </li>
  );
}
