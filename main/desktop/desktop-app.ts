import { writeFile } from 'node:fs/promises';
import type { AppInfo } from '../../engine/api/schemas';
import type { ChannelInput, ChannelOutput, Channel } from '../../engine/api/contract';
import type { EventName } from '../../engine/api/events';
import type { AppPlace, DesktopSettings } from '../../engine/api/desktop-schemas';
import type { JobProgress } from '../../engine/api/job-schemas';
import type { RunState } from '../../engine/api/run-schemas';
import type { McpServerStatuses } from '../../engine/api/tool-schemas';
import type { Dispatch } from '../ipc/dispatch';
import { aboutText, appMenuTemplate, type MenuActions, type MenuItem } from './app-menu';
import type { AppLog } from './app-log';
import {
  badgeCount,
  noticesBetween,
  noticesToShow,
  NOTHING_NEEDS_ATTENTION,
  budgetWarningsOf,
  waitingForSignIn,
  type Attention,
} from './attention';
import type { DesktopSettingsFile } from './desktop-settings';
import type { DesktopPreferences } from './desktop-handlers';
import type { DesktopShell } from './desktop-shell';
import { diagnosticsArchive, diagnosticsFileName } from './diagnostics';
import { launchRequestOf } from './launch-arguments';
import { taskbarProgress } from './taskbar';
import type { RecentOrgs } from './recent-orgs';

export interface DesktopAppOptions {
  shell: DesktopShell;
  /** The contract's channels, answered by the engine thread (and main's own). */
  dispatch: Dispatch;
  settings: DesktopSettingsFile;
  recent: RecentOrgs;
  log: AppLog;
  appInfo: AppInfo;
  system: { platform: NodeJS.Platform; release: string; arch: string };
  /** A redaction of the secret store's values as they are now (for what Copy Diagnostics saves). */
  redaction: () => Promise<(text: string) => string>;
  /** Closes the engine (stops the run, closes the org); `forceClose` ends it without waiting. */
  closeEngine: () => Promise<void>;
  forceCloseEngine: () => Promise<void>;
  /** How long quitting waits for the engine before it ends it anyway. */
  quitLimitMs?: number;
  /** How long pings are gathered before the org is read again. */
  settleMs?: number;
}

const RUNNING_PHASES: RunState['phase'][] = ['running', 'pausing', 'stepping', 'stopping'];

/**
 * The app as a desktop app: its menu and tray, notifications and the badge, recent orgs, a second launch
 * handed to the first, closing and quitting while a run goes on, and the log and diagnostics. It hears
 * the engine's pings and reads what it needs through the same channels as the renderer.
 */
export class DesktopApp implements DesktopPreferences {
  private attention: Attention = NOTHING_NEEDS_ATTENTION;
  private settingsNow: DesktopSettings | null = null;
  private reading: Promise<void> | null = null;
  private readAgain = false;
  private settleTimer: NodeJS.Timeout | null = null;
  private quitting: Promise<void> | null = null;
  private askedToClose = false;
  /** The open org's MCP servers waiting for the person to sign in, as `mcp.statuses` told. */
  private signInWaiting: string[] = [];
  /** The long jobs going on (exports, imports), as their last `job.progress` told. */
  private readonly jobs = new Map<string, JobProgress>();

  constructor(private readonly options: DesktopAppOptions) {}

  async start(argv: readonly string[], workingDirectory: string): Promise<void> {
    this.settingsNow = await this.options.settings.read();
    await this.refreshMenus();
    await this.handleLaunch(argv, workingDirectory);
  }

  /** Another launch of the app: this one comes to the front and opens what that one was given. */
  async secondLaunch(argv: readonly string[], workingDirectory: string): Promise<void> {
    this.options.shell.showWindow();
    await this.handleLaunch(argv, workingDirectory);
  }

  private async handleLaunch(argv: readonly string[], workingDirectory: string): Promise<void> {
    const request = launchRequestOf(argv, workingDirectory);
    if (request.kind === 'open_org') await this.openOrg(request.path);
  }

