import type { ApprovalRequest } from '../../engine/api/approval-schemas';
import { isPaused } from '../../engine/api/run-schemas';
import { ApprovalDesk } from '../../engine/app/approvals';
import { firingAgents } from '../../engine/app/org';
import type { OrgContext, SecretsAccess } from '../../engine/app/org-context';
import { OrgEngine, type EngineCommit } from '../../engine/run/org-engine';
import { RunController } from '../../engine/run/run-controller';
import { TurnStatusReader } from '../../engine/run/turn-status';
import type { HostEvents } from './host-events';
import type { TrustStore } from '../../engine/trust/trust-store';
import type { VariableSource } from '../../engine/trust/org-grants';

/** How often an idle session looks for another program running its org. */
const WATCH_MS = 1000;

export interface OrgSessionOptions {
  orgPath: string;
  events: HostEvents;
  secrets: SecretsAccess;
  trust: TrustStore;
  env: Record<string, string | undefined>;
  /** Where the variables granted to the org are read (main's environment, through the engine thread's bridge). */
  variables: VariableSource;
  logError?: (context: string, error: unknown) => void;
}

/**
 * One open org: its engine, its run controller, and what the host tells the renderer about them
 * (timeline pings on every commit, run state changes, which agents are running).
 */
export class OrgSession implements OrgContext {
  readonly controller: RunController;
  readonly turnStatus: TurnStatusReader;
  readonly secrets: SecretsAccess;
  readonly trust: TrustStore;
  /** Tool calls of this org's run waiting for the person's approval. */
  readonly approvals: ApprovalDesk;
  /** Agents whose turn in the tick in progress has not been committed yet. */
  private readonly running = new Set<string>();
  private readonly committedThisTick = new Set<string>();
  private tickInProgress: number | null = null;
  /** Looks every WATCH_MS for another program running the org (see watchOtherPrograms). */
  private watch: ReturnType<typeof setInterval> | null = null;
  private lastSeenSeq = 0;
  private paused = false;

  private constructor(
    readonly orgPath: string,
    readonly engine: OrgEngine,
    private readonly options: OrgSessionOptions,
    approvals: ApprovalDesk,
  ) {
    this.secrets = options.secrets;
    this.trust = options.trust;
    this.approvals = approvals;
    this.turnStatus = new TurnStatusReader(engine.timeline.db);
    this.controller = new RunController(engine, {
      onState: (state) => {
        if (state.tickInProgress === null && this.tickInProgress !== null) this.tickEnded();
        options.events.emit('run.state', state);
        // Every agent not taking a turn shows "paused" while the run is paused, and no longer after.
        const paused = isPaused(state.phase);
        if (paused !== this.paused) options.events.emit('agents.changed', { names: [] });
        this.paused = paused;
      },
      onTickStart: (tick) => this.tickStarted(tick),
    });
  }

  /** Opens the org's engine; throws when its timeline cannot be opened or a crash left work it cannot finish. */
  static async open(options: OrgSessionOptions): Promise<OrgSession> {
    const commits: { session: OrgSession | null } = { session: null };
    const approvalsChanged = (agent: string) => {
      options.events.emit('approvals.changed', { pending: approvals.pending().length });
      options.events.emit('agents.changed', { names: [agent] });
    };
    const approvals = new ApprovalDesk(approvalsChanged);
    let mcpChanged: NodeJS.Timeout | undefined;
    let statusesTold = '[]';
    const engine = await OrgEngine.open({
      approvals,
      onParkedChange: approvalsChanged,
      resumeWhenAnswered: true,
      askAgainAfterRestart: true,
      orgPath: options.orgPath,
      trust: options.trust,
      program: 'LeMMing Desktop',
      env: options.env,
      variables: options.variables,
      secrets: options.secrets.store,
      onCommit: (commit) => commits.session?.committed(commit),
      onProgress: (progress) => options.events.turnProgress(progress),
      // An MCP card changed (a crash, a restart, new tools): the Tool Store pulls the cards again, and
      // whoever follows the servers' statuses (main's notifications) hears them when they moved.
      onMcpChange: () => {
        clearTimeout(mcpChanged);
        mcpChanged = setTimeout(() => {
          options.events.emit('agents.changed', { names: [] });
          const servers = commits.session?.engine.mcp.statuses() ?? [];
          if (JSON.stringify(servers) === statusesTold) return;
          statusesTold = JSON.stringify(servers);
          options.events.emit('mcp.statuses', { servers });
        }, 200);
        mcpChanged.unref();
      },
    });
    approvals.attach(engine.parked);
    const session = new OrgSession(options.orgPath, engine, options, approvals);
    commits.session = session;
    await session.controller.refresh();
    session.watchOtherPrograms();
    return session;
  }

  isRunning(agent: string): boolean {
    return this.running.has(agent);
  }

  waitingRequests(agent: string): ApprovalRequest[] {
    return this.approvals.pending().filter((request) => request.agent === agent);
  }

  /** After the host itself added events (a top-up, a message): the renderer's tail should pull them. */
  timelineGrew(): void {
    this.options.events.timelineAppended(this.engine.timeline.latestSeq());
  }

  async close(): Promise<void> {
    if (this.watch) clearInterval(this.watch);
    await this.controller.dispose();
    this.options.events.flush();
    this.engine.close();
  }

  /**
   * While this app is not running the org, another program (`lemming run`, a second window) may be: the
   * run state says so, and what that program commits reaches the timeline view.
   */
  private watchOtherPrograms(): void {
    this.lastSeenSeq = this.engine.timeline.latestSeq();
    this.watch = setInterval(() => {
      if (this.controller.state().phase !== 'idle') return;
      void this.controller
        .refresh()
        .then(() => {
          const latest = this.engine.timeline.latestSeq();
          if (latest === this.lastSeenSeq) return;
          this.lastSeenSeq = latest;
          this.options.events.timelineAppended(latest);
        })
        .catch((error: unknown) => this.options.logError?.('watching for other programs', error));
    }, WATCH_MS);
    this.watch.unref?.();
  }

  private committed(commit: EngineCommit): void {
    if (commit.agent !== null && commit.agent !== 'human') this.options.events.turnEnded(commit.agent);
    this.lastSeenSeq = Math.max(this.lastSeenSeq, commit.lastSeq);
    this.options.events.timelineAppended(commit.lastSeq);
    if (commit.agent === null || commit.tick !== this.tickInProgress) return;
    this.committedThisTick.add(commit.agent);
    if (this.running.delete(commit.agent))
      this.options.events.emit('agents.changed', { names: [commit.agent] });
  }

  private tickStarted(tick: number): void {
    this.tickInProgress = tick;
    this.committedThisTick.clear();
    void this.markFiring(tick).catch((error: unknown) =>
      this.options.logError?.('marking running agents', error),
    );
  }

  private async markFiring(tick: number): Promise<void> {
    const firing = await firingAgents(this.orgPath, tick);
    if (this.tickInProgress !== tick) return;
    const names = firing.filter((name) => !this.committedThisTick.has(name));
    for (const name of names) this.running.add(name);
    if (names.length > 0) this.options.events.emit('agents.changed', { names });
  }

  private tickEnded(): void {
    this.tickInProgress = null;
    const names = [...this.running];
    this.running.clear();
    if (names.length > 0) this.options.events.emit('agents.changed', { names });
  }
}
