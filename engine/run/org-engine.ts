import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { TurnProgress } from '../api/model-event-schemas';
import { formatProblem } from '../api/problem';
import {
  EngineInputError,
  OrgBusyError,
  OrgNotTrustedError,
  TimelineUnusableError,
  UnknownAgentError,
} from './engine-errors';
import { openProblem, TIMELINE_FILE, timelineProblemBeforeRun } from './timeline-health';
import { ApprovalSettings } from '../api/approval-schemas';
import { toMicros, fromMicros } from '../credits/credit-amount';
import { CreditLedger, type LedgerPosting } from '../credits/ledger';
import { BudgetSpendStore } from '../timeline/budget-spend';
import { BudgetBook, softCapFacts } from './budget-book';
import { MemoryListingCache } from '../memory/memory-listing-cache';
import { MessageStore } from '../messages/message-store';
import { readableSenders } from '../messages/readable-senders';
import {
  humanMessage,
  outboxFileName,
  parseOutboxFileName,
  serializeEntry,
  type OutboxEntry,
} from '../messages/outbox-entry';
import type { HumanImportance } from '../api/credit-schemas';
import { ORG_CONFIG_FILE, readOrgConfig } from '../org/org-config-file';
import { whenExists } from '../files/when-exists';
import {
  createProvider,
  modelSetupProblem,
  type ModelSetupProblem,
  type ProviderDeps,
} from '../models/create-provider';
import { parseModelsFile, MODELS_FILE, type ModelEntry } from '../models/models-file';
import type { ModelProvider } from '../models/types';
import type { Result } from '../api/result';
import type { RunLockHolder, TickReport } from '../api/run-schemas';
import { restoreInterruptedReplacement } from '../files/atomic-write';
import { planConfigEdit, patchEdits } from '../org/config-file';
import {
  CREDITS_FILE,
  CREDITS_SPEC,
  DEFAULT_COST_PER_ACTION,
  defaultCreditEntry,
  readCredits,
  type CreditEntry,
  type CreditsFile,
} from '../org/credits-file';
import { crashPoint } from '../files/crash-points';
import { ParkedTurns, type ReadyTurn } from './parked-turns';
import type { ParkedTurnState } from './parked-turn-state';
import { OrgRunLock, runLockHolder, type RunLockOptions, type RunLockRefusal } from '../org/org-lock';
import { discoverAgents, invalidAgentLabel, ResumeCache, type DiscoveredAgent } from '../org/discover';
import { readTextFile } from '../files/read-text-file';
import { readNextTick, TICK_FILE, TICK_SPEC } from '../org/tick-file';
import type { Resume } from '../org/resume-schema';
import { knownEvent, type KnownTimelineEvent } from '../api/timeline-events';
import { openTimeline, type TimelineStore } from '../timeline/timeline-store';
import type { ToolTurnContext, TurnBudget } from '../tools/agent-tools';
import { resolveTools, type ToolVerdict } from '../tools/policy-resolver';
import { toolCatalog } from '../tools/tool-catalog';
import {
  composedCatalogEntries,
  composedToolSpecs,
  loadComposedTools,
  netHttpPrimitive,
  type ComposedToolLoad,
} from '../tools/composed';
import { detectConfinement } from '../sandbox/shell/detect-confinement';
import type { HttpTransport } from '../tools/http-request-tool';
import type { ToolResult } from '../tools/tool-result';
import { agentToolbox } from '../tools/agent-toolbox';
import type { ApprovalAsker, ApprovalGateOptions } from '../tools/approval-gate';
import { readApprovalsFor } from '../org/approvals-file';
import { agentIdentity } from '../org/agent-identity';
import { McpHub } from '../tools/mcp/mcp-hub';
import { withChoice, withListing } from '../tools/mcp/mcp-tool-record';
import { mcpToolOrigin } from '../tools/mcp/mcp-tools';
import type { CatalogEntry, CatalogEnvironment } from '../tools/tool-catalog';
import { readPolicy, type OrgPolicy } from '../org/policy-file';
import { parseJsonText } from '../files/json-text';
import {
  DEFAULT_TURN_LIMITS,
  runAgentTurn,
  type StagedTurn,
  type StartedCall,
  type TurnLimits,
  type TurnModel,
} from './agent-turn';
import { inReadyRuns, startWithConcurrency, type ConcurrencyLimits } from './concurrency';
import { DEFAULT_TURN_CONCURRENCY, providerConcurrency, providerKey } from './provider-concurrency';
import { ServerLimits } from './server-limits';
import type { ServerCallWatch } from '../models/types';
import { DiskImport } from './disk-import';
import { Rehearsal, type RehearsalRecord } from './rehearsal';
import type { RehearsalHold } from '../tools/rehearsal-hold';
import { keepMedia } from './tool-media';
import { PendingFiles, throwIfFailed, type FileWrite, type FileWriteFailure } from './pending-files';
import { RunSecrets } from './run-secrets';
import { readRestApis } from '../tools/rest-api/rest-api-config';
import { toolSettingValues } from '../tools/connectors/tool-settings-file';
import { restApiCatalogEntries, type RestApi } from '../tools/rest-api/rest-api-tool';
import { loadSkills, type LoadedSkills } from '../tools/skills/load-skills';
import { SKILL_FILE } from '../tools/skills/skill';
import { folderSignature, SignatureCache } from '../files/folder-signature';
import type { SecretStore } from '../secrets/secret-store';
import type { TrustStore } from '../trust/trust-store';
import { variablesIn, type VariableSource } from '../trust/org-grants';
import type { GrantRefusal } from '../api/grant-refusal';
import { mayRun, orgKeyOf, orgTrust } from '../trust/org-trust';
import type { OrgTrust } from '../api/trust-schemas';
import { memoryChangeRecord, TurnMemory, type MemoryChangeOutcome } from '../memory/turn-memory';
import { readScheduleSettings } from '../org/schedule-settings-file';
import { SKIP_REASON_WORDS, type CatchUp, type SkipReason } from '../api/schedule-schemas';
import { dueCandidate, invalidResumeSkip, untilNextClockDue, type DueCandidate } from './due-turns';
import { skipReasonOf, TickSchedule, type MissedTicks, type RunPace } from './tick-schedule';
import { agentPaths, inOrg } from '../org/org-layout';
import { signInStoreIn } from '../tools/mcp/auth/mcp-sign-in-store';

export interface EngineOptions {
  orgPath: string;
  /** Default: <org>/.lemming/timeline.sqlite. */
  timelineFile?: string;
  /**
   * Agents of one fire point that may run at once in all (each model server has its own limit too).
   * Default: DEFAULT_TURN_CONCURRENCY, or what the servers in use allow together when that is more.
   */
  concurrency?: number;
  limits?: Partial<TurnLimits>;
  /** Where API keys and connector secrets come from; none when absent. */
  secrets?: SecretStore;
  /**
   * The person's trust decisions and grants (docs/ARCHITECTURE.md, “Trust”): an org that is not trusted
   * as it is now starts no program and sends no request, and uses only the secrets granted to it.
   */
  trust: TrustStore;
  /**
   * This process's environment as the org sees it: a `cli` model's program starts from its PATH, HOME
   * and the like, and the variables the person granted the org are read from it unless `variables` is
   * given. Default: process.env.
   */
  env?: Record<string, string | undefined>;
  /** Where the variables granted to the org are read instead (the app's engine thread asks main). */
  variables?: VariableSource;
  clock?: () => Date;
  /** The tools an agent could have; the default is the built-in catalog for its resume. */
  catalog?: (context: ToolTurnContext, environment: CatalogEnvironment) => CatalogEntry[];
  /** Only for tests: how agent web requests (and MCP servers over HTTP) resolve and classify addresses. */
  httpTransport?: HttpTransport;
  /** Called when an MCP server's card changes (started, crashed, restarted, its tools changed). */
  onMcpChange?: () => void;
  /** Only for tests: the first delay before an MCP server that crashed is restarted (it doubles each time). */
  mcpRestartDelayMs?: number;
  /** Called after each commit with what was committed (the live tail). */
  onCommit?: (commit: EngineCommit) => void;
  /** Called with each piece of a model's answer as it is written; not stored (the timeline keeps the whole answer). */
  onProgress?: (progress: TurnProgress) => void;
  /**
   * Who answers "ask me first" requests (the app's cards, the terminal, `--approve`/`--deny`). Absent,
   * no tool call asks: every program that runs an org for a person passes one.
   */
  approvals?: ApprovalAsker;
  /** Told when an agent's parked turn is parked, answered or asked again (see ParkedTurns). */
  onParkedChange?: (agent: string) => void;
  /** Resume a parked turn as soon as it is answered, between ticks (the app); otherwise at the next tick. */
  resumeWhenAnswered?: boolean;
  /**
   * A request still waiting when the program that asked it stopped is asked again, its time counted
   * afresh, at the first tick of this one (the app: the person could not see it while the app was
   * closed). Otherwise its time runs from when it was asked (the CLI, where `lemming approvals` shows
   * it at any time, and a run from cron would otherwise never give it up).
   */
  askAgainAfterRestart?: boolean;
  /** What is running the org, named to a program its run lock refuses: `lemming run`, `LeMMing Desktop`. */
  program?: string;
  /**
   * Take the org's run lock before anything else, even opening the timeline, and keep it (see claimRun):
   * for a run, which is then refused with OrgBusyError at once when another program has the org.
   */
  claimRun?: boolean;
}

/** Whether this engine may run the org: it holds the org's run lock, or another program does. */
export type RunClaim = Result<void, RunLockRefusal>;

export interface EngineCommit {
  tick: number;
  agent: string | null;
  firstSeq: number;
  lastSeq: number;
}

interface LoadedAgent {
  folder: string;
  resume: Resume;
}

/**
 * The org engine: runs ticks of an org folder and records everything in the timeline. One instance per
 * org; the CLI, the tests and the desktop app drive it the same way.
 */
