import { useEffect } from 'react';
import { lemming } from '../../lemming';
import { useNavigation } from '../../stores/navigation-store';
import { useUnread } from './inbox-store';
import './inbox.css';

/** Gathers timeline pings: the count is asked again at most this often while agents write. */
const REFRESH_MS = 300;

/** The header's way to the human's messages, with how many are unread. */
export function InboxButton() {
  const unread = useUnread((store) => store.unread);
  const refresh = useUnread((store) => store.refresh);
  const view = useNavigation((store) => store.view);
  const go = useNavigation((store) => store.go);

  useEffect(() => {
    void refresh();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const stop = lemming().on('timeline.appended', () => {
      if (timer !== null) return;
      timer = setTimeout(() => {
        timer = null;
        void refresh();
      }, REFRESH_MS);
    });
    return () => {
      stop();
      if (timer !== null) clearTimeout(timer);
    };
  }, [refresh]);

  const count = unread ?? 0;
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
