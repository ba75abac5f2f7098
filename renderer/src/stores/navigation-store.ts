import { create } from 'zustand';
import { AppView, type AppPlace } from '../../../engine/api/desktop-schemas';

/** The app's main views; one is shown at a time. */
export const VIEWS = AppView.options;
export type View = AppView;

export interface TimelineFocus {
  agent?: string;
  tick?: number;
}

interface NavigationStore {
  view: View;
  /** The agent the Agent view shows. */
  agent: string | null;
  /** Filters the Timeline view opens with (jump to an agent or a tick). */
  timelineFocus: TimelineFocus | null;
  /** The MCP server whose card the Tool Store brings into view and focuses when it opens (a clicked notification). */
  toolStoreFocus: string | null;
  go(view: View): void;
  openAgent(agent: string): void;
  openTimeline(focus?: TimelineFocus): void;
  /** A place main asked for (a menu item, a notification the person clicked). */
  goTo(place: AppPlace): void;
}

export const useNavigation = create<NavigationStore>((set) => ({
  view: 'org',
  agent: null,
  timelineFocus: null,
  toolStoreFocus: null,
  go: (view) => set({ view }),
  openAgent: (agent) => set({ view: 'agent', agent }),
  openTimeline: (focus) => set({ view: 'timeline', timelineFocus: focus ?? null }),
  goTo: ({ view, agent, server }) =>
    set(
      view === 'agent' && agent
        ? { view, agent }
        : view === 'tools' && server
          ? { view, toolStoreFocus: server }
          : { view },
    ),
}));