export class OrgEngine {
  readonly messages: MessageStore;
  readonly ledger: CreditLedger;
  /** Turns parked on an approval request, waiting for the person (docs/ARCHITECTURE.md, "Parked turns"). */
  readonly parked: ParkedTurns;
  private readonly pending: PendingFiles;
  /** Each agent's skills and composed tools, read again only when their files change. */
  private readonly skills = new SignatureCache<LoadedSkills>();
  private readonly composedTools = new SignatureCache<ComposedToolLoad>();
  /** Each agent's memory listing, read again only when its memory files change. */
  private readonly memoryListings = new MemoryListingCache();
  private readonly diskImport: DiskImport;
  private readonly insertTurn: Database.Statement;
  private readonly markTurnFailed: Database.Statement;
  private readonly selectCommittedAgents: Database.Statement;
  private readonly providers = new Map<string, ModelProvider>();
  private readonly limits: TurnLimits;
  private readonly clock: () => Date;
  /** This engine session; every event it records carries it. */
  readonly runId = randomUUID();
  private readonly secrets: RunSecrets;
  private readonly resumes = new ResumeCache();
  /** models.json keys to provider model ids, as last read (for `tools_profile: auto`). */
  private modelIds = new Map<string, string>();
  /** Invalid resumes already warned about by this engine, with their problems: each is warned about once. */
  private readonly warnedResumes = new Set<string>();
  /** Held from the first tick (or write) of a run until `releaseRun` or `close`. */
  private lock: OrgRunLock | null = null;
  private exclusive: Promise<unknown> = Promise.resolve();
  /**
   * Ticks and resumes asked for, and those not done yet: each keeps the run lock it takes (claimRun), so
   * a short job that took the lock does not let go of it under one.
   */
  private ticksAsked = 0;
  private ticksPending = 0;
  private readonly selectCreditsSeen: Database.Statement;
  private readonly upsertCreditsSeen: Database.Statement;
  private readonly deleteCreditsSeen: Database.Statement;
  /** The org's MCP servers (lemming/config/mcp.json): started when needed, stopped when the run ends. */
  readonly mcp: McpHub;
  private mcpSync: Promise<void> = Promise.resolve();
  /** The key of this org's record in the person's trust record (its real path). */
  private readonly orgKey: string;
  private readonly serverLimits: ServerLimits;
  readonly spending: BudgetSpendStore;
  readonly budgets: BudgetBook;
  private readonly tickSchedule: TickSchedule;

  private constructor(
    readonly orgPath: string,
    readonly timeline: TimelineStore,
    private readonly options: EngineOptions,
    private readonly environment: CatalogEnvironment,
  ) {
    this.messages = new MessageStore(timeline.db);
    this.ledger = new CreditLedger(timeline.db);
    this.pending = new PendingFiles(timeline.db, orgPath);
    this.clock = options.clock ?? (() => new Date());
    this.secrets = new RunSecrets(options.secrets, {
      orgPath,
      trust: options.trust,
      variables: options.variables ?? variablesIn(options.env ?? process.env),
    });
    this.diskImport = new DiskImport(orgPath, timeline, this.messages, this.clock, this.secrets);
    this.parked = new ParkedTurns({
      timeline,
      appendEvents: (events) => this.appendEvents(events),
      redact: (value) => this.secrets.redactValue(value),
      clock: this.clock,
      ...(options.onParkedChange ? { changed: options.onParkedChange } : {}),
      person: {
        keep: (requestId, kept) => options.trust.keepParkedApproval(this.orgKey, requestId, kept),
        approved: (requestId) => options.trust.approvedParked(this.orgKey, requestId),
      },
      // A resume refused now (the org not trusted, another program running it) keeps the answer: the
      // next tick resumes the turn.
      ...(options.resumeWhenAnswered
        ? { answered: () => void this.resumeAnswered().catch(() => undefined) }
        : {}),
    });
    this.insertTurn = timeline.db.prepare(
      'INSERT INTO turns (tick, agent, turn, run_id, status, committed_at) VALUES (?, ?, ?, ?, ?, ?)',
    );
    this.markTurnFailed = timeline.db.prepare(
      "UPDATE turns SET status = 'failed' WHERE tick = ? AND agent = ?",
    );
    this.selectCommittedAgents = timeline.db.prepare('SELECT agent FROM turns WHERE tick = ?').pluck();
    this.selectCreditsSeen = timeline.db.prepare(
      'SELECT agent, credits_left_micro AS creditsLeft, cost_per_action_micro AS costPerAction FROM credits_file_seen',
    );
    this.deleteCreditsSeen = timeline.db.prepare('DELETE FROM credits_file_seen WHERE agent = ?');
    this.upsertCreditsSeen = timeline.db.prepare(
      'INSERT INTO credits_file_seen (agent, credits_left_micro, cost_per_action_micro) VALUES (?, ?, ?) ON CONFLICT (agent) DO UPDATE SET credits_left_micro = excluded.credits_left_micro, cost_per_action_micro = excluded.cost_per_action_micro',
    );
    this.limits = { ...DEFAULT_TURN_LIMITS, ...options.limits };
    this.serverLimits = new ServerLimits(orgPath);
    this.spending = new BudgetSpendStore(timeline.db);
    this.budgets = new BudgetBook(orgPath, this.spending, this.clock);
    this.tickSchedule = new TickSchedule(timeline.db, this.clock);
    this.orgKey = orgKeyOf(orgPath);
    const trust = options.trust;
    this.mcp = new McpHub(orgPath, {
      orgPath,
      serverRecord: (identity) => trust.mcpServer(this.orgKey, identity),
      // Every tool is in the person's record, as first seen, before an agent can call it. A record that
      // cannot be read or written leaves the tool unknown there, and an unknown tool asks before every call.
      toolsListed: async (server, tools) => {
        const listed = tools.map((tool) => mcpToolOrigin(server.identity, tool));
        await trust
          .changeMcpServer(this.orgKey, server.identity, (record) =>
            withListing(record, listed, this.clock()),
          )
          .catch(() => undefined);
      },
      secret: this.secrets.lookup,
      refusal: this.secrets.refusal,
      redact: this.secrets.redactText,
      clock: this.clock,
      // A token refreshed in the middle of a call is redacted from that call's answer already.
      ...(options.secrets
        ? { signInStore: signInStoreIn(options.secrets, this.orgKey, () => this.secrets.refresh()) }
        : {}),
      ...(options.httpTransport?.lookup ? { lookup: options.httpTransport.lookup } : {}),
      ...(options.httpTransport?.classifyAddress
        ? { classifyAddress: options.httpTransport.classifyAddress }
        : {}),
      ...(options.mcpRestartDelayMs !== undefined ? { restartDelayMs: options.mcpRestartDelayMs } : {}),
      ...(options.onMcpChange ? { onChange: options.onMcpChange } : {}),
    });
  }

  /**
   * Whether the org may run as it is now, judged against the person's trust record at this moment
   * (docs/ARCHITECTURE.md, “Trust”): a file edited or trust revoked while the org is open counts at once.
   */
  trust(): Promise<OrgTrust> {
    return orgTrust(this.orgPath, this.options.trust);
  }

  /**
   * The one gate before anything that starts a program or sends a request (a tick, a tool call, a model
   * test): refused with OrgNotTrustedError, naming everything the org would run and reach, unless the
   * person trusts the org as it is now or it needs no trust.
   */
  async requireTrust(): Promise<OrgTrust> {
    const trust = await this.trust();
    if (!mayRun(trust)) throw new OrgNotTrustedError(trust);
    return trust;
  }

  /**
   * Brings the MCP servers in line with mcp.json and starts them; one sync at a time. While the org is
   * not trusted, none is started and those running are stopped. Servers start with the secrets granted
   * now: one the person just stored and granted (a server added in the app) is read again first, for a
   * server that fails for want of it stays failed until its entry changes.
   */
  syncMcpServers(policy: OrgPolicy): Promise<void> {
    this.mcpSync = this.mcpSync
      .catch(() => undefined)
      .then(async () => {
        await this.secrets.refresh();
        return this.mcp.sync(policy, mayRun(await this.trust()));
      });
    return this.mcpSync;
  }

  /** Stops the org's MCP servers (a run ends, the org closes); they start again when next needed. */
  stopMcpServers(): Promise<void> {
    this.mcpSync = this.mcpSync.catch(() => undefined).then(() => this.mcp.stopAll());
    return this.mcpSync;
  }

  /**
   * Opens the org's timeline. Unless another program is running the org, it also finishes the file
   * writes a crash left owed and imports what LeMMing left on disk (the next run does it otherwise).
   * A timeline that is damaged, from a newer version or missing is refused (TimelineUnusableError),
   * checked read-only first so it is left as it was.
   */
  static async open(options: EngineOptions): Promise<OrgEngine> {
    const file = options.timelineFile ?? join(options.orgPath, TIMELINE_FILE);
    const problem = await timelineProblemBeforeRun(options.orgPath, file);
    if (problem) throw new TimelineUnusableError(problem.fix, problem.message);
    const attempt = options.claimRun ? OrgRunLock.take(options.orgPath, lockOptions(options)) : null;
    if (attempt && !attempt.ok) throw new OrgBusyError(attempt.error.message, attempt.error.holder);
    const opened = openTimeline(file);
    if (!opened.ok) {
      if (attempt?.ok) attempt.value.lock.release();
      const unusable = openProblem(opened.error);
      throw unusable
        ? new TimelineUnusableError(unusable.fix, unusable.message)
        : new Error(opened.error.message);
    }
    const engine: OrgEngine = new OrgEngine(options.orgPath, opened.timeline, options, {
      confinement: await detectConfinement(),
      modelIdOf: (key: string): string => engine.modelIds.get(key) ?? key,
      ...(options.httpTransport ? { httpTransport: options.httpTransport } : {}),
    });
    try {
      await engine.secrets.refresh();
      if (attempt) {
        engine.lock = attempt.value.lock;
        await engine.recover(attempt.value.staleHolder);
      } else if ((await engine.claimRun()).ok) engine.releaseRun();
    } catch (error) {
      engine.close();
      throw error;
    }
    return engine;
  }

  close(): void {
    void this.stopMcpServers();
    if (this.timeline.db.open) this.pending.settle();
    this.timeline.close();
    this.letGoOfRun();
  }

