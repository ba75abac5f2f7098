import { useNavigation } from '../stores/navigation-store';
import { MAIN_VIEWS, shortcutLabel } from './main-views';

/** The main views; the current one is marked for screen readers and by its look. */
export function NavBar({ onNavigate }: { onNavigate: () => void }) {
  const view = useNavigation((store) => store.view);
  const agent = useNavigation((store) => store.agent);
  const go = useNavigation((store) => store.go);
  const openAgent = useNavigation((store) => store.openAgent);

  return (
    <nav className="nav-bar" aria-label="Main views">
      {MAIN_VIEWS.map((item) => (
        <button
          key={item.view}
          type="button"
          className="nav-item"
          aria-current={view === item.view ? 'page' : undefined}
          aria-keyshortcuts={`Control+${item.key} Meta+${item.key}`}
          title={`${item.label} (${shortcutLabel(item.key)})`}
          onClick={() => {
            go(item.view);
            onNavigate();
          }}
        >
          {item.label}
          <kbd aria-hidden="true">{shortcutLabel(item.key)}</kbd>
        </button>
      ))}
      {agent && (
        <button
          type="button"
          className="nav-item"
          aria-current={view === 'agent' ? 'page' : undefined}
          title={`The agent ${agent}`}
          onClick={() => {
            openAgent(agent);
            onNavigate();
          }}
        >
          Agent: {agent}
        </button>
      )}
    </nav>
  );
}
