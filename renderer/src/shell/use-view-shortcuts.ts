import { useEffect } from 'react';
import { useNavigation } from '../stores/navigation-store';
import { MAIN_VIEWS } from './main-views';

/** Ctrl/Cmd+1..4 open the main views and move focus to the content, as the nav bar's buttons do. */
export function useViewShortcuts(enabled: boolean, focusMain: () => void) {
  useEffect(() => {
    if (!enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.shiftKey) return;
      const target = MAIN_VIEWS.find((item) => item.key === event.key);
      if (!target) return;
      event.preventDefault();
      useNavigation.getState().go(target.view);
      focusMain();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled, focusMain]);
}