  /**
   * Takes the org's run lock for this engine, unless it has it: from then on no other program runs
   * ticks of the org, charges credits or writes its config files, until `releaseRun` or `close`.
   * Refused at once, naming the holder, when another program has it. Taking it finishes what a run
   * killed before left owed (file writes, a config file caught between its renames).
   */
  async claimRun(): Promise<RunClaim> {
    if (this.lock) return { ok: true, value: undefined };
    const attempt = OrgRunLock.take(this.orgPath, lockOptions(this.options));
    if (!attempt.ok) return attempt;
    this.lock = attempt.value.lock;
    try {
      await this.recover(attempt.value.staleHolder);
    } catch (error) {
      this.letGoOfRun();
      throw error;
    }
    return { ok: true, value: undefined };
  }

  /**
   * Lets go of the run lock and stops the MCP servers (a run or a step ended), unless a tick or a resume
   * is asked for and not done: it takes the lock as its own and keeps it (as in withRunLock), so a step
   * that ends as the person answers does not let go under the resumed turn, nor stop the servers its
   * calls use (a server would lose what it holds in memory, such as a tool it renamed, before the next tick).
   */
  releaseRun(): void {
    if (this.ticksPending > 0) return;
    this.letGoOfRun();
  }

  private letGoOfRun(): void {
    if (this.lock) void this.stopMcpServers();
    this.lock?.release();
    this.lock = null;
  }

  /** The program running the org when it is not this engine; null when nobody is or this engine is. */
  runLockHolder(): RunLockHolder | null {
    return this.lock ? null : runLockHolder(this.orgPath);
  }

  private async recover(staleHolder: RunLockHolder | null): Promise<void> {
    for (const file of [TICK_FILE, CREDITS_FILE]) restoreInterruptedReplacement(join(this.orgPath, file));
    // A file that still cannot be written stays owed; it keeps only its own agent's turns from being whole.
    const unwritten = await this.pending.replay();
    if (unwritten.length > 0)
      this.appendEvents(
        unwritten.map((failure): KnownTimelineEvent => ({
          kind: 'warning',
          code: 'file_write_failed',
          message: failure.message,
          time: this.clock().toISOString(),
        })),
      );
    await this.diskImport.importAll();
    if (staleHolder) {
      const { program, pid, host, since } = staleHolder;
      this.appendEvents([
        {
          kind: 'warning',
          code: 'run_lock_taken_over',
          message: `The last run of this org (${program}, pid ${pid} on ${host}, since ${since}) ended without releasing it: it was killed or crashed. What it had committed was completed; this run carries on from there.`,
          holder: staleHolder,
          time: this.clock().toISOString(),
        },
      ]);
    }
  }

  /** Runs `work` holding the run lock: this engine's own when it has it, else taken for `work` alone. */
  private async withRunLock<T>(work: () => Promise<T>): Promise<T> {
    if (this.lock) return work();
    await this.requireRunLock();
    const asked = this.ticksAsked;
    try {
      return await work();
    } finally {
      // A tick waiting, or run meanwhile, takes this lock as its own when its turn comes, and keeps it.
      if (this.ticksAsked === asked) this.releaseRun();
    }
  }

  private async requireRunLock(): Promise<void> {
    const claim = await this.claimRun();
    if (!claim.ok) throw new OrgBusyError(claim.error.message, claim.error.holder);
  }

  /** Now, by the engine's clock (a test's fake one). */
  now(): Date {
    return this.clock();
  }

  /** The tick the next `runTick` runs (tick.json's `current_tick`). */
  async currentTick(): Promise<number> {
    const read = await readNextTick(this.orgPath);
    if (!read.ok) throw new EngineInputError(read.error);
    return read.value.nextTick;
  }

  /**
   * Runs one tick: every agent that fires, in LeMMing's order, each turn committed as soon as it and those
   * before it are done (turns done within TURN_COMMIT_GATHER_MS of each other share a commit). Refused
   * with OrgNotTrustedError, before anything runs, when the org is not trusted as it is now. Takes the
   * run lock first (and keeps it: see claimRun); throws OrgBusyError when another program has it.
   */
  runTick(signal?: AbortSignal, run: RunPace | null = null): Promise<TickReport> {
    return this.oneAtATime(() => this.tickNow(signal, run));
  }

  /** Ticks and the resuming of answered parked turns run one at a time, in the order asked. */
  private oneAtATime<T>(work: () => Promise<T>): Promise<T> {
    this.ticksAsked += 1;
    this.ticksPending += 1;
    const counted = () => work().finally(() => (this.ticksPending -= 1));
    const done = this.exclusive.then(counted, counted);
    this.exclusive = done.catch(() => undefined);
    return done;
  }

  /**
   * Resumes the parked turns answered since the last tick, between ticks (the app, as soon as the
   * person answers; a run resumes them at the start of each tick anyway). Each commits under its own
   * tick and turn id. Refused as a tick is: the org must be trusted and this program hold its run lock.
   */
  resumeAnswered(signal?: AbortSignal): Promise<NonNullable<TickReport['resumed']>> {
    return this.oneAtATime(async () => {
      if (!this.parked.ready().ready.length) return [];
      await this.requireTrust();
      await this.requireRunLock();
      const tick = await this.currentTick();
      await this.secrets.refresh();
      const { agents } = await this.loadAgents();
      const credits = await this.readCreditsFile();
      this.seedBalances(agents, credits, tick);
      const policy = await this.readPolicyFile();
      const restApis = await this.restApis();
      await this.syncMcpServers(policy);
      const org = agents.map(({ resume }) => ({ name: resume.name, title: resume.title }));
      const models = await this.loadModels();
      const resumed = await this.resumeReadyTurns({
        agents,
        tick,
        runId: this.runId,
        models,
        credits,
        policy,
        restApis,
        org,
        signal,
      });
      await Promise.all(resumed.fileWrites);
      return resumed.turns;
    });
  }

  private async tickNow(signal: AbortSignal | undefined, run: RunPace | null): Promise<TickReport> {
    await this.requireTrust();
    await this.requireRunLock();
    const nextTick = await this.currentTick();
    const runId = this.runId;
    await this.secrets.refresh();
    const { agents, invalid } = await this.loadAgents();
    const plan = this.tickSchedule.plan({
      nextTick,
      run,
      agents: agents.map((agent) => dueCandidate(agent)),
      resumingTick: this.committedTurns(nextTick).size > 0,
      catchUp: await this.catchUpSetting(),
    });
    const tick = plan.tick;
    if (plan.missed) this.recordMissedTicks(plan.missed, runId);
    await this.diskImport.importOutboxes();
    const credits = await this.readCreditsFile();
    this.seedBalances(agents, credits, tick);
    this.takeInCreditsEdits(agents, credits, tick);
    const models = await this.loadModels();
    await this.serverLimits.load();
    await this.budgets.load();
    const policy = await this.readPolicyFile();
    const restApis = await this.restApis();
    await this.syncMcpServers(policy);

    this.record(
      {
        kind: 'tick_started',
        tick,
        run: runId,
        agents: agents.length,
        invalid_agents: invalid.map((agent) => ({
          folder: agent.folder,
          problems: agent.valid ? [] : agent.problems,
        })),
      },
      tick,
    );
    this.warnOfInvalidResumes(invalid, tick);
    const report: TickReport = { tick, turns: this.skipDueTurns(invalid, plan.skipped, tick, runId) };
    // How long each turn waited for its model server: for room at it, and before retries it asked for.
    const serverWaits = new Map<string, number>();
    // Every turn tells its agent who is in the org: one list a tick, not one per turn.
    const org = agents.map(({ resume }) => ({ name: resume.name, title: resume.title }));
    // Each committed turn's files are written while the next turns commit; all are settled before the tick ends.
    const fileWrites: Promise<string | null>[] = [];
    // Parked turns answered (or past their time) go on first, each committed under its own tick.
    if (this.options.askAgainAfterRestart) this.parked.askAgain(runId);
    const resumed = await this.resumeReadyTurns({
      agents,
      tick,
      runId,
      models,
      credits,
      policy,
      restApis,
      org,
      signal,
    });
    fileWrites.push(...resumed.fileWrites);
    if (resumed.turns.length > 0) report.resumed = resumed.turns;
    // After the resumed turns: one parked at this very tick (run again after a kill) is committed now.
    const committed = this.committedTurns(tick);
    for (const group of plan.groups) {
      const pendingAgents = group.agents.filter((agent) => {
        if (committed.has(agent.name)) {
          report.turns.push({ agent: agent.name, status: 'already_committed' });
          return false;
        }
        const waiting = this.parked.waiting(agent.name);
        if (waiting) report.turns.push(this.skipWhileParked(agent.name, waiting, tick, runId));
        return !waiting;
      });
      const horizon = this.messages.latestSeq();
      const queuedAt = performance.now();
      // Turns run concurrently but commit in LeMMing's order, each as soon as it and those before it are done.
      const staged = startWithConcurrency(pendingAgents, this.turnLimits(pendingAgents, models), (agent) => {
        const name = agent.resume.name;
        const server = providerKey(models.get(agent.resume.model.key));
        serverWaits.set(name, performance.now() - queuedAt);
        const serverCalls: ServerCallWatch = {
          sent: () => this.serverLimits.sent(server),
          answered: (answer) => {
            this.serverLimits.answered(server, answer);
            if (answer.retryInMs !== null) serverWaits.set(name, serverWaits.get(name)! + answer.retryInMs);
          },
        };
        return this.stageTurn(agent, tick, runId, horizon, models, credits, { policy, restApis }, org, {
          signal,
          serverCalls,
        });
      });
      for await (const turns of inReadyRuns(staged, TURN_COMMIT_GATHER_MS)) {
        fileWrites.push(...this.commitTurns(turns.filter((turn) => !turn.parked)));
        for (const turn of turns) {
          if (turn.parked) this.parkTurn({ ...turn, parked: turn.parked });
          const reason = skipReasonOf(turn.events);
          report.turns.push({
            agent: turn.agent,
            status: turn.parked ? 'parked' : turn.status,
            ...(reason ? { reason } : {}),
          });
        }
      }
    }
    const unwritten = new Set(await Promise.all(fileWrites));
    for (const turn of report.turns) if (unwritten.has(turn.agent)) turn.status = 'failed';
    crashPoint('tick:turns-committed');

    // credits.json and tick.json are written after the commit that closes the tick, from the journal
    // of owed files that commit holds: a kill at any moment leaves the old file or the new one, and the
    // next start writes what is owed. So tick.json never moves past a tick without its tick_completed.
    // An edit made to credits.json while the tick ran is taken in, not overwritten.
    this.takeInCreditsEdits(agents, await this.readCreditsFile(), tick);
    const configWrites = await this.configFileWrites(agents, tick + 1);
    const pruned = await this.outboxFilesToPrune(tick);
    const { seq, owed } = this.timeline.transaction(() => {
      const owedWrites = this.pending.record([
        ...configWrites.writes,
        ...pruned.map((path): FileWrite => ({ path, mode: 'delete', content: '' })),
      ]);
      if (pruned.length > 0)
        this.appendEvents([
          {
            kind: 'outbox_pruned',
            time: this.clock().toISOString(),
            tick,
            run: runId,
            files: pruned,
            reason: `older than max_outbox_age_ticks in ${ORG_CONFIG_FILE}; the timeline keeps each message`,
          },
        ]);
      this.rememberCreditsSeen(configWrites.credits);
      // One commit closes the tick: its last event, the journal of its config files, and the search
      // index brought up to the tick's events (in one batch rather than inside every turn's commit).
      const [completed] = this.appendEvents([
        {
          time: this.clock().toISOString(),
          kind: 'tick_completed',
          tick,
          run: runId,
          turns: report.turns,
          ...(run ? { interval_ms: run.intervalMs } : {}),
          server_wait: serverWaitRecord(serverWaits),
          server_limits: this.serverLimits.limits(),
        },
      ]) as [number];
      this.timeline.catchUpSearch();
      return { seq: completed, owed: owedWrites };
    });
    crashPoint('tick:closing-committed');
    throwIfFailed(await this.pending.perform(owed));
    crashPoint('tick:files-written');
    this.pending.settle();
    this.options.onCommit?.({ tick, agent: null, firstSeq: seq, lastSeq: seq });
    // What was learned of the servers is a head start for the next run, not part of the tick: a folder
    // that cannot take it leaves the next run starting from the defaults, and this tick stands.
    await this.serverLimits.save().catch(() => undefined);
    this.tickSchedule.ran(run);
    return report;
  }

