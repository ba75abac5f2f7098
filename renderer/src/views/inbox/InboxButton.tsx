import { useQuery } from '../../server-state/use-query';
import { useNavigation } from '../../stores/navigation-store';
import './inbox.css';

/** The header's way to the human's messages, with how many are unread. */
export function InboxButton() {
  const { result } = useQuery('inbox.unread', {});
  const view = useNavigation((store) => store.view);
  const go = useNavigation((store) => store.go);

  const count = result?.ok ? result.value.unread : 0;
  return (
    <button
      type="button"
      className="inbox-button"
      aria-current={view === 'inbox' ? 'page' : undefined}
      title="Messages for you"
      onClick={() => go('inbox')}
    >
      Messages
      {count > 0 && (
        <span className="unread-count" data-testid="unread-count">
          <span className="visually-hidden">, </span>
          {count}
          <span className="visually-hidden"> unread</span>
        </span>
      )}
    </button>
  );
}
