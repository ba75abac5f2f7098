import type { AppPlace } from '../../../engine/api/desktop-schemas';
import type { MenuItem } from '../app-menu';
import type { DesktopShell } from '../desktop-shell';

/** A DesktopShell that records what the app asked of the OS, answering questions as told. */
export function recordingShell(answers: { ask?: number; pickFolder?: string | null } = {}) {
  const said: string[] = [];
  const notices: {
    title: string;
    body: string;
    click: () => void;
    answers?: { allow: () => void; deny: () => void };
  }[] = [];
  const state = {
    focused: false,
    badge: 0,
    /** Every value the taskbar progress took, in order (null: removed). */
    progress: [] as (number | null)[],
    menu: [] as MenuItem[],
    tray: null as { tooltip: string; menu: MenuItem[] } | null,
    places: [] as AppPlace[],
  };
  const shell: DesktopShell = {
    notify: async (notice, handlers) => {
      notices.push({ title: notice.title, body: notice.body, ...handlers });
      return 'shown';
    },
    setBadge: (count) => {
      state.badge = count;
    },
    setProgress: (fraction) => {
      state.progress.push(fraction);
    },
    setMenu: (template) => {
      state.menu = template;
    },
    appliedMenu: () => state.menu,
    setTray: (tray) => {
      state.tray = tray;
    },
    appliedTray: () => state.tray,
    showWindow: () => said.push('showWindow'),
    hideWindow: () => said.push('hideWindow'),
    windowFocused: () => state.focused,
    navigate: (place) => state.places.push(place),
    offerNewOrg: () => said.push('offerNewOrg'),
    ask: async (question) => {
      said.push(`ask: ${question.message}`);
      return answers.ask ?? 0;
    },
    showMessage: async (message) => {
      said.push(`message: ${message.title}`);
    },
    showError: (title, detail) => said.push(`error: ${title}: ${detail}`),
    pickFolder: async () => answers.pickFolder ?? null,
    pickSaveFile: async () => null,
    showFileInFolder: (path) => said.push(`show: ${path}`),
    openUserGuide: () => said.push('openUserGuide'),
    exit: () => said.push('exit'),
  };
  return { shell, said, notices, state };
}