  /**
   * Records that the run stopped running ticks by the person's or its own doing (stopped, paused, its
   * last tick): the time until the next tick is not counted as ticks missed. Not called when the app closes.
   */
  async recordRunEnded(reason: string, message: string): Promise<void> {
    const lastTick = (await this.currentTick()) - 1;
    this.record({ kind: 'run_ended', tick: lastTick, run: this.runId, reason, message }, lastTick);
  }

  /** How long until the next due time of an agent's clock schedule; null when no agent runs by the clock. */
  async untilNextClockDue(): Promise<number | null> {
    const { agents } = await this.loadAgents();
    return untilNextClockDue(
      agents.map((agent) => dueCandidate(agent)),
      this.clock(),
    );
  }

  /**
   * Turns run at once up to each model server's limit (learned from its answers, or set by hand) and up
   * to the engine's concurrency in all, which grows with what the servers allow together unless it was
   * set. When models sharing a server ask for different limits, one set by hand wins, and the smallest.
   */
  private turnLimits(
    agents: readonly { resume: Resume }[],
    models: Map<string, ModelEntry | string>,
  ): ConcurrencyLimits<{ resume: Resume }> {
    const byKey = new Map<string, { limit: number; adaptive: boolean }>();
    for (const agent of agents) {
      const entry = models.get(agent.resume.model.key);
      const key = providerKey(entry);
      const wanted = providerConcurrency(entry);
      const known = byKey.get(key);
      if (!known || (known.adaptive && !wanted.adaptive)) byKey.set(key, wanted);
      else if (known.adaptive === wanted.adaptive && wanted.limit < known.limit) byKey.set(key, wanted);
    }
    const servers = [...byKey.keys()];
    return {
      overall:
        this.options.concurrency ??
        (() => Math.max(DEFAULT_TURN_CONCURRENCY, this.serverLimits.total(servers))),
      keyOf: (agent) => providerKey(models.get(agent.resume.model.key)),
      limitOf: (key) => {
        const { limit, adaptive } = byKey.get(key) ?? { limit: 1, adaptive: false };
        return this.serverLimits.gate(key, limit, !adaptive);
      },
    };
  }

  /**
   * One turn of `agentName`, as the next tick would run it, with every side effect held back
   * (engine/run/rehearsal.ts): only its rehearsal record is committed. Runs beside a tick of this engine
   * without touching its state; refused (OrgBusyError) while another program runs the org.
   */
  async rehearse(agentName: string, signal?: AbortSignal): Promise<{ seq: number; record: RehearsalRecord }> {
    await this.requireTrust();
    return this.withRunLock(async () => {
      const agent = await this.findAgent(agentName);
      const tick = await this.currentTick();
      await this.secrets.refresh();
      const credits = await this.readCreditsFile();
      const models = await this.loadModels();
      const policy = await this.readPolicyFile();
      const restApis = await this.restApis();
      await this.syncMcpServers(policy);
      const rehearsal = new Rehearsal((server) => this.options.trust.mcpServer(this.orgKey, server));
      const org = agent.org.map(({ resume }) => ({ name: resume.name, title: resume.title }));
      const staged = await this.stageTurn(
        agent,
        tick,
        this.runId,
        this.messages.latestSeq(),
        models,
        credits,
        { policy, restApis },
        org,
        { signal, rehearsal: rehearsal.hold },
      );
      const record = { time: this.clock().toISOString(), run: this.runId, ...rehearsal.record(staged, tick) };
      const [seq] = this.appendEvents([record]) as [number];
      this.options.onCommit?.({ tick, agent: null, firstSeq: seq, lastSeq: seq });
      return { seq, record };
    });
  }

  /** Writes a message from the human into agents/human/outbox, as LeMMing's `send` does. */
  async sendHumanMessage(
    text: string,
    options: { importance?: HumanImportance; target?: string | null } = {},
  ): Promise<OutboxEntry> {
    const tick = await this.currentTick();
    const entry = humanMessage(
      text,
      { tick, importance: options.importance ?? 'normal', target: options.target ?? null },
      this.clock(),
    );
    const file = agentPaths('human').outboxFile(outboxFileName(entry));
    await this.secrets.refresh();
    const json = this.secrets.redactText(serializeEntry(entry));
    const { seqs, owed } = this.timeline.transaction(() => {
      this.messages.add({ id: entry.id, sender: 'human', tick, kind: entry.kind as string, file, json });
      const owed = this.pending.record([{ path: file, mode: 'write', content: json }]);
      this.diskImport.markWritten([file]);
      return {
        seqs: this.appendEvents([
          { kind: 'message', time: this.clock().toISOString(), tick, agent: 'human', file, entry },
        ]),
        owed,
      };
    });
    throwIfFailed(await this.pending.perform(owed));
    this.pending.settle();
    this.options.onCommit?.({ tick, agent: 'human', firstSeq: seqs[0]!, lastSeq: seqs.at(-1)! });
    return entry;
  }

  /** Adds credits to an agent's balance (an entry in the ledger, reflected in credits.json). */
  async topUp(agent: string, amount: number, reason = 'top-up'): Promise<number> {
    if (!(amount > 0)) throw new Error('A top-up must be a positive number of credits.');
    return this.withRunLock(async () => {
      const tick = await this.currentTick();
      const { org: agents } = await this.findAgent(agent);
      const credits = await this.readCreditsFile();
      this.seedBalances(agents, credits, tick);
      this.takeInCreditsEdits(agents, credits, tick);
      const balance = this.timeline.transaction(() => {
        const posted = this.ledger.post({
          agent,
          kind: 'top_up',
          amountMicro: toMicros(amount),
          reason,
          tick,
          time: this.clock().toISOString(),
        });
        this.appendEvents([
          { kind: 'credit', entry: 'top_up', amount, reason, time: this.clock().toISOString(), tick, agent },
        ]);
        return posted.ok ? posted.value : posted.error.balanceMicro;
      });
      const configWrites = await this.configFileWrites(agents, null);
      const owed = this.timeline.transaction(() => {
        this.rememberCreditsSeen(configWrites.credits);
        return this.pending.record(configWrites.writes);
      });
      throwIfFailed(await this.pending.perform(owed));
      this.pending.settle();
      return fromMicros(balance);
    });
  }

  /** The person resumes an agent paused over a budget (engine/run/budget-book.ts); how many budgets it lifted. */
  async resumeBudget(agentName: string): Promise<number> {
    return this.withRunLock(async () => {
      const { resume } = await this.findAgent(agentName);
      const records = await this.budgets.resumeRecords(resume.name);
      if (records.length === 0) return 0;
      const tick = await this.currentTick();
      const time = this.clock().toISOString();
      const seqs = this.timeline.transaction(() => {
        this.budgets.recordResumes(resume.name, records, time);
        return this.appendEvents(records.map((record) => ({ ...record, agent: resume.name, tick, time })));
      });
      this.options.onCommit?.({ tick, agent: resume.name, firstSeq: seqs[0]!, lastSeq: seqs.at(-1)! });
      return records.length;
    });
  }

