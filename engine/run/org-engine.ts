import { randomUUID } from 'node:crypto';
import type Database from 'better-sqlite3';
import { join } from 'node:path';
import type { TurnProgress } from '../api/model-event-schemas';
import type { AgentProblem } from '../api/schemas';
import { toMicros, fromMicros } from '../credits/credit-amount';
import { CreditLedger, type LedgerPosting } from '../credits/ledger';
import { listMemory } from '../memory/memory-file';
import { MessageStore, type Inbox, type ReadableSenders } from '../messages/message-store';
import { humanMessage, outboxFileName, serializeEntry, type HumanImportance, type OutboxEntry } from '../messages/outbox-entry';
import { createProvider } from '../models/create-provider';
import { parseModelsFile, MODELS_FILE, type ModelEntry } from '../models/models-file';
import type { ModelProvider } from '../models/types';
import { DEFAULT_COST_PER_ACTION, defaultCreditEntry, readCredits, updateCredits, type CreditEntry, type CreditsFile } from '../org/credits-file';
import { discoverAgents, ResumeCache, type DiscoveredAgent } from '../org/discover';
import { readTextFile } from '../org/read-text-file';
import { readNextTick, writeNextTick } from '../org/tick-file';
import type { Resume } from '../org/resume-schema';
import type { TimelineEventInput } from '../timeline/event-schema';
import { openTimeline, type TimelineStore } from '../timeline/timeline-store';
import type { ToolTurnContext, TurnBudget } from '../tools/agent-tools';
import { resolveTools, type ToolVerdict } from '../tools/policy-resolver';
import { toolCatalog } from '../tools/tool-catalog';
import { composedCatalogEntries, composedToolSpecs, loadComposedTools, netHttpPrimitive } from '../tools/composed';
import { detectConfinement } from '../sandbox/shell/detect-confinement';
import type { HttpTransport } from '../tools/http-request-tool';
import type { ToolResult } from '../tools/tool-result';
import { agentToolbox } from '../tools/agent-toolbox';
import type { CatalogEntry, CatalogEnvironment } from '../tools/tool-catalog';
import { readPolicy, type OrgPolicy } from '../org/policy-file';
import { DEFAULT_TURN_LIMITS, runAgentTurn, type StagedTurn, type TurnLimits, type TurnModel } from './agent-turn';
import { startWithConcurrency } from './concurrency';
import { DiskImport } from './disk-import';
import { PendingFiles, type FileWrite } from './pending-files';
import { RunSecrets } from './run-secrets';
import { loadSkills } from '../tools/skills/load-skills';
import type { SkillProblem } from '../tools/skills/skill';
import { skillUsability, type SkillUsability } from '../tools/skills/skill-usability';
import type { SecretStore } from '../secrets/secret-store';
import { memoryChangeRecord, TurnMemory } from './turn-memory';
import { groupByFirePoint } from './schedule';

export interface EngineOptions {
  orgPath: string;
  /** Default: <org>/.lemming/timeline.sqlite. */
  timelineFile?: string;
  nativeBinding?: string;
  /** Agents of one fire point that may run at once. */
  concurrency?: number;
  limits?: Partial<TurnLimits>;
  /** Where API keys and connector secrets come from; none when absent. */
  secrets?: SecretStore;
  env?: Record<string, string | undefined>;
  clock?: () => Date;
  /** The tools an agent could have; the default is the built-in catalog for its resume. */
  catalog?: (context: ToolTurnContext, environment: CatalogEnvironment) => CatalogEntry[];
  /** Only for tests: how agent web requests resolve and classify addresses. */
  httpTransport?: HttpTransport;
  /** Called after each commit with what was committed (the live tail). */
  onCommit?: (commit: EngineCommit) => void;
  /** Called with each piece of a model's answer as it is written; not stored (the timeline keeps the whole answer). */
  onProgress?: (progress: TurnProgress) => void;
}

export interface EngineCommit {
  tick: number;
  agent: string | null;
  firstSeq: number;
  lastSeq: number;
}