  /** Every engine ping passes here; what may need the person is read again once they settle. */
  onEngineEvent(name: EventName, payload: unknown): void {
    if (name === 'job.progress') return this.jobMoved(payload as JobProgress);
    if (name === 'mcp.statuses')
      this.signInWaiting = waitingForSignIn(this.signInWaiting, (payload as McpServerStatuses).servers);
    if (name === 'org.changed') {
      this.signInWaiting = [];
      // A job of the org closed under it (or of an engine thread started again) will not say it ended.
      if (this.jobs.size > 0) {
        this.jobs.clear();
        this.options.shell.setProgress(null);
      }
      const path = (payload as { path: string | null }).path;
      if (path)
        void this.options.recent.remember(path).then(() => this.refreshMenus(), this.logged('recent orgs'));
    }
    if (name === 'turn.progress' || name === 'timeline.appended' || name === 'updates.changed') return;
    if (this.settleTimer) return;
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      void this.readAttention();
    }, this.options.settleMs ?? 150);
  }

  /** A long job moved on or ended: the taskbar's progress bar follows. */
  private jobMoved(progress: JobProgress): void {
    if (progress.ended) this.jobs.delete(progress.id);
    else this.jobs.set(progress.id, progress);
    this.options.shell.setProgress(taskbarProgress(this.jobs.values()));
  }

  /** Reads the org again and tells the person what became true since the last reading. */
  async readAttention(): Promise<void> {
    if (this.reading) {
      this.readAgain = true;
      return this.reading;
    }
    this.reading = (async () => {
      do {
        this.readAgain = false;
        const next = await this.readOrg();
        const notices = noticesBetween(this.attention, next);
        this.attention = next;
        const settings = this.settingsNow ?? (await this.options.settings.read());
        for (const notice of noticesToShow(notices, settings, this.options.shell.windowFocused()))
          void this.options.shell
            .notify(notice, {
              click: () => this.goTo(notice.place),
              ...(notice.approvalId ? { answers: this.answersTo(notice.approvalId) } : {}),
            })
            .catch(this.logged('showing a notification'));
        this.options.shell.setBadge(badgeCount(next));
        await this.refreshMenus();
      } while (this.readAgain);
    })().finally(() => {
      this.reading = null;
    });
    return this.reading;
  }

  private async readOrg(): Promise<Attention> {
    const summary = await this.call('org.summary', {});
    if (!summary) return NOTHING_NEEDS_ATTENTION;
    const [approvals, graph, credits] = await Promise.all([
      this.call('approvals.pending', {}),
      this.call('org.graph', {}),
      this.call('credits.balances', {}),
    ]);
    return {
      org: summary.path,
      approvals: (approvals?.requests ?? []).map(({ id, agent, tool }) => ({ id, agent, tool })),
      agents: (graph?.nodes ?? []).map(({ name, state }) => ({
        name,
        state: state.kind,
        stateReason: state.words,
      })),
      run: { phase: summary.run.phase, ended: summary.run.ended },
      signIn: this.signInWaiting,
      budgetWarnings: budgetWarningsOf(credits ?? []),
    };
  }

  get recent(): RecentOrgs {
    return this.options.recent;
  }

  /** The current desktop settings; Settings changes them through `updateSettings`. */
  async settings(): Promise<DesktopSettings> {
    return (this.settingsNow ??= await this.options.settings.read());
  }

  async updateSettings(change: Parameters<DesktopSettingsFile['update']>[0]): Promise<DesktopSettings> {
    this.settingsNow = await this.options.settings.update(change);
    await this.refreshMenus();
    return this.settingsNow;
  }

  /**
   * The window is being closed: with a run going on, the org keeps running in the background when the
   * person chose so (asked the first time); else the app ends as usual. True when the window should only hide.
   */
  async keepRunningOnClose(): Promise<boolean> {
    if (this.quitting || !this.running()) return false;
    let keep = (await this.settings()).keepRunningInBackground;
    if (keep === null) {
      const choice = await this.options.shell.ask({
        message: 'Keep the org running when the window is closed?',
        detail:
          'Your agents go on taking their turns, and the app tells you when they need you. You can open the window again from the icon in the menu bar or tray. You can change this in Settings.',
        buttons: ['Keep running', 'Stop the run'],
        cancelId: 1,
      });
      keep = choice === 0;
      await this.updateSettings({ keepRunningInBackground: keep });
    }
    // Closing the window ends the app: the person has just answered for the run, so quitting does not ask again.
    if (!keep) this.askedToClose = true;
    return keep;
  }

  /**
   * The person asked to quit. With a run going on it asks first (false: they changed their mind); then
   * it closes the engine, ending it anyway after the limit, so a server that hangs cannot hold the app.
   */
  async quit(): Promise<boolean> {
    if (this.quitting) return true;
    if (this.running() && !this.askedToClose) {
      const choice = await this.options.shell.ask({
        message: 'Stop the run and quit?',
        detail: 'The turn in progress is cancelled and recorded as such; the next run goes on from there.',
        buttons: ['Quit', 'Cancel'],
        cancelId: 1,
      });
      if (choice !== 0) return false;
    }
    this.askedToClose = true;
    this.quitting = this.closeWithinLimit();
    await this.quitting;
    return true;
  }

  private async closeWithinLimit(): Promise<void> {
    const limit = this.options.quitLimitMs ?? 4000;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), limit);
    });
    const closed = this.options.closeEngine().then(
      () => 'closed' as const,
      (error: unknown) => {
        this.options.log.error('closing the engine', error);
        return 'closed' as const;
      },
    );
    const outcome = await Promise.race([closed, late]);
    clearTimeout(timer);
    if (outcome === 'late') {
      this.options.log.info('quit', `the engine did not close within ${limit} ms; ending it`);
      await this.options.forceCloseEngine().catch(this.logged('ending the engine'));
    }
    this.options.shell.setTray(null);
  }

  private running(): boolean {
    const phase = this.attention.run?.phase;
    return phase !== undefined && RUNNING_PHASES.includes(phase);
  }

  /** The notification's buttons answer the approval as the card's do, from the person. */
  private answersTo(id: string) {
    const answer = (kind: 'approve_once' | 'deny') => () =>
      void this.call('approvals.answer', {
        id,
        answer: kind,
        ...(kind === 'deny' ? { reason: 'The person said no from a notification.' } : {}),
      });
    return { allow: answer('approve_once'), deny: answer('deny') };
  }

  private goTo(place: AppPlace): void {
    this.options.shell.showWindow();
    this.options.shell.navigate(place);
  }

  async openOrg(path: string): Promise<void> {
    const opened = await this.options.dispatch('org.open', { path });
    if (!opened.ok) {
      this.options.shell.showError('The org could not be opened', opened.error.message);
      return;
    }
    this.options.shell.navigate({ view: 'org' });
  }

  private readonly actions: MenuActions = {
    openOrg: () => void this.pickAndOpen(),
    openRecent: (path) => void this.openOrg(path),
    newOrg: () => {
      this.options.shell.showWindow();
      this.options.shell.offerNewOrg();
    },
    closeOrg: () => void this.call('org.close', {}),
    exportOrg: () => this.goTo({ view: 'org', open: 'export-bundle' }),
    importBundle: () => void this.importBundle(),
    importIntoOrg: () => void this.importIntoOrg(),
    run: () => void this.call('run.start', {}),
    step: () => void this.call('run.step', {}),
    stop: () => void this.call('run.stop', {}),
    go: (view) => this.goTo({ view }),
    openUserGuide: () => this.options.shell.openUserGuide(),
    showLogs: () =>
      this.options.shell.showFileInFolder(this.options.log.files()[0] ?? this.options.log.folder),
    copyDiagnostics: () => void this.copyDiagnostics(),
    about: () => void this.options.shell.showMessage(aboutText(this.options.appInfo, this.attention.org)),
  };

  /** A bundle the person picks, unpacked into an empty folder they pick, then opened: its trust screen comes first. */
  private async importBundle(): Promise<void> {
    const imported = await this.options.dispatch('bundle.import', {});
    if (!imported.ok) {
      this.options.shell.showError('The bundle was not imported', imported.error.message);
      return;
    }
    const orgPath = (imported.value as ChannelOutput<'bundle.import'>)?.orgPath;
    if (orgPath) await this.openOrg(orgPath);
  }

  /** A department's bundle added beside the open org's agents; the org's trust screen then asks again. */
  private async importIntoOrg(): Promise<void> {
    const imported = await this.options.dispatch('bundle.import', { into: true });
    if (!imported.ok) this.options.shell.showError('The bundle was not imported', imported.error.message);
    else if (imported.value) this.options.shell.navigate({ view: 'org' });
  }

  private async pickAndOpen(): Promise<void> {
    const path = await this.options.shell.pickFolder('Open an org folder');
    if (path) await this.openOrg(path);
  }

  /** Help → Copy Diagnostics: a zip the person saves where they choose and can send along with a question. */
  async copyDiagnostics(target?: string): Promise<string | null> {
    const file =
      target ?? (await this.options.shell.pickSaveFile('Save diagnostics', diagnosticsFileName(new Date())));
    if (!file) return null;
    const [status, agents] = await Promise.all([this.call('org.status', {}), this.call('org.agents', {})]);
    const archive = diagnosticsArchive({
      appInfo: this.options.appInfo,
      system: this.options.system,
      settings: await this.settings(),
      logFiles: this.options.log.files(),
      org: this.attention.org
        ? {
            path: this.attention.org,
            status,
            agents: (agents ?? []).map(({ name, folder, valid, problems }) => ({
              name,
              folder,
              valid,
              problems,
            })),
          }
        : null,
      redact: await this.options.redaction(),
    });
    await writeFile(file, archive);
    this.options.shell.showFileInFolder(file);
    return file;
  }

  /** The menu and the tray as things stand now. */
  async refreshMenus(): Promise<void> {
    const settings = await this.settings();
    const recent = await this.options.recent.list().catch(() => []);
    const orgOpen = this.attention.org !== null;
    this.options.shell.setMenu(
      appMenuTemplate(
        {
          platform: this.options.system.platform,
          appName: this.options.appInfo.name,
          developerTools: settings.developerTools,
          orgOpen,
          running: this.running(),
          recent,
        },
        this.actions,
      ),
    );
    this.options.shell.setTray(orgOpen ? this.trayMenu() : null);
  }

  private trayMenu(): { tooltip: string; menu: MenuItem[] } {
    const name = this.attention.org?.split(/[\\/]/).pop() ?? '';
    const waiting = badgeCount(this.attention);
    const state = waiting > 0 ? 'needs you' : this.running() ? 'running' : 'stopped';
    const running = this.running();
    return {
      tooltip: `${name}: ${state}`,
      menu: [
        { label: `${name}: ${state}`, enabled: false },
        { type: 'separator' },
        running ? { label: 'Stop', click: this.actions.stop } : { label: 'Run', click: this.actions.run },
        { label: 'Open LeMMing Desktop', click: () => this.options.shell.showWindow() },
        { type: 'separator' },
        { label: 'Quit', role: 'quit' },
      ],
    };
  }

  private async call<C extends Channel>(
    channel: C,
    input: ChannelInput<C>,
  ): Promise<ChannelOutput<C> | null> {
    const result = await this.options.dispatch(channel, input);
    if (result.ok) return result.value as ChannelOutput<C>;
    if (result.error.code !== 'no_org_open') this.options.log.info(channel, result.error.message);
    return null;
  }

  private logged(context: string) {
    return (error: unknown) => this.options.log.error(context, error);
  }
}