  /**
   * The person changes one key of an agent's memory in the app: set to a value, or removed. The file is
   * written in LeMMing's format (as the agent's own change would be) and the change is recorded in the
   * timeline as a memory_update `by: "human"`, through the redactor like every write. A refusal (a bad
   * key, a value too large) comes back as a value and changes nothing.
   */
  async editMemory(
    agentName: string,
    edit: { key: string; value: unknown } | { key: string; remove: true },
  ): Promise<MemoryChangeOutcome> {
    return this.withRunLock(async () => {
      const agent = await this.findAgent(agentName);
      const name = agent.resume.name;
      const tick = await this.currentTick();
      await this.secrets.refresh();
      const memory = new TurnMemory(this.agentDir(agent));
      const outcome = await memory.apply(
        'remove' in edit
          ? { key: edit.key, op: 'delete', value: undefined }
          : { key: edit.key, op: 'set', value: edit.value },
      );
      if (!outcome.ok || outcome.change === null) return outcome;
      const now = this.clock();
      const { event, write } = memoryChangeRecord(outcome.change, {
        folder: agent.folder,
        agent: name,
        tick,
        now,
      });
      const { seqs, owed } = this.timeline.transaction(() => {
        const owed = this.pending.record(this.redactWrites([write]));
        this.diskImport.markWritten([write.path]);
        return {
          seqs: this.appendEvents([{ ...event, by: 'human', agent: name, tick, time: now.toISOString() }]),
          owed,
        };
      });
      throwIfFailed(await this.pending.perform(owed));
      this.pending.settle();
      this.options.onCommit?.({ tick, agent: name, firstSeq: seqs[0]!, lastSeq: seqs.at(-1)! });
      return outcome;
    });
  }

  /** Every tool the agent could have in this org, composed tools and connectors included: what grants can name. */
  async agentToolCatalog(agentName: string): Promise<CatalogEntry[]> {
    const agent = await this.findAgent(agentName);
    await this.secrets.refresh();
    await this.loadModels();
    const policy = await this.readPolicyFile();
    const context = this.toolTurnContext(
      agent,
      await this.currentTick(),
      new TurnMemory(this.agentDir(agent)),
      {
        availableMicro: () => 0,
        charge: () => undefined,
      },
    );
    return this.catalogFor(context, await this.composedEntries(agent, policy));
  }

  /** The policy resolver's verdict on every tool the agent could have: what the app and `lemming tools` show. */
  async explainTools(agentName: string): Promise<ToolVerdict[]> {
    const agent = await this.findAgent(agentName);
    await this.secrets.refresh();
    await this.loadModels();
    const policy = await this.readPolicyFile();
    await this.syncMcpServers(policy);
    const balance = this.ledger.balance(agent.resume.name);
    const context = this.toolTurnContext(
      agent,
      await this.currentTick(),
      new TurnMemory(this.agentDir(agent)),
      { availableMicro: () => balance ?? 0, charge: () => undefined },
    );
    const catalog = this.catalogFor(context, await this.composedEntries(agent, policy));
    return resolveTools({
      resume: agent.resume,
      policy,
      catalog,
      credits: balance === null ? null : fromMicros(balance),
    });
  }

  /**
   * Runs one tool as `agentName` outside a turn, with the same enforcement as in a turn (trust, policy,
   * sandbox, costs), and records the call, its result, its charges and its memory changes in the timeline.
   */
  async callTool(agentName: string, tool: string, args: unknown, forms?: ApprovalAsker): Promise<ToolResult> {
    await this.requireTrust();
    return this.withRunLock(() => this.callToolLocked(agentName, tool, args, forms));
  }

  private async callToolLocked(
    agentName: string,
    tool: string,
    args: unknown,
    forms: ApprovalAsker | undefined,
  ): Promise<ToolResult> {
    const agent = await this.findAgent(agentName);
    const tick = await this.currentTick();
    await this.secrets.refresh();
    await this.loadModels();
    const credits = await this.readCreditsFile();
    this.seedBalances([agent], credits, tick);
    const policy = await this.readPolicyFile();
    await this.syncMcpServers(policy);
    const name = agent.resume.name;
    const balance = this.ledger.balance(name) ?? 0;
    const time = () => this.clock().toISOString();
    const postings: LedgerPosting[] = [];
    let spent = 0;
    const budget: TurnBudget = {
      availableMicro: () => balance - spent,
      charge: (micros, reason) => {
        spent += micros;
        postings.push({ agent: name, kind: 'tool', amountMicro: -micros, reason, tick, time: time() });
      },
    };
    const memory = new TurnMemory(this.agentDir(agent));
    const composed = await this.composedEntries(agent, policy);
    const toolbox = agentToolbox({
      policy,
      credits: fromMicros(balance),
      catalog: (context) => this.catalogFor(context, composed),
      redaction: this.secrets,
      ...(forms ? { forms } : {}),
    })(this.toolTurnContext(agent, tick, memory, budget));
    const started = Date.now();
    const { media, ...result } = await toolbox.call(tool, args);
    const notKept = await keepMedia(this.orgPath, media);
    const base = { agent: name, tick, source: 'cli' };
    const events: KnownTimelineEvent[] = [
      { kind: 'tool_call', ...base, time: time(), tool, args },
      { kind: 'tool_result', ...base, time: time(), tool, result, duration_ms: Date.now() - started },
      ...notKept.map((message): KnownTimelineEvent => ({
        kind: 'warning',
        ...base,
        time: time(),
        code: 'attachment_not_kept',
        message,
      })),
    ];
    const writes: FileWrite[] = [];
    for (const change of memory.changes()) {
      const { event, write } = memoryChangeRecord(change, {
        folder: agent.folder,
        agent: name,
        tick,
        now: this.clock(),
      });
      events.push({ ...base, time: time(), ...event });
      writes.push(write);
    }
    const owed = this.timeline.transaction(() => {
      for (const posting of postings) {
        this.ledger.post(posting);
        events.push({
          kind: 'credit',
          ...base,
          time: time(),
          entry: 'tool',
          amount: -fromMicros(-posting.amountMicro),
          reason: posting.reason,
        });
      }
      const owedWrites = this.pending.record(this.redactWrites(writes));
      this.diskImport.markWritten(writes.map((write) => write.path));
      this.appendEvents(events);
      return owedWrites;
    });
    throwIfFailed(await this.pending.perform(owed));
    this.pending.settle();
    return result;
  }

  /** The tools an agent could have in this org, on this machine. */
  private catalogFor(context: ToolTurnContext, composed: readonly CatalogEntry[]): CatalogEntry[] {
    return [
      ...(this.options.catalog
        ? this.options.catalog(context, this.environment)
        : toolCatalog(context.resume, this.environment)),
      ...composed,
      ...this.mcp.catalogEntries(context.resume.permissions.tools),
    ];
  }

  /**
   * The org's and the agent's composed YAML tools and the org's REST API connectors (`restApis`, read
   * once a tick by `runTick`; read here when not given), ready to run through the SSRF-safe primitive
   * with the org's network settings; a file that does not load is left out (its problems are the
   * connectors' to show).
   */
  private async composedEntries(
    agent: LoadedAgent,
    policy: OrgPolicy,
    restApis?: RestApi[],
  ): Promise<CatalogEntry[]> {
    const load = await this.composedTools.get(
      agent.folder,
      ['tools', agentPaths(agent.folder).apiTools]
        .map((folder) =>
          folderSignature(inOrg(this.orgPath, folder), (name) => [{ path: name, follow: true }]),
        )
        .join('#'),
      () => loadComposedTools(this.orgPath, agent.folder),
    );
    const apis = restApis ?? (await this.restApis());
    if (load.tools.length === 0 && apis.length === 0) return [];
    // A tool's base URL is a setting the Tool Store saves in the org; every other value is a secret.
    const settings = await toolSettingValues(this.orgPath);
    const lookup = (name: string) => settings[name] || this.secrets.lookup(name);
    const refusal: GrantRefusal = (kind, name) => (settings[name] ? null : this.secrets.refusal(kind, name));
    const builtIns = toolCatalog(agent.resume, this.environment);
    const transport = this.environment.httpTransport;
    const http = netHttpPrimitive({
      allowPrivateHosts: policy.network.private_hosts,
      ...(transport?.lookup ? { lookup: transport.lookup } : {}),
      ...(transport?.classifyAddress ? { classifyAddress: transport.classifyAddress } : {}),
    });
    const toolset = composedToolSpecs(load.tools, {
      lookup,
      refusal,
      http,
      lookupTool: (name) => builtIns.find((entry) => entry.spec.name === name)?.spec,
    });
    const taken = new Set([...builtIns, ...toolset.entries].map((entry) => entry.spec.name));
    return [
      ...composedCatalogEntries(toolset),
      ...restApiCatalogEntries(
        apis.filter((api) => !taken.has(api.name)),
        { lookup: this.secrets.lookup, refusal: this.secrets.refusal, http },
      ),
    ];
  }

  /** The org's REST API connectors (lemming/config/rest-apis.json); a file that does not load is none (its problems are the connectors' to show). */
  private async restApis(): Promise<RestApi[]> {
    const read = await readRestApis(this.orgPath);
    return read.ok ? Object.entries(read.value.apis).map(([name, entry]) => ({ name, entry })) : [];
  }

  private async findAgent(agentName: string): Promise<LoadedAgent & { org: LoadedAgent[] }> {
    const { agents } = await this.loadAgents();
    const agent = agents.find((candidate) => candidate.resume.name === agentName);
    if (!agent)
      throw new UnknownAgentError(
        `There is no agent named "${agentName}" with a valid resume in ${this.orgPath}.`,
      );
    return { ...agent, org: agents };
  }

  private agentDir(agent: LoadedAgent): string {
    return inOrg(this.orgPath, agentPaths(agent.folder).root);
  }

  private toolTurnContext(
    agent: LoadedAgent & { org: LoadedAgent[] },
    tick: number,
    memory: TurnMemory,
    budget: TurnBudget,
  ): ToolTurnContext {
    const agents = agent.org.map(({ resume }) => ({ name: resume.name, title: resume.title }));
    return {
      orgPath: this.orgPath,
      agentDir: this.agentDir(agent),
      resume: agent.resume,
      tick,
      memory,
      agents,
      budget,
    };
  }

