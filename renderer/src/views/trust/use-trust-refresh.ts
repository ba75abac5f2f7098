import { useEffect } from 'react';
import { lemming } from '../../lemming';
import { useNavigation } from '../../stores/navigation-store';
import { useTrustStore } from '../../stores/trust-store';

/**
 * The open org's trust is read again whenever its files may have changed: its list of agents or tools
 * changed, the person moved to another view (after an edit in Settings or the Tool Store), or came back to
 * the window (after editing its files elsewhere). What it can run or reach moving brings the screen back.
 */
export function useTrustRefresh(orgOpen: boolean): void {
  const refresh = useTrustStore((store) => store.refresh);
  useEffect(() => {
    if (!orgOpen) return;
    const read = () => void refresh();
    const offAgents = lemming().on('agents.changed', ({ names }) => {
      if (names.length === 0) read();
    });
    const offViews = useNavigation.subscribe((now, before) => {
      if (now.view !== before.view) read();
    });
    window.addEventListener('focus', read);
    return () => {
      offAgents();
      offViews();
      window.removeEventListener('focus', read);
    };
  }, [orgOpen, refresh]);
}