export interface TickReport {
  tick: number;
  turns: { agent: string; status: StagedTurn['status'] | 'already_committed' }[];
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
  private readonly pending: PendingFiles;
  private readonly diskImport: DiskImport;
  private readonly insertTurn: Database.Statement;
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
    this.secrets = new RunSecrets(options.secrets);
    this.diskImport = new DiskImport(orgPath, timeline, this.messages, this.clock, this.secrets);
    this.insertTurn = timeline.db.prepare('INSERT INTO turns (tick, agent, turn, run_id, status, committed_at) VALUES (?, ?, ?, ?, ?, ?)');
    this.selectCommittedAgents = timeline.db.prepare('SELECT agent FROM turns WHERE tick = ?').pluck();
    this.limits = { ...DEFAULT_TURN_LIMITS, ...options.limits };
  }

  /** Opens the org's timeline, finishes file writes a crash left owed, and imports what LeMMing left on disk. */
  static async open(options: EngineOptions): Promise<OrgEngine> {
    const file = options.timelineFile ?? join(options.orgPath, '.lemming', 'timeline.sqlite');
    const opened = openTimeline(file, { nativeBinding: options.nativeBinding });
    if (!opened.ok) throw new Error(opened.error.message);
    const engine: OrgEngine = new OrgEngine(options.orgPath, opened.timeline, options, {
      confinement: await detectConfinement(),
      modelIdOf: (key: string): string => engine.modelIds.get(key) ?? key,
      ...(options.httpTransport ? { httpTransport: options.httpTransport } : {}),
    });
    await engine.secrets.refresh();
    await engine.pending.replay();
    await engine.diskImport.importAll();
    return engine;
  }

  close(): void {
    if (this.timeline.db.open) this.pending.settle();
    this.timeline.close();
  }

  /** The tick the next `runTick` runs (tick.json's `current_tick`). */
  async currentTick(): Promise<number> {
    const read = await readNextTick(this.orgPath);
    if (!read.ok) throw new EngineInputError(read.problems);
    return read.nextTick;
  }

  /** Runs one tick: every agent that fires, in LeMMing's order, each turn committed on its own. */
  async runTick(signal?: AbortSignal): Promise<TickReport> {
    const tick = await this.currentTick();
    const runId = this.runId;
    await this.secrets.refresh();
    const { agents, invalid } = await this.loadAgents();
    await this.diskImport.importOutboxes();
    const credits = await this.readCreditsFile();
    this.seedBalances(agents, credits, tick);
    const models = await this.loadModels();
    const policy = await this.readPolicyFile();

    this.record({ kind: 'tick_started', tick, run: runId, agents: agents.length, invalid_agents: invalid.map((agent) => ({ folder: agent.folder, problems: agent.valid ? [] : agent.problems })) }, tick);
    const report: TickReport = { tick, turns: [] };
    const committed = this.committedTurns(tick);
    // Each committed turn's files are written while the next turns commit; all are on disk before the tick ends.
    const fileWrites: Promise<void>[] = [];
    for (const group of groupByFirePoint(tick, agents.map((agent) => ({ ...agent, name: agent.resume.name, schedule: agent.resume.schedule })))) {
      const pendingAgents = group.agents.filter((agent) => {
        if (!committed.has(agent.name)) return true;
        report.turns.push({ agent: agent.name, status: 'already_committed' });
        return false;
      });
      const horizon = this.messages.latestSeq();
      // Turns run concurrently but commit in LeMMing's order, each as soon as it and those before it are done.
      const staged = startWithConcurrency(pendingAgents, this.options.concurrency ?? 4, (agent) =>
        this.stageTurn(agent, tick, runId, horizon, models, credits, policy, agents, signal),
      );
      for (const pendingTurn of staged) {
        const turn = await pendingTurn;
        fileWrites.push(this.commitTurn(turn));
        report.turns.push({ agent: turn.agent, status: turn.status });
      }
    }
    await Promise.all(fileWrites);

    await this.writeCreditsFile(agents, credits);
    // Unflushed, like credits.json: a power cut that loses it runs the tick again, and the turns table
    // skips every turn that committed (see writeFileAtomicUnflushed).
    const advanced = await writeNextTick(this.orgPath, tick + 1, { flush: false });
    if (!advanced.ok) throw new EngineInputError(advanced.problems);
    // One commit closes the tick: its last event, the journal of the files now written, and the search
    // index brought up to the tick's events (in one batch rather than inside every turn's commit).
    const seq = this.timeline.transaction(() => {
      this.pending.settle();
      const [completed] = this.appendEvents([{ time: this.clock().toISOString(), kind: 'tick_completed', tick, run: runId, turns: report.turns }]) as [number];
      this.timeline.catchUpSearch();
      return completed;
    });
    this.options.onCommit?.({ tick, agent: null, firstSeq: seq, lastSeq: seq });
    return report;
  }

  /** What `resume`'s agent would be shown if it ran now. Changes nothing but taking in new outbox files. */
  async previewInbox(resume: Resume): Promise<Inbox> {
    await this.diskImport.importOutboxes();
    return this.messages.inbox(resume.name, readableSenders(resume), this.messages.latestSeq());
  }

  /** Writes a message from the human into agents/human/outbox, as LeMMing's `send` does. */
  async sendHumanMessage(text: string, options: { importance?: HumanImportance; target?: string | null } = {}): Promise<OutboxEntry> {
    const tick = await this.currentTick();
    const entry = humanMessage(text, { tick, importance: options.importance ?? 'normal', target: options.target ?? null }, this.clock());
    const file = `agents/human/outbox/${outboxFileName(entry)}`;
    await this.secrets.refresh();
    const json = this.secrets.redactText(serializeEntry(entry));
    const { seqs, owed } = this.timeline.transaction(() => {
      this.messages.add({ id: entry.id, sender: 'human', tick, kind: entry.kind as string, file, json });
      const owed = this.pending.record([{ path: file, mode: 'write', content: json }]);
      this.diskImport.markWritten([file]);
      return { seqs: this.appendEvents([{ kind: 'message', time: this.clock().toISOString(), tick, agent: 'human', file, entry }]), owed };
    });
    await this.pending.perform(owed);
    this.pending.settle();
    this.options.onCommit?.({ tick, agent: 'human', firstSeq: seqs[0]!, lastSeq: seqs.at(-1)! });
    return entry;
  }

  /** Adds credits to an agent's balance (an entry in the ledger, reflected in credits.json). */
  async topUp(agent: string, amount: number, reason = 'top-up'): Promise<number> {
    if (!(amount > 0)) throw new Error('A top-up must be a positive number of credits.');
    const tick = await this.currentTick();
    const { org: agents } = await this.findAgent(agent);
    const credits = await this.readCreditsFile();
    this.seedBalances(agents, credits, tick);
    const balance = this.timeline.transaction(() => {
      const posted = this.ledger.post({ agent, kind: 'top_up', amountMicro: toMicros(amount), reason, tick, time: this.clock().toISOString() });
      this.appendEvents([{ kind: 'credit', entry: 'top_up', amount, reason, time: this.clock().toISOString(), tick, agent }]);
      return posted.balanceMicro;
    });
    await this.writeCreditsFile(agents, credits);
    return fromMicros(balance);
  }

  /** The policy resolver's verdict on every tool the agent could have: what the app and `lemming tools` show. */
  async explainTools(agentName: string): Promise<ToolVerdict[]> {
    const agent = await this.findAgent(agentName);
    await this.secrets.refresh();
    await this.loadModels();
    const policy = await this.readPolicyFile();
    const balance = this.ledger.balance(agent.resume.name);
    const context = this.toolTurnContext(agent, await this.currentTick(), new TurnMemory(this.agentDir(agent)), { availableMicro: () => balance ?? 0, charge: () => undefined });
    const catalog = this.catalogFor(context, await this.composedEntries(agent, policy));
    return resolveTools({ resume: agent.resume, policy, catalog, credits: balance === null ? null : fromMicros(balance) });
  }

  /** The agent's skills, whether each can be used (its tool passes the policy) and the problems of those that did not load. */
  async explainSkills(agentName: string): Promise<{ skills: { name: string; description: string; usability: SkillUsability }[]; problems: SkillProblem[] }> {
    const agent = await this.findAgent(agentName);
    const verdicts = await this.explainTools(agentName);
    const loaded = await loadSkills(this.orgPath, agent.folder);
    return {
      skills: loaded.skills.map((skill) => ({ name: skill.name, description: skill.description, usability: skillUsability(skill, verdicts) })),
      problems: loaded.problems,
    };
  }

  /**
   * Runs one tool as `agentName` outside a turn, with the same enforcement as in a turn (policy, sandbox,
   * costs), and records the call, its result, its charges and its memory changes in the timeline.
   */
  async callTool(agentName: string, tool: string, args: unknown): Promise<ToolResult> {
    const agent = await this.findAgent(agentName);
    const tick = await this.currentTick();
    await this.secrets.refresh();
    await this.loadModels();
    const credits = await this.readCreditsFile();
    this.seedBalances([agent], credits, tick);
    const policy = await this.readPolicyFile();
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
    const toolbox = agentToolbox({ policy, credits: fromMicros(balance), catalog: (context) => this.catalogFor(context, composed), redact: (result) => this.secrets.redactValue(result) })(
      this.toolTurnContext(agent, tick, memory, budget),
    );
    const started = Date.now();
    const result = await toolbox.call(tool, args);
    const base = { agent: name, tick, source: 'cli' };
    const events: TimelineEventInput[] = [
      { kind: 'tool_call', ...base, time: time(), tool, args },
      { kind: 'tool_result', ...base, time: time(), tool, result, duration_ms: Date.now() - started },
    ];
    const writes: FileWrite[] = [];
    for (const change of memory.changes()) {
      const { event, write } = memoryChangeRecord(change, { folder: agent.folder, agent: name, tick, now: this.clock() });
      events.push({ ...base, time: time(), ...event });
      writes.push(write);
    }
    const owed = this.timeline.transaction(() => {
      for (const posting of postings) {
        this.ledger.post(posting);
        events.push({ kind: 'credit', ...base, time: time(), entry: 'tool', amount: -fromMicros(-posting.amountMicro), reason: posting.reason });
      }
      const owedWrites = this.pending.record(this.redactWrites(writes));
      this.diskImport.markWritten(writes.map((write) => write.path));
      this.appendEvents(events);
      return owedWrites;
    });
    await this.pending.perform(owed);
    this.pending.settle();
    return result;
  }

  /** The tools an agent could have in this org, on this machine. */
  private catalogFor(context: ToolTurnContext, composed: readonly CatalogEntry[]): CatalogEntry[] {
    return [...(this.options.catalog ? this.options.catalog(context, this.environment) : toolCatalog(context.resume, this.environment)), ...composed];
  }

  /**
   * The org's and the agent's composed YAML tools, ready to run through the SSRF-safe primitive with
   * the org's network settings; a file that does not load is left out (its problems are the connectors' to show).
   */
  private async composedEntries(agent: LoadedAgent, policy: OrgPolicy): Promise<CatalogEntry[]> {
    const load = await loadComposedTools(this.orgPath, agent.folder);
    if (load.tools.length === 0) return [];
    const builtIns = toolCatalog(agent.resume, this.environment);
    const transport = this.environment.httpTransport;
    const toolset = composedToolSpecs(load.tools, {
      lookup: this.secrets.lookup,
      http: netHttpPrimitive({
        allowPrivateHosts: policy.network.private_hosts,
        ...(transport?.lookup ? { lookup: transport.lookup } : {}),
        ...(transport?.classifyAddress ? { classifyAddress: transport.classifyAddress } : {}),
      }),
      lookupTool: (name) => builtIns.find((entry) => entry.spec.name === name)?.spec,
    });
    return composedCatalogEntries(toolset);
  }

  private async findAgent(agentName: string): Promise<LoadedAgent & { org: LoadedAgent[] }> {
    const { agents } = await this.loadAgents();
    const agent = agents.find((candidate) => candidate.resume.name === agentName);
    if (!agent) throw new UnknownAgentError(`There is no agent named "${agentName}" with a valid resume in ${this.orgPath}.`);
    return { ...agent, org: agents };
  }

  private agentDir(agent: LoadedAgent): string {
    return join(this.orgPath, 'agents', agent.folder);
  }

  private toolTurnContext(agent: LoadedAgent & { org: LoadedAgent[] }, tick: number, memory: TurnMemory, budget: TurnBudget): ToolTurnContext {
    const agents = agent.org.map(({ resume }) => ({ name: resume.name, title: resume.title }));
    return { orgPath: this.orgPath, agentDir: this.agentDir(agent), resume: agent.resume, tick, memory, agents, budget };
  }

  private async stageTurn(
    agent: LoadedAgent,
    tick: number,
    runId: string,
    horizon: number,
    models: Map<string, ModelEntry | string>,
    credits: CreditsFile,
    policy: OrgPolicy,
    agents: LoadedAgent[],
    signal: AbortSignal | undefined,
  ): Promise<StagedTurn> {
    const name = agent.resume.name;
    const agentDir = join(this.orgPath, 'agents', agent.folder);
    const memory = await listMemory(agentDir, 20);
    const balance = this.ledger.balance(name);
    const composed = await this.composedEntries(agent, policy);
    const { skills } = await loadSkills(this.orgPath, agent.folder);
    return runAgentTurn({
      orgPath: this.orgPath,
      agent,
      tick,
      runId,
      turnId: `${tick}:${name}`,
      model: this.turnModel(agent.resume.model.key, models),
      inbox: this.messages.inbox(name, readableSenders(agent.resume), horizon),
      memory: { entries: memory.entries, truncated: memory.truncated },
      skills,
      balanceMicro: balance ?? 0,
      costPerActionMicro: toMicros(credits[name]?.cost_per_action ?? DEFAULT_COST_PER_ACTION),
      tools: agentToolbox({
        policy,
        credits: balance === null ? null : fromMicros(balance),
        catalog: (context) => this.catalogFor(context, composed),
        redact: (result) => this.secrets.redactValue(result),
      }),
      agents: agents.map(({ resume }) => ({ name: resume.name, title: resume.title })),
      limits: this.limits,
      clock: this.clock,
      ...(signal ? { signal } : {}),
      ...(this.options.onProgress ? { onProgress: this.options.onProgress } : {}),
    });
  }

  /**
   * One transaction per turn: its events, messages, charges, cursor, file journal and the record that it
   * ran. Returns once it is committed with the promise of its file writes.
   */
  private commitTurn(turn: StagedTurn): Promise<void> {
    const { seqs, owed } = this.timeline.transaction(() => {
      this.insertTurn.run(turn.tick, turn.agent, turn.turnId, turn.runId, turn.status, this.clock().toISOString());
      for (const { entry, file, json } of turn.outbox) {
        this.messages.add({ id: entry.id, sender: entry.agent, tick: entry.tick, kind: typeof entry.kind === 'string' ? entry.kind : JSON.stringify(entry.kind), file, json: this.secrets.redactText(json) });
      }
      for (const posting of turn.postings) {
        const posted = this.ledger.post(posting);
        if (!posted.ok) turn.events.push({ kind: 'warning', code: 'charge_refused', message: posted.reason, tick: turn.tick, agent: turn.agent, turn: turn.turnId });
      }
      if (turn.cursorAfter !== null) this.messages.advanceCursor(turn.agent, turn.cursorAfter);
      const owed = this.pending.record(this.redactWrites(turn.files));
      // Outbox files are known by the message store already; only memory and log files need marking.
      const outboxFiles = new Set(turn.outbox.map((entry) => entry.file));
      this.diskImport.markWritten(turn.files.map((file) => file.path).filter((path) => !outboxFiles.has(path)));
      return { seqs: this.appendEvents(turn.events), owed };
    });
    this.options.onCommit?.({ tick: turn.tick, agent: turn.agent, firstSeq: seqs[0]!, lastSeq: seqs.at(-1)! });
    return this.pending.perform(owed);
  }

  /** Every event goes through the redactor before it reaches the timeline. */
  private appendEvents(events: readonly TimelineEventInput[]): number[] {
    return this.timeline.appendMany(events.map((event) => this.secrets.redactValue(event)));
  }

  /** Every file the engine writes (outbox, memory, logs) goes through the redactor too. */
  private redactWrites(writes: readonly FileWrite[]): FileWrite[] {
    return writes.map((write) => ({ ...write, content: this.secrets.redactText(write.content) }));
  }

  private committedTurns(tick: number): Set<string> {
    return new Set(this.selectCommittedAgents.all(tick) as string[]);
  }

  private record(event: TimelineEventInput, tick: number): void {
    const [seq] = this.appendEvents([{ time: this.clock().toISOString(), ...event }]) as [number];
    this.options.onCommit?.({ tick, agent: null, firstSeq: seq, lastSeq: seq });
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
      if (key) models.set(key, `${problem.file}: ${problem.field}: ${problem.message}`);
    }
    return models;
  }

  private turnModel(key: string, models: Map<string, ModelEntry | string>): TurnModel {
    const entry = models.get(key);
    if (entry === undefined) return { key, provider: null, problem: `The model "${key}" is not in ${MODELS_FILE}.`, modelName: key, prices: undefined };
    if (typeof entry === 'string') return { key, provider: null, problem: entry, modelName: key, prices: undefined };
    const cacheKey = JSON.stringify(entry);
    let provider = this.providers.get(cacheKey);
    if (!provider) {
      provider = createProvider(entry, {
        orgPath: this.orgPath,
        resolveSecret: this.secrets.lookup,
        env: this.options.env ?? process.env,
      });
      this.providers.set(cacheKey, provider);
    }
    return { key, provider, problem: null, modelName: entry.model_name, prices: entry.provider_config.prices };
  }

  /** Agents the ledger has never seen start with credits.json's balance, else their resume's, else 1000. */
  private seedBalances(agents: LoadedAgent[], credits: CreditsFile, tick: number): void {
    const time = this.clock().toISOString();
    this.timeline.transaction(() => {
      for (const { resume } of agents) {
        if (this.ledger.balance(resume.name) !== null) continue;
        const fromFile = credits[resume.name]?.credits_left;
        const initial = fromFile ?? defaultCreditEntry(resume).credits_left;
        const source = fromFile !== undefined ? 'credits.json' : resume.credits ? 'resume.json credits.max_credits' : 'the default';
        this.ledger.post({ agent: resume.name, kind: 'grant', amountMicro: Math.max(0, toMicros(initial)), reason: `initial balance from ${source}`, tick, time });
      }
    });
  }

  private async readPolicyFile(): Promise<OrgPolicy> {
    const read = await readPolicy(this.orgPath);
    if (!read.ok) throw new EngineInputError(read.problems);
    return read.value;
  }

  private async readCreditsFile(): Promise<CreditsFile> {
    const read = await readCredits(this.orgPath);
    if (!read.ok) throw new EngineInputError(read.problems);
    return read.value;
  }

  /** credits.json in LeMMing's shape: each balance from the ledger, entries LeMMing expects filled in, other bytes kept. */
  private async writeCreditsFile(agents: LoadedAgent[], credits: CreditsFile): Promise<void> {
    const patch: Record<string, Partial<CreditEntry>> = {};
    for (const { resume } of agents) {
      const balance = this.ledger.balance(resume.name);
      if (balance === null) continue;
      const credits_left = fromMicros(balance);
      if (credits[resume.name]?.credits_left === credits_left) continue;
      patch[resume.name] = credits[resume.name] ? { credits_left } : { ...defaultCreditEntry(resume), credits_left };
    }
    if (Object.keys(patch).length === 0) return;
    const written = await updateCredits(this.orgPath, patch, { flush: false });
    if (!written.ok) throw new EngineInputError(written.problems);
  }
}

export class UnknownAgentError extends Error {
  override name = 'UnknownAgentError';
}

/** A config file the engine needs is invalid; its problems say where. */
export class EngineInputError extends Error {
  constructor(readonly problems: AgentProblem[]) {
    super(problems.map((problem) => `${problem.file}${problem.line !== undefined ? `:${problem.line}:${problem.column}` : ''}${problem.field ? ` (${problem.field})` : ''}: ${problem.message}`).join('\n'));
    this.name = 'EngineInputError';
  }
}

function readableSenders(resume: Resume): ReadableSenders {
  const sources = resume.permissions.read_outboxes;
  if (sources.includes('*')) return { all: true, except: resume.name };
  return { all: false, senders: sources.filter((source) => source !== resume.name) };
}