  private async stageTurn(
    agent: LoadedAgent,
    tick: number,
    runId: string,
    horizon: number,
    models: Map<string, ModelEntry | string>,
    credits: CreditsFile,
    { policy, restApis }: { policy: OrgPolicy; restApis: RestApi[] },
    org: readonly { name: string; title: string }[],
    {
      signal,
      serverCalls,
      resumed,
      rehearsal,
    }: {
      signal: AbortSignal | undefined;
      serverCalls?: ServerCallWatch;
      resumed?: ReadyTurn;
      rehearsal?: RehearsalHold;
    },
  ): Promise<StagedTurn> {
    const name = agent.resume.name;
    const agentDir = inOrg(this.orgPath, agentPaths(agent.folder).root);
    const memory = await this.memoryListings.list(agentDir, 20);
    // A rehearsal seeds no balance: an agent the ledger does not know yet has what it would be given.
    const balance =
      this.ledger.balance(name) ??
      (rehearsal
        ? toMicros(Math.max(0, (credits[name] ?? defaultCreditEntry(agent.resume)).credits_left))
        : null);
    const composed = await this.composedEntries(agent, policy, restApis);
    const { skills } = await this.skills.get(
      agent.folder,
      folderSignature(inOrg(this.orgPath, agentPaths(agent.folder).skills), (name) => [
        { path: name, follow: false },
        { path: join(name, SKILL_FILE), follow: false },
      ]),
      () => loadSkills(this.orgPath, agent.folder),
    );
    const approvals = await this.approvalGate(agent);
    const turnId = rehearsal ? `rehearsal:${randomUUID()}` : (resumed?.turn ?? `${tick}:${name}`);
    return runAgentTurn({
      orgPath: this.orgPath,
      agent,
      tick,
      runId,
      turnId,
      model: this.turnModel(agent.resume.model.key, models),
      inbox:
        resumed?.resumed.state.inbox ?? this.messages.inbox(name, readableSenders(agent.resume), horizon),
      memory: { entries: memory.entries, truncated: memory.truncated },
      skills,
      balanceMicro: balance ?? 0,
      costPerActionMicro: toMicros(credits[name]?.cost_per_action ?? DEFAULT_COST_PER_ACTION),
      budget: this.budgets.gateFor(
        name,
        toMicros(credits[name]?.cost_per_action ?? DEFAULT_COST_PER_ACTION),
        softCapFacts(credits[name], agent.resume, balance),
      ),
      tools: agentToolbox({
        policy,
        credits: balance === null ? null : fromMicros(balance),
        catalog: (context) => this.catalogFor(context, composed),
        redaction: this.secrets,
        ...(approvals ? { approvals } : {}),
        ...(rehearsal ? { rehearsal } : {}),
      }),
      agents: org,
      limits: this.limits,
      clock: this.clock,
      ...(signal ? { signal } : {}),
      ...(this.options.onProgress && !rehearsal ? { onProgress: this.options.onProgress } : {}),
      redaction: this.secrets,
      ...(rehearsal
        ? {}
        : {
            recordNow: (event: KnownTimelineEvent) => this.record(event, tick),
            startedBeforeStop: this.startedBeforeStop(name, tick, turnId, resumed?.parkedSeq ?? 0),
          }),
      ...(serverCalls ? { serverCalls } : {}),
      ...(resumed ? { resumed: resumed.resumed } : {}),
    });
  }

  /**
   * The calls an earlier attempt at this turn started (its tool_intent events, written before each ran):
   * the turn is run again only when that attempt was never committed, so each one's outcome is unknown.
   */
  private startedBeforeStop(agent: string, tick: number, turnId: string, afterSeq: number): StartedCall[] {
    const started: StartedCall[] = [];
    let cursor: number | null = null;
    do {
      const page = this.timeline.page({
        kinds: ['tool_intent'],
        agents: [agent],
        tickFrom: tick,
        tickTo: tick,
        direction: 'asc',
        cursor,
        limit: 1000,
      });
      for (const row of page.rows) {
        const stored = parseJsonText(row.json);
        const intent = stored.ok ? knownEvent(stored.value) : null;
        if (intent?.kind === 'tool_intent' && intent.turn === turnId && row.seq > afterSeq)
          started.push({ callId: intent.call_id ?? '', tool: intent.tool, args: intent.args });
      }
      cursor = page.nextCursor;
    } while (cursor !== null);
    return started;
  }

  /**
   * One transaction for turns that are ready together (in order): each turn's events, messages, charges,
   * cursor, file journal and the record that it ran. Turns that share a commit share its page writes:
   * the ends of the same tables and indexes are written to the WAL once, not once per turn. Returns once
   * they are committed, with the promises of their file writes: each answers the turn's agent when a
   * write failed (the turn is then recorded as failed, with the reason), null when all are on disk.
   */
  private commitTurns(turns: readonly StagedTurn[]): Promise<string | null>[] {
    const commits = this.timeline.transaction(() => turns.map((turn) => this.insertTurnRows(turn)));
    return turns.map((turn, index) => {
      const { seqs, owed } = commits[index]!;
      this.options.onCommit?.({
        tick: turn.tick,
        agent: turn.agent,
        firstSeq: seqs[0]!,
        lastSeq: seqs.at(-1)!,
      });
      return this.pending.perform(owed).then((failures) => {
        if (failures.length === 0) return null;
        this.recordUnwrittenFiles(turn, failures);
        return turn.agent;
      });
    });
  }

  /**
   * A committed turn whose files could not be written: it is marked failed, with each reason on the
   * timeline. Its writes stay owed and are performed on the next start, as after a crash.
   */
  private recordUnwrittenFiles(turn: StagedTurn, failures: readonly FileWriteFailure[]): void {
    const [first, last] = this.timeline.transaction(() => {
      this.markTurnFailed.run(turn.tick, turn.agent);
      const seqs = this.appendEvents(
        failures.map((failure): KnownTimelineEvent => ({
          kind: 'error',
          reason: 'file_write_failed',
          message: failure.message,
          failure: { kind: 'unwritable', folder: failure.folder, detail: failure.reason },
          time: this.clock().toISOString(),
          tick: turn.tick,
          agent: turn.agent,
          turn: turn.turnId,
        })),
      );
      return [seqs[0]!, seqs.at(-1)!];
    });
    this.options.onCommit?.({ tick: turn.tick, agent: turn.agent, firstSeq: first, lastSeq: last });
  }

  /** Inside the transaction of `commitTurns`: the rows of one turn. */
  private insertTurnRows(turn: StagedTurn): { seqs: number[]; owed: ReturnType<PendingFiles['record']> } {
    this.parked.forget(turn.turnId);
    this.insertTurn.run(
      turn.tick,
      turn.agent,
      turn.turnId,
      turn.runId,
      turn.status,
      this.clock().toISOString(),
    );
    for (const { entry, file, json } of turn.outbox) {
      this.messages.add({
        id: entry.id,
        sender: entry.agent,
        tick: entry.tick,
        kind: typeof entry.kind === 'string' ? entry.kind : JSON.stringify(entry.kind),
        file,
        json: this.secrets.redactText(json),
      });
    }
    for (const posting of turn.postings) {
      const posted = this.ledger.post(posting);
      if (!posted.ok)
        turn.events.push({
          kind: 'warning',
          code: 'charge_refused',
          message: posted.error.reason,
          tick: turn.tick,
          agent: turn.agent,
          turn: turn.turnId,
        });
    }
    if (turn.cursorAfter !== null) this.messages.advanceCursor(turn.agent, turn.cursorAfter);
    const owed = this.pending.record(this.redactWrites(turn.files));
    // Outbox files are known by the message store already; only memory and log files need marking.
    const outboxFiles = new Set(turn.outbox.map((entry) => entry.file));
    this.diskImport.markWritten(turn.files.map((file) => file.path).filter((path) => !outboxFiles.has(path)));
    return { seqs: this.appendEvents(turn.events), owed };
  }

  /** Every event goes through the redactor before it reaches the timeline. */
  private appendEvents(events: readonly KnownTimelineEvent[]): number[] {
    // Without secrets there is nothing to redact, and the events are the engine's own: no copy needed.
    return this.timeline.appendMany(
      this.secrets.redactsNothing ? events : events.map((event) => this.secrets.redactValue(event)),
    );
  }

  /** Every file the engine writes (outbox, memory, logs) goes through the redactor too. */
  private redactWrites(writes: readonly FileWrite[]): FileWrite[] {
    return writes.map((write) => ({ ...write, content: this.secrets.redactText(write.content) }));
  }

  /** The parked turns ready to go on (answered, or past their time), each run from where it stopped and committed. */
  private async resumeReadyTurns(at: {
    agents: LoadedAgent[];
    tick: number;
    runId: string;
    models: Map<string, ModelEntry | string>;
    credits: CreditsFile;
    policy: OrgPolicy;
    restApis: RestApi[];
    org: readonly { name: string; title: string }[];
    signal: AbortSignal | undefined;
  }): Promise<{ turns: NonNullable<TickReport['resumed']>; fileWrites: Promise<string | null>[] }> {
    const turns: NonNullable<TickReport['resumed']> = [];
    const fileWrites: Promise<string | null>[] = [];
    for (const ready of this.readyParkedTurns(at.agents, at.tick, at.runId)) {
      const agent = at.agents.find((candidate) => candidate.resume.name === ready.agent)!;
      const server = providerKey(at.models.get(agent.resume.model.key));
      const { policy, restApis } = at;
      const turn = await this.stageTurn(
        agent,
        ready.tick,
        at.runId,
        0,
        at.models,
        at.credits,
        { policy, restApis },
        at.org,
        {
          signal: at.signal,
          serverCalls: {
            sent: () => this.serverLimits.sent(server),
            answered: (answer) => this.serverLimits.answered(server, answer),
          },
          resumed: ready,
        },
      );
      crashPoint('resume:staged');
      if (turn.parked) this.parkTurn({ ...turn, parked: turn.parked });
      else fileWrites.push(...this.commitTurns([turn]));
      // A record that cannot be written keeps an id that no longer matches any request: harmless.
      await this.parked.settled(ready.resumed.answered.request.id).catch(() => undefined);
      turns.push({ agent: turn.agent, tick: ready.tick, status: turn.parked ? 'parked' : turn.status });
    }
    return { turns, fileWrites };
  }

