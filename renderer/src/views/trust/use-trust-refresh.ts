import { useEffect } from 'react';
import { useActivity } from '../../components/activity-store';
import { useNavigation } from '../../stores/navigation-store';
import { useTrustStore } from '../../stores/trust-store';

/** Pings come in bursts while a run commits; one read after the burst is enough. */
const SETTLE_MS = 300;

/**
 * The open org's trust is read again whenever what it can run or reach may have changed without a push
 * saying so: a change the person saved here, the person moved to another view, or came back to the window
 * (after editing its files elsewhere); its agents' changes make it stale through the server-state layer.
 * When it moved, the trust screen comes back before anything new can run.
 */
export function useTrustRefresh(orgOpen: boolean): void {
  const refresh = useTrustStore((store) => store.refresh);
  useEffect(() => {
    if (!orgOpen) return;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const read = () => {
      if (timer !== null) clearTimeout(timer);
      timer = setTimeout(() => {
        timer = null;
        refresh();
      }, SETTLE_MS);
    };
    const offViews = useNavigation.subscribe((now, before) => {
      if (now.view !== before.view) read();
    });
    const offSaved = useActivity.subscribe((now, before) => {
      if (now.lastDoneAt !== before.lastDoneAt) read();
    });
    window.addEventListener('focus', read);
    return () => {
      if (timer !== null) clearTimeout(timer);
      offViews();
      offSaved();
      window.removeEventListener('focus', read);
    };
  }, [orgOpen, refresh]);
}