  /** Keeps a turn that parked (it is committed when it goes on); the live tail hears of its record. */
  private parkTurn(turn: StagedTurn & { parked: ParkedTurnState }): void {
    const seq = this.parked.park(turn);
    this.options.onCommit?.({ tick: turn.tick, agent: turn.agent, firstSeq: seq, lastSeq: seq });
  }

  /**
   * The parked turns that go on this tick (answered, or past their time), oldest first; one whose agent
   * is gone or whose saved state cannot be read is given up, recorded as failed with the reason.
   */
  private readyParkedTurns(agents: readonly LoadedAgent[], tick: number, runId: string): ReadyTurn[] {
    const { ready, unreadable } = this.parked.ready();
    const gone = ready.filter((turn) => !agents.some((agent) => agent.resume.name === turn.agent));
    for (const turn of [...unreadable, ...gone.map((turn) => ({ ...turn, problem: 'its agent is gone' }))]) {
      const [seq] = this.timeline.transaction(() => {
        this.parked.forget(turn.turn);
        return this.appendEvents([
          {
            kind: 'error',
            reason: 'parked_turn_given_up',
            message: `${turn.agent}'s turn of tick ${turn.tick}, which waited for you, was given up: ${turn.problem}.`,
            time: this.clock().toISOString(),
            tick,
            run: runId,
            agent: turn.agent,
            turn: turn.turn,
          },
        ]);
      });
      this.options.onCommit?.({ tick, agent: null, firstSeq: seq!, lastSeq: seq! });
    }
    return ready.filter((turn) => !gone.includes(turn));
  }

  /** An agent whose turn is parked does not run: recorded as skipped, waiting for the person (once per tick). */
  private skipWhileParked(
    agent: string,
    waiting: { tick: number; request: { tool: string; title?: string | undefined } | null },
    tick: number,
    runId: string,
  ): TickReport['turns'][number] {
    // A tick run again after a kill finds the turn it parked: that is its record, not a skip.
    if (waiting.tick === tick) return { agent, status: 'parked' };
    const what = waiting.request ? (waiting.request.title ?? waiting.request.tool) : 'a tool';
    this.record(
      {
        kind: 'skip',
        reason: 'waiting_for_person',
        message: `${agent} did not run: its turn of tick ${waiting.tick} waits for you to allow or deny ${what}.`,
        time: this.clock().toISOString(),
        tick,
        run: runId,
        agent,
      },
      tick,
    );
    return { agent, status: 'skipped', reason: 'waiting_for_person' };
  }

  private committedTurns(tick: number): Set<string> {
    return new Set(this.selectCommittedAgents.all(tick) as string[]);
  }

  private record(event: KnownTimelineEvent, tick: number): void {
    const [seq] = this.appendEvents([{ time: this.clock().toISOString(), ...event }]) as [number];
    this.options.onCommit?.({ tick, agent: null, firstSeq: seq, lastSeq: seq });
  }

  /**
   * LeMMing's outbox retention, after every tick: files of every agent folder whose name's tick is more
   * than max_outbox_age_ticks before `tick`. Only the files go: the timeline keeps every message.
   */
  private async outboxFilesToPrune(tick: number): Promise<string[]> {
    const config = await readOrgConfig(this.orgPath);
    if (!config.ok) return [];
    const maxAge = config.value.max_outbox_age_ticks;
    const agentsDir = join(this.orgPath, 'agents');
    const folders = whenExists(() => readdirSync(agentsDir, { withFileTypes: true })) ?? [];
    return folders
      .filter((entry) => entry.isDirectory())
      .flatMap((folder) =>
        (whenExists(() => readdirSync(join(agentsDir, folder.name, 'outbox'))) ?? []).flatMap((name) => {
          const parsed = parseOutboxFileName(name);
          return parsed && tick - parsed.tick > maxAge ? [`agents/${folder.name}/outbox/${name}`] : [];
        }),
      );
  }

  /**
   * Every due turn not taken is recorded (docs/ARCHITECTURE.md, “Due turns”): an agent whose resume
   * cannot be used (its schedule unknown, so at every tick) and a due agent switched off.
   */
  private skipDueTurns(
    invalid: DiscoveredAgent[],
    skipped: readonly { agent: DueCandidate; reason: SkipReason }[],
    tick: number,
    runId: string,
  ): TickReport['turns'] {
    const skips = [
      ...invalid.flatMap((agent) =>
        agent.valid
          ? []
          : [
              {
                agent: invalidAgentLabel(agent),
                reason: 'invalid_resume' as const,
                message: invalidResumeSkip(agent),
              },
            ],
      ),
      ...skipped.map(({ agent, reason }) => ({
        agent: agent.name,
        reason,
        message: `${agent.name} did not run: ${SKIP_REASON_WORDS[reason]}.`,
      })),
    ];
    if (skips.length === 0) return [];
    this.appendEvents(
      skips.map(({ agent, reason, message }) => ({
        kind: 'skip' as const,
        time: this.clock().toISOString(),
        tick,
        run: runId,
        agent,
        reason,
        message,
      })),
    );
    return skips.map(({ agent, reason }) => ({ agent, status: 'skipped' as const, reason }));
  }

  private recordMissedTicks(missed: MissedTicks, runId: string): void {
    this.record(
      {
        kind: 'ticks_missed',
        tick: missed.to,
        run: runId,
        from: missed.from,
        to: missed.to,
        cause: missed.cause,
        message: missed.message,
        catching_up: missed.catchingUp,
      },
      missed.to,
    );
  }

  private async catchUpSetting(): Promise<CatchUp> {
    const settings = await readScheduleSettings(this.orgPath);
    return settings.ok ? settings.value.catch_up : 'next_slot';
  }

  /** One `warning` event per invalid resume (again only when its problems change), located at its first problem. */
  private warnOfInvalidResumes(invalid: DiscoveredAgent[], tick: number): void {
    const events: KnownTimelineEvent[] = [];
    for (const agent of invalid) {
      if (agent.valid || agent.readError) continue;
      const key = JSON.stringify([agent.folder, agent.problems]);
      if (this.warnedResumes.has(key)) continue;
      this.warnedResumes.add(key);
      const [first] = agent.problems;
      events.push({
        kind: 'warning',
        code: 'resume_invalid',
        message: `${invalidAgentLabel(agent)} will not run: ${first?.message ?? 'its resume is not valid'}`,
        file: first?.file ?? agent.resumeFile,
        ...(first?.line !== undefined ? { line: first.line, column: first.column } : {}),
        problems: agent.problems,
        time: this.clock().toISOString(),
        tick,
        agent: agent.name,
      });
    }
    if (events.length > 0) this.appendEvents(events);
  }

  private async loadAgents(): Promise<{ agents: LoadedAgent[]; invalid: DiscoveredAgent[] }> {
    const discovered = await discoverAgents(this.orgPath, this.resumes);
    const agents: LoadedAgent[] = [];
    const invalid: DiscoveredAgent[] = [];
    for (const agent of discovered) {
      if (agent.valid) agents.push({ folder: agent.folder, resume: agent.resume });
      else invalid.push(agent);
    }
    return { agents, invalid };
  }

  /** Model entries by key, or the reason the file cannot be used. */
  private async loadModels(): Promise<Map<string, ModelEntry | string>> {
    const read = await readTextFile(join(this.orgPath, MODELS_FILE));
    if (!read.found) return new Map();
    const parsed = parseModelsFile(read.text);
    this.modelIds = new Map(parsed.entries.map((entry) => [entry.key, entry.model_name]));
    const models = new Map<string, ModelEntry | string>(parsed.entries.map((entry) => [entry.key, entry]));
    for (const problem of parsed.problems) {
      const key = problem.field.split('.')[0];
      const where = `${problem.file}${problem.line !== undefined ? `:${problem.line}:${problem.column}` : ''}`;
      // A file that is not a models object at all (bad JSON): every key is unknown because of it.
      if (!key)
        models.set(
          MODELS_FILE_BROKEN,
          `${where} is not valid (${problem.message}), so no model can be called until it is fixed.`,
        );
      else models.set(key, `${where}: ${problem.field}: ${problem.message}`);
    }
    return models;
  }

  /** Why a turn with this model would fail before calling it (not in models.json, no API key, …); null when it would not. */
  async modelProblem(key: string): Promise<ModelSetupProblem | null> {
    return (await this.modelProblems([key])).get(key) ?? null;
  }

  /** `modelProblem` for several models at once, the secrets and models.json read once for all. */
  async modelProblems(keys: readonly string[]): Promise<Map<string, ModelSetupProblem | null>> {
    await this.secrets.refresh();
    const models = await this.loadModels();
    return new Map(keys.map((key) => [key, this.setupProblemOf(key, models)]));
  }

  private setupProblemOf(key: string, models: Map<string, ModelEntry | string>): ModelSetupProblem | null {
    const entry = models.get(key) ?? models.get(MODELS_FILE_BROKEN);
    if (entry === undefined)
      return {
        message: `its model "${key}" is not in ${MODELS_FILE} (add it in Settings → Models)`,
        plain: `its model ${key} is not in the org’s list of models: add it in Settings, under Models and providers`,
        short: `No model called ${key}`,
      };
    if (typeof entry === 'string')
      return {
        message: entry,
        plain: `the org’s list of models has a mistake at ${key}: see Settings, under Models and providers`,
        short: `A mistake in the models list at ${key}`,
      };
    return modelSetupProblem(entry, this.providerDeps());
  }

  private turnModel(key: string, models: Map<string, ModelEntry | string>): TurnModel {
    const entry = models.get(key) ?? models.get(MODELS_FILE_BROKEN);
    if (entry === undefined)
      return {
        key,
        provider: null,
        problem: `The model "${key}" is not in ${MODELS_FILE}.`,
        modelName: key,
        prices: undefined,
      };
    if (typeof entry === 'string')
      return {
        key,
        provider: null,
        problem: entry,
        problemKind: models.has(key) ? 'model_setup' : 'models_file_broken',
        modelName: key,
        prices: undefined,
      };
    // A provider reads its base URL variable when it is made: a variable granted since makes another.
    const cacheKey = JSON.stringify([entry, Object.keys(this.secrets.variables)]);
    let provider = this.providers.get(cacheKey);
    if (!provider) {
      provider = createProvider(entry, this.providerDeps());
      this.providers.set(cacheKey, provider);
    }
    return {
      key,
      provider,
      problem: null,
      modelName: entry.model_name,
      prices: entry.provider_config.prices,
      ...(entry.input ? { input: entry.input } : {}),
    };
  }

  /** What a model provider may use: the secrets and variables granted to the org, as last refreshed. */
  private providerDeps(): ProviderDeps {
    return {
      orgPath: this.orgPath,
      resolveSecret: this.secrets.lookup,
      env: this.secrets.variables,
      refusal: this.secrets.refusal,
      programEnv: this.options.env ?? process.env,
    };
  }

  /** Agents the ledger has never seen start with credits.json's balance, else their resume's, else 1000. */
  private seedBalances(agents: LoadedAgent[], credits: CreditsFile, tick: number): void {
    const time = this.clock().toISOString();
    this.timeline.transaction(() => {
      for (const { resume } of agents) {
        if (this.ledger.balance(resume.name) !== null) continue;
        const fromFile = credits[resume.name]?.credits_left;
        const initial = fromFile ?? defaultCreditEntry(resume).credits_left;
        const source =
          fromFile !== undefined
            ? 'credits.json'
            : resume.credits
              ? 'resume.json credits.max_credits'
              : 'the default';
        this.ledger.post({
          agent: resume.name,
          kind: 'grant',
          amountMicro: Math.max(0, toMicros(initial)),
          reason: `initial balance from ${source}`,
          tick,
          time,
        });
      }
    });
  }

  private async readPolicyFile(): Promise<OrgPolicy> {
    const read = await readPolicy(this.orgPath);
    if (!read.ok) throw new EngineInputError(read.error);
    return read.value;
  }

  /**
   * The "ask me first" gate for an agent's turn, with the approval settings made for that agent (by its
   * identity) as they are now; null when no one answers.
   */
  private async approvalGate(agent: LoadedAgent): Promise<ApprovalGateOptions | null> {
    const asker = this.options.approvals;
    if (!asker) return null;
    const name = agent.resume.name;
    const id = await agentIdentity(this.orgPath, agent.folder);
    const read = await readApprovalsFor(this.orgPath, [{ name, id }]);
    const trust = this.options.trust;
    const bound = await trust.bindAgentName(this.orgKey, { id, name });
    const problem = !read.ok
      ? `The approval settings cannot be read (${read.error.map(formatProblem).join('; ')}), so every call asks first.`
      : !bound.ok
        ? `Your approval choices cannot be checked (${bound.error}), so every call asks first.`
        : null;
    return {
      settings: read.ok ? read.value : ApprovalSettings.parse({}),
      ...(problem ? { settingsProblem: problem } : {}),
      asker,
      remember: async (asking, tool, mcpTool) => {
        const chosen = mcpTool
          ? await trust.changeMcpServer(this.orgKey, mcpTool.server, (record) =>
              withChoice(record, mcpTool, asking, 'always', this.clock()),
            )
          : await trust.allowAlways(this.orgKey, { id, name: asking }, tool, true);
        if (!chosen.ok) throw new Error(chosen.error);
      },
      personsAlways: () => trust.agentAlways(this.orgKey, { id, name }),
      mcpRecord: (identity) => trust.mcpServer(this.orgKey, identity),
      redact: (value) => this.secrets.redactValue(value),
      clock: this.clock,
    };
  }

  private async readCreditsFile(): Promise<CreditsFile> {
    const read = await readCredits(this.orgPath);
    if (!read.ok) throw new EngineInputError(read.error);
    return read.value;
  }

  /**
   * Changes made to credits.json outside the engine since it last read or wrote the file (a person
   * refilling or zeroing an agent, LeMMing's own spending between our runs, a changed cost_per_action,
   * an agent removed from the file) become ledger entries, each with the old and the new value.
   */
  private takeInCreditsEdits(agents: LoadedAgent[], credits: CreditsFile, tick: number): void {
    const seen = new Map(
      (this.selectCreditsSeen.all() as { agent: string; creditsLeft: number; costPerAction: number }[]).map(
        (row) => [row.agent, row],
      ),
    );
    const time = this.clock().toISOString();
    this.timeline.transaction(() => {
      for (const { resume } of agents) {
        const agent = resume.name;
        const balance = this.ledger.balance(agent);
        if (balance === null) continue;
        const before = seen.get(agent);
        const entry = credits[agent];
        const adjust = (
          field: string,
          from: number | null,
          to: number | null,
          target: number,
          reason: string,
        ) => {
          const amountMicro = Math.max(0, target) - (this.ledger.balance(agent) ?? 0);
          if (amountMicro !== 0 || field === 'cost_per_action')
            this.ledger.post({ agent, kind: 'external_adjustment', amountMicro, reason, tick, time });
          this.appendEvents([
            {
              kind: 'credit',
              entry: 'external_adjustment',
              field,
              old: from,
              new: to,
              amount: fromMicros(amountMicro),
              reason,
              time,
              tick,
              agent,
            },
          ]);
        };
        if (!entry) {
          if (before === undefined) continue;
          const reseeded = defaultCreditEntry(resume);
          adjust(
            'credits_left',
            fromMicros(before.creditsLeft),
            null,
            toMicros(reseeded.credits_left),
            `${agent} was removed from ${CREDITS_FILE}; re-seeded with ${reseeded.credits_left} credits, as LeMMing does`,
          );
          // Until the entry is written back, its absence is known, not a new removal.
          this.deleteCreditsSeen.run(agent);
          continue;
        }
        const fileMicro = toMicros(entry.credits_left);
        const reference = before?.creditsLeft ?? balance;
        const bothEmpty = fileMicro <= 0 && reference <= 0;
        if (fileMicro !== reference && !bothEmpty) {
          // The edit's difference is applied to the balance, so charges the engine made since it last saw the file stay.
          const target = balance + fileMicro - reference;
          const floor = target < 0 ? ` (the ledger cannot go below 0, so 0)` : '';
          adjust(
            'credits_left',
            fromMicros(reference),
            entry.credits_left,
            target,
            `credits_left changed in ${CREDITS_FILE} from ${fromMicros(reference)} to ${entry.credits_left}${floor}`,
          );
        }
        const cost = toMicros(entry.cost_per_action);
        if (before && cost !== before.costPerAction) {
          adjust(
            'cost_per_action',
            fromMicros(before.costPerAction),
            entry.cost_per_action,
            this.ledger.balance(agent) ?? 0,
            `cost_per_action changed in ${CREDITS_FILE} from ${fromMicros(before.costPerAction)} to ${entry.cost_per_action}`,
          );
        }
        if (before?.creditsLeft !== fileMicro || before.costPerAction !== cost)
          this.upsertCreditsSeen.run(agent, fileMicro, cost);
      }
    });
  }

  /**
   * The journaled writes that bring credits.json to the ledger's balances (LeMMing's shape, entries it
   * expects filled in, other bytes kept) and, given `nextTick`, tick.json to it; with the credits.json
   * the writes leave, for rememberCreditsSeen.
   */
  private async configFileWrites(
    agents: LoadedAgent[],
    nextTick: number | null,
  ): Promise<{ writes: FileWrite[]; credits: CreditsFile }> {
    const current = await this.readCreditsFile();
    const patch: Record<string, Partial<CreditEntry>> = {};
    for (const { resume } of agents) {
      const balance = this.ledger.balance(resume.name);
      if (balance === null) continue;
      const entry = current[resume.name];
      const credits_left = fromMicros(balance);
      // LeMMing's own spending can leave a balance below 0; the ledger's 0 says the same, so it is kept.
      if (entry && (entry.credits_left === credits_left || (balance === 0 && entry.credits_left <= 0)))
        continue;
      patch[resume.name] = entry ? { credits_left } : { ...defaultCreditEntry(resume), credits_left };
    }
    const credits = await planConfigEdit(
      this.orgPath,
      CREDITS_SPEC,
      Object.entries(patch).flatMap(([agent, fields]) => patchEdits(fields, [agent])),
    );
    if (!credits.ok) throw new EngineInputError(credits.error);
    const writes: FileWrite[] = credits.changed
      ? [{ path: CREDITS_FILE, mode: 'write', content: credits.text }]
      : [];
    if (nextTick !== null) {
      const tick = await planConfigEdit(this.orgPath, TICK_SPEC, [
        { path: ['current_tick'], value: nextTick },
      ]);
      if (!tick.ok) throw new EngineInputError(tick.error);
      if (tick.changed) writes.push({ path: TICK_FILE, mode: 'write', content: tick.text });
    }
    return { writes, credits: credits.value };
  }

  /** Call in the transaction that journals the write of credits.json `credits`. */
  private rememberCreditsSeen(credits: CreditsFile): void {
    for (const [agent, entry] of Object.entries(credits))
      this.upsertCreditsSeen.run(agent, toMicros(entry.credits_left), toMicros(entry.cost_per_action));
  }
}

/** The key under which loadModels reports a models.json that cannot be read as models at all. */
const MODELS_FILE_BROKEN = '\0models.json';

/**
 * How long a finished turn waits for the turns after it before its commit. Turns that finish close
 * together (fast `cli` programs, scripted models) then share one transaction, whose page writes are a
 * large part of a turn's cost; a turn that waits seconds on a model is committed this much later, which
 * nobody watching the timeline can tell. A turn finished but not yet committed when the engine is killed
 * runs again on the next start, as one still running would.
 */
const TURN_COMMIT_GATHER_MS = 20;

function lockOptions(options: EngineOptions): RunLockOptions {
  return { program: options.program ?? 'lemming' };
}

/** The tick's record of waiting for model servers: how many turns waited at all, in all, and the longest. */
function serverWaitRecord(waits: ReadonlyMap<string, number>): {
  turns: number;
  total_ms: number;
  longest_ms: number;
} {
  const waited = [...waits.values()].map(Math.round).filter((ms) => ms > 0);
  return {
    turns: waited.length,
    total_ms: waited.reduce((sum, ms) => sum + ms, 0),
    longest_ms: Math.max(0, ...waited),
  };
}
