import { z } from 'zod';
import {
  DesktopSettings,
  ForgetRecentOrgInput,
  PinRecentOrgInput,
  RecentOrg,
  UpdateDesktopSettingsInput,
} from './desktop-schemas';
import {
  AgentDetail,
  AgentUpdateInput,
  FileAccessPreview,
  FileAccessPreviewInput,
  SchedulePreview,
  SchedulePreviewInput,
} from './agent-schemas';
import {
  CreditBalance,
  CreditHistory,
  CreditHistoryInput,
  SendMessageInput,
  SentMessage,
  TopUpInput,
} from './credit-schemas';
import {
  AgentRef,
  CreateAgentInput,
  OrgGraph,
  OrgStatus,
  RemovedAgent,
  SavePositionsInput,
} from './org-schemas';
import { AgentMemory, MemoryEditInput } from './memory-schemas';
import { Department, DepartmentList, DepartmentSpend, SaveDepartmentInput } from './department-schemas';
import {
  ApplyOrgUpdateInput,
  OrgUpdateApplied,
  OrgUpdatePlan,
  OrgUpdatePlanInput,
} from './org-update-schemas';
import { ResumeBudgetInput } from './budget-schemas';
import { RehearsalDetail, RehearsalRef, RehearsalSummary, RehearseInput } from './rehearsal-schemas';
import { CancelJobInput, CancelJobResult } from './job-schemas';
import { CreateFromTemplateInput, TemplateGallery } from './template-schemas';
import {
  AddModelInput,
  LocalServers,
  ModelProbe,
  ModelProbeInput,
  ModelServerInput,
  ServerModels,
  SetModelKeyInput,
} from './model-setup-schemas';
import {
  AnswerApprovalInput,
  ApprovalSettingsView,
  PendingApprovals,
  SetApprovalModeInput,
  SetApprovalTimeoutInput,
} from './approval-schemas';
import { RunReadiness, RunState, TickReport } from './run-schemas';
import { AgentListEntry } from './agent-state-schemas';
import { AgentListItem, AppInfo, OrgSummary } from './schemas';
import {
  ConnectionTest,
  ConnectionTestInput,
  ModelList,
  ModelUpdateInput,
  OpenDemoInput,
  SecretChanged,
  SecretList,
  SecretNameInput,
  SetSecretInput,
  Settings,
  SettingsUpdateInput,
} from './settings-schemas';
import {
  TimelineEvent,
  TimelineExportResult,
  TimelineFacets,
  TimelineImportResult,
  TimelineFilter,
  TimelinePage,
  TimelineQuery,
} from './timeline-schemas';
import {
  AppliedFix,
  ApplyFixInput,
  Connector,
  ConnectorConfigInput,
  RestApiInput,
  RestApiRef,
  RestApiRemoved,
  McpImportInput,
  TrustMcpHintsInput,
  AllowMcpSamplingInput,
  McpSignInInput,
  McpImportResult,
  McpPasteInput,
  McpPasteResult,
  McpServerInput,
  McpServerRef,
  McpServerRemoved,
  ConnectorList,
  SetEnabledInput,
  SetEnabledResult,
  ToolsCatalog,
  ToolsExplanation,
} from './tool-schemas';
import { AcceptTrustInput, GrantInput, OrgTrust } from './trust-schemas';
import {
  BundleExportInput,
  BundleExportResult,
  BundleImportResult,
  BundleOrigin,
  BundlePreview,
} from './bundle-schemas';
import { AgentInbox, InboxInput, OrgStatusReport } from './status-schemas';
import { SetUpdatesEnabledInput, UpdateStatus } from './update-schemas';
import {
  AgentTurns,
  HumanInboxPage,
  HumanInboxQuery,
  MarkReadInput,
  ReplyInput,
  TickTurns,
  TurnDetail,
  TurnRef,
} from './inspector-schemas';

const NoInput = z.object({}).strict();

function channel<I extends z.ZodType, O extends z.ZodType>(definition: {
  summary: string;
  input: I;
  output: O;
}) {
  return definition;
}

/**
 * The one definition of every renderer → main call. Main validates inputs against it, preload and the
 * test harness build `window.lemming` from it, and the renderer's types derive from it. No output
 * ever carries a secret's value (docs/ARCHITECTURE.md, “Secrets”); main also passes every answer through the redactor.
 */
export const contract = {
  'app.info': channel({
    summary: 'Versions of the app and the runtimes it is built on.',
    input: NoInput,
    output: AppInfo,
  }),

  'org.pickFolder': channel({
    summary:
      'Ask the user for an org folder with the system dialog (an empty one, which they may make there, for a new org); null when they cancel.',
    input: z.object({ forNewOrg: z.boolean().optional() }).strict(),
    output: z.object({ path: z.string().nullable() }),
  }),
  'org.open': channel({
    summary: 'Open the org folder at `path` and make it the current org (its engine and timeline too).',
    input: z.object({ path: z.string().min(1, 'Enter the path of an org folder.') }).strict(),
    output: OrgSummary,
  }),
  'org.create': channel({
    summary:
      'Make the existing folder at `path` an empty org (an agents folder and default settings), then open it.',
    input: z.object({ path: z.string().min(1, 'Enter the path of a folder.') }).strict(),
    output: OrgSummary,
  }),
  'org.agents': channel({
    summary: "The current org's agents, valid or not, with the reasons a resume is invalid.",
    input: NoInput,
    output: z.array(AgentListEntry),
  }),
  'org.summary': channel({
    summary: 'The current org: counts, the next tick, the newest timeline seq and the run state.',
    input: NoInput,
    output: OrgStatus,
  }),
  'org.status': channel({
    summary:
      "The next tick, who runs the org, and each agent's schedule, balance and last turn (`lemming status`).",
    input: NoInput,
    output: OrgStatusReport,
  }),
  'org.close': channel({
    summary: 'Stop any run and close the current org.',
    input: NoInput,
    output: z.object({ closed: z.boolean() }),
  }),
  'org.graph': channel({
    summary: 'Agents as nodes (state, balance, saved position) and read/send permissions as edges.',
    input: NoInput,
    output: OrgGraph,
  }),
  'org.savePositions': channel({
    summary: 'Remember where the user put graph nodes (merged with the positions already saved).',
    input: SavePositionsInput,
    output: z.object({ saved: z.int() }),
  }),
  'org.createAgent': channel({
    summary: 'Create an agent folder with a resume LeMMing reads too, and an empty workspace.',
    input: CreateAgentInput,
    output: AgentListItem,
  }),
  'org.removeAgent': channel({
    summary:
      "Move an agent folder out of agents/ into the org's removed-agents folder (undo with org.restoreAgent).",
    input: AgentRef,
    output: RemovedAgent,
  }),
  'org.restoreAgent': channel({
    summary: 'Put a removed agent back where it was.',
    input: z.object({ removedId: z.string().min(1).max(512) }).strict(),
    output: AgentListItem,
  }),

  'agent.get': channel({
    summary: "One agent's resume for the form (plus the raw text and the fields the form keeps untouched).",
    input: AgentRef,
    output: AgentDetail,
  }),
  'agent.update': channel({
    summary: "Apply a typed patch to an agent's resume; unknown fields and untouched bytes stay as they are.",
    input: AgentUpdateInput,
    output: AgentDetail,
  }),
  'agent.schedulePreview': channel({
    summary: 'The ticks a schedule fires on, from a tick onward.',
    input: SchedulePreviewInput,
    output: SchedulePreview,
  }),
  'agent.fileAccessPreview': channel({
    summary:
      'Where each file_access entry leads for this agent, as the sandbox will judge it, or why it is refused.',
    input: FileAccessPreviewInput,
    output: FileAccessPreview,
  }),
  'memory.get': channel({
    summary: "An agent's memory: every key and value, files that cannot be read, and the newest changes.",
    input: AgentRef,
    output: AgentMemory,
  }),
  'memory.edit': channel({
    summary:
      "The person sets or removes one key of an agent's memory, in LeMMing's file format, recorded in the timeline as theirs.",
    input: MemoryEditInput,
    output: AgentMemory,
  }),

  'tools.catalog': channel({
    summary: 'Every tool agents can be given, with descriptions and required permissions, and who has which.',
    input: NoInput,
    output: ToolsCatalog,
  }),
  'tools.explain': channel({
    summary: "The policy resolver's verdict on each tool for an agent: layer by layer, with the fix.",
    input: AgentRef,
    output: ToolsExplanation,
  }),
  'tools.applyFix': channel({
    summary:
      "Apply the resolver's fix for one tool to the org's files; changes only the user can make are returned.",
    input: ApplyFixInput,
    output: AppliedFix,
  }),
  'tools.setEnabled': channel({
    summary: "Grant or withdraw one tool in an agent's permissions.tools.",
    input: SetEnabledInput,
    output: SetEnabledResult,
  }),

  'approvals.pending': channel({
    summary: 'Tool calls waiting for the person\'s approval ("ask me first"), arguments redacted.',
    input: NoInput,
    output: PendingApprovals,
  }),
  'approvals.answer': channel({
    summary: 'Approve a waiting call once, always for its agent, or deny it with a reason the model is told.',
    input: AnswerApprovalInput,
    output: PendingApprovals,
  }),
  'approvals.settings': channel({
    summary: "Each agent's granted tools with the approval setting that applies and where it comes from.",
    input: NoInput,
    output: ApprovalSettingsView,
  }),
  'approvals.setMode': channel({
    summary: "Set one agent's approval setting for one tool (never, ask, always), or go back to the default.",
    input: SetApprovalModeInput,
    output: ApprovalSettingsView,
  }),

  'approvals.setTimeout': channel({
    summary: 'How many seconds a request waits for an answer before it is denied.',
    input: SetApprovalTimeoutInput,
    output: ApprovalSettingsView,
  }),

  'connectors.list': channel({
    summary:
      'Connectors (composed tools) with their fields and whether each is set, and tool files that did not load.',
    input: NoInput,
    output: ConnectorList,
  }),
  'connectors.setConfig': channel({
    summary: "Set or clear a connector's fields; values go to the secret store and are never returned.",
    input: ConnectorConfigInput,
    output: Connector,
  }),
  'connectors.saveRestApi': channel({
    summary:
      'Add or change a REST API connector (address, how its key is sent, methods); the key goes to the secret store and is never returned.',
    input: RestApiInput,
    output: Connector,
  }),
  'connectors.removeRestApi': channel({
    summary: 'Remove a REST API connector and its key.',
    input: RestApiRef,
    output: RestApiRemoved,
  }),
  'connectors.importMcp': channel({
    summary:
      "Add the MCP servers Claude Desktop or Cursor uses to this org's mcp.json; their env and header values go to the secret store.",
    input: McpImportInput,
    output: McpImportResult,
  }),
  'connectors.saveMcpServer': channel({
    summary:
      "Add an MCP server to this org's mcp.json (a program and its arguments, or an address), or change one; its environment values and headers go to the secret store and are never returned.",
    input: McpServerInput,
    output: Connector,
  }),
  'connectors.pasteMcpServers': channel({
    summary:
      "Add the MCP servers of pasted settings (Claude Desktop's, Cursor's, VS Code's or LM Studio's spelling) to this org's mcp.json; their values go to the secret store.",
    input: McpPasteInput,
    output: McpPasteResult,
  }),
  'connectors.removeMcpServer': channel({
    summary: "Remove an MCP server from this org's mcp.json, and the secrets stored for it alone.",
    input: McpServerRef,
    output: McpServerRemoved,
  }),

  'connectors.signIn': channel({
    summary:
      "Sign in to one MCP server over HTTP: its sign-in page opens in the person's browser, the answer comes back to the app, the server starts with the new sign-in.",
    input: McpSignInInput,
    output: Connector,
  }),

  'connectors.trustMcpHints': channel({
    summary:
      "Trust (or stop trusting) what one MCP server says about which of its tools only read; kept in the person's own record, outside the org.",
    input: TrustMcpHintsInput,
    output: Connector,
  }),

  'connectors.allowMcpSampling': channel({
    summary:
      "Let (or stop letting) one MCP server ask the models of the agents using it, each question paid by the agent whose call it serves; kept in the person's own record, outside the org. The server is started again so it is told.",
    input: AllowMcpSamplingInput,
    output: Connector,
  }),

  'trust.state': channel({
    summary:
      'Whether the open org may run: what it would start, contact and name, what changed since it was trusted, and its grants.',
    input: NoInput,
    output: OrgTrust,
  }),
  'trust.accept': channel({
    summary:
      'Trust the open org as shown (refused when its fingerprint moved since) and grant the secrets and variables ticked.',
    input: AcceptTrustInput,
    output: OrgTrust,
  }),
  'trust.revoke': channel({
    summary: 'Stop trusting the open org: nothing of it runs until it is trusted again; its grants are kept.',
    input: NoInput,
    output: OrgTrust,
  }),
  'trust.grant': channel({
    summary: 'Grant or take back one stored secret or environment variable for the open org.',
    input: GrantInput,
    output: OrgTrust,
  }),

  'secrets.list': channel({
    summary: 'Secret names with whether each is set and who needs it; never a value.',
    input: NoInput,
    output: SecretList,
  }),
  'secrets.set': channel({
    summary: 'Set or replace a secret.',
    input: SetSecretInput,
    output: SecretChanged,
  }),
  'secrets.delete': channel({
    summary: 'Delete a secret.',
    input: SecretNameInput,
    output: SecretChanged,
  }),

  'timeline.page': channel({
    summary: 'One keyset page of timeline rows (summaries) matching the filters.',
    input: TimelineQuery,
    output: TimelinePage,
  }),
  'timeline.get': channel({
    summary: 'One event in full, its JSON exactly as stored.',
    input: z.object({ seq: z.int().positive() }).strict(),
    output: TimelineEvent,
  }),
  'timeline.attachment': channel({
    summary: "An image's or sound's bytes a tool gave (base64), by the sha256 its tool_result event names.",
    input: z
      .object({ sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 is 64 lowercase hex digits') })
      .strict(),
    output: z.object({ sha256: z.string(), base64: z.string() }),
  }),
  'timeline.facets': channel({
    summary: 'The kinds and agents the timeline holds and its tick range, for the filter controls.',
    input: NoInput,
    output: TimelineFacets,
  }),
  'timeline.export': channel({
    summary:
      'Write the events matching the filters to a JSON Lines file the user picks, telling its progress (`job.progress`); cancelled, it leaves no file.',
    input: z.object({ filter: TimelineFilter.optional() }).strict(),
    output: TimelineExportResult,
  }),

  'bundle.preview': channel({
    summary:
      'What exporting the open org (or one department) with these choices would put in the bundle and leave out, with the secrets it names; nothing is written.',
    input: BundleExportInput,
    output: BundlePreview,
  }),
  'bundle.export': channel({
    summary:
      'Write the open org (or one department) as a .lemming.zip the user picks, without secrets or run state (docs/BUNDLE-FORMAT.md); `path` null when they cancel.',
    input: BundleExportInput,
    output: BundleExportResult,
  }),
  'bundle.import': channel({
    summary:
      'Import a .lemming.zip the user picks as a new org in an empty folder they pick, or (`into`) its agents and departments beside those of the open org, never over anything it has; every check passes before anything is written, and the org is left untrusted. null when they cancel.',
    input: z.object({ into: z.boolean().default(false) }).strict(),
    output: BundleImportResult.nullable(),
  }),
  'bundle.origin': channel({
    summary:
      'The manifest the open org was imported with, for its trust screen; null when it did not come from a bundle.',
    input: NoInput,
    output: z.object({ origin: BundleOrigin.nullable() }),
  }),

  'timeline.import': channel({
    summary:
      "Append the events of a JSON Lines file the user picks to the org's timeline; bad lines are listed. Its progress is told (`job.progress`); cancelled, it keeps what it imported.",
    input: NoInput,
    output: TimelineImportResult,
  }),

  'jobs.cancel': channel({
    summary:
      'Cancel a long job (an export, an import) that `job.progress` told of; an export leaves no file.',
    input: CancelJobInput,
    output: CancelJobResult,
  }),

  'inspector.turn': channel({
    summary: "One agent's turn at one tick as a tree: prompt, model calls, tool calls with results, charges.",
    input: TurnRef,
    output: TurnDetail,
  }),
  'inspector.tick': channel({
    summary: "Every turn of one tick with when it started and how long it took (the tick's waterfall).",
    input: z.object({ tick: z.int() }).strict(),
    output: TickTurns,
  }),
  'inspector.agentTurns': channel({
    summary: "An agent's newest turns, newest first.",
    input: AgentRef,
    output: AgentTurns,
  }),
  'inspector.rehearsal': channel({
    summary: 'A rehearsal as a tree: what the turn would have done, and the turn as it played.',
    input: RehearsalRef,
    output: RehearsalDetail,
  }),
  'agent.rehearse': channel({
    summary:
      'Rehearse one turn of an agent: reads run, nothing it would change is done; only a rehearsal record is kept.',
    input: RehearseInput,
    output: RehearsalSummary,
  }),

  'inbox.page': channel({
    summary:
      'Messages for the human (addressed to the human, or to everyone by agents the human reads), newest first.',
    input: HumanInboxQuery,
    output: HumanInboxPage,
  }),
  'inbox.unread': channel({
    summary: "How many of the human's messages are unread.",
    input: NoInput,
    output: z.object({ unread: z.int().nonnegative() }),
  }),
  'inbox.markRead': channel({
    summary: "Mark some of the human's messages (or all) as read; remembered in the org's timeline file.",
    input: MarkReadInput,
    output: z.object({ marked: z.int().nonnegative(), unread: z.int().nonnegative() }),
  }),
  'inbox.reply': channel({
    summary: "Answer a message: a message from the human to its sender, in the human's outbox.",
    input: ReplyInput,
    output: SentMessage,
  }),

  'run.start': channel({
    summary: 'Start running ticks: until stopped, `ticks` ticks, or max_turns.',
    input: z
      .object({
        ticks: z.int().positive().max(1_000_000).optional(),
        /** Overrides org_config.json base_turn_seconds for this run. */
        intervalMs: z.int().nonnegative().max(86_400_000).optional(),
      })
      .strict(),
    output: RunState,
  }),
  'run.pause': channel({
    summary: 'Pause after the tick in progress.',
    input: NoInput,
    output: RunState,
  }),
  'run.resume': channel({ summary: 'Continue a paused run.', input: NoInput, output: RunState }),
  'run.step': channel({
    summary: 'Run exactly one tick (when idle or paused) and report it.',
    input: NoInput,
    output: z.object({ report: TickReport, state: RunState }),
  }),
  'run.stop': channel({
    summary: 'End the run after the tick in progress.',
    input: NoInput,
    output: RunState,
  }),
  'run.state': channel({ summary: 'The run state now.', input: NoInput, output: RunState }),
  'run.readiness': channel({
    summary: 'Before a run: which agents will not run and why, and which have a tool that cannot work.',
    input: NoInput,
    output: RunReadiness,
  }),

  'departments.list': channel({
    summary: "The org's departments (departments/*.json) and the files among them that cannot be read.",
    input: NoInput,
    output: DepartmentList,
  }),
  'departments.save': channel({
    summary: 'Create a department or change one: its description and which agents belong to it.',
    input: SaveDepartmentInput,
    output: Department,
  }),
  'departments.spend': channel({
    summary: "What each department's agents spent this day and this month (UTC), from the credit ledger.",
    input: NoInput,
    output: z.array(DepartmentSpend),
  }),
  'org.updatePlan': channel({
    summary:
      'What updating each agent from a newer copy of the org (a folder, a bundle, or a template shipped with the app) would change: instructions, tools, file access, schedule.',
    input: OrgUpdatePlanInput,
    output: OrgUpdatePlan,
  }),
  'org.updateApply': channel({
    summary:
      'Update the chosen agents from the newer copy, add the chosen new ones, remove the chosen gone ones; what agents learned is kept.',
    input: ApplyOrgUpdateInput,
    output: OrgUpdateApplied,
  }),

  'credits.balances': channel({
    summary: "Every agent's balance, cap and whether it has run out.",
    input: NoInput,
    output: z.array(CreditBalance),
  }),
  'credits.history': channel({
    summary: "One page of an agent's ledger, newest first: its balance over time.",
    input: CreditHistoryInput,
    output: CreditHistory,
  }),
  'credits.topUp': channel({
    summary: "Add credits to an agent's balance.",
    input: TopUpInput,
    output: z.object({ agent: z.string(), balance: z.number() }),
  }),

  'credits.resume': channel({
    summary:
      'Resume an agent paused over a budget: each budget pausing it allows one more budget for the rest of its day or month.',
    input: ResumeBudgetInput,
    output: z.object({ agent: z.string(), resumed: z.int() }),
  }),

  'messages.send': channel({
    summary: "Send a message from the human into the human's outbox, as LeMMing's `send` does.",
    input: SendMessageInput,
    output: SentMessage,
  }),

  'messages.inbox': channel({
    summary:
      'What an agent will be shown on its next turn: new messages, then earlier ones (`lemming inbox`).',
    input: InboxInput,
    output: AgentInbox,
  }),

  'settings.get': channel({
    summary: 'Run settings, the secret store status and the model providers the app knows.',
    input: NoInput,
    output: Settings,
  }),
  'settings.update': channel({
    summary: 'Change the run settings (kept in org_config.json, where LeMMing reads them).',
    input: SettingsUpdateInput,
    output: Settings,
  }),
  'settings.testConnection': channel({
    summary: 'Send one tiny request to a model and say whether it answered.',
    input: ConnectionTestInput,
    output: ConnectionTest,
  }),

  'models.list': channel({
    summary: 'The models of models.json (no key or header values), their problems, and who uses each.',
    input: NoInput,
    output: ModelList,
  }),
  'models.update': channel({
    summary: 'Add, change or remove a models.json entry, keeping every other byte of the file.',
    input: ModelUpdateInput,
    output: ModelList,
  }),
  'models.serverModels': channel({
    summary:
      'The models a server offers, with the key typed in the form (used for this call only), or what to fix.',
    input: ModelServerInput,
    output: ServerModels,
  }),
  'models.probe': channel({
    summary:
      'One tiny call to a model described in the setup form; says in words what it answered or what to fix.',
    input: ModelProbeInput,
    output: ModelProbe,
  }),
  'models.add': channel({
    summary: 'Add a model with its API key: the key goes to the secret store and is never shown again.',
    input: AddModelInput,
    output: ModelList,
  }),
  'models.setKey': channel({
    summary:
      'Paste a key on a saved model: kept in the secret store under its provider account, so every model of that provider that names no key of its own uses it.',
    input: SetModelKeyInput,
    output: ModelList,
  }),
  'models.detectLocal': channel({
    summary: 'Model servers running on this computer (Ollama, LM Studio), with their models.',
    input: NoInput,
    output: LocalServers,
  }),

  'firstRun.openDemo': channel({
    summary: "Copy the demo org to the user's folder (once, or afresh) and open it; it runs offline.",
    input: OpenDemoInput,
    output: OrgSummary.extend({ created: z.boolean() }),
  }),

  'templates.gallery': channel({
    summary:
      'The templates shipped with the app: each one’s title, purpose, agents and message flow, and what it would reach.',
    input: NoInput,
    output: TemplateGallery,
  }),
  'templates.create': channel({
    summary:
      'Make a new org from a template in an empty folder and open it; like any org it runs nothing it reaches until trusted.',
    input: CreateFromTemplateInput,
    output: OrgSummary,
  }),

  'desktop.settings': channel({
    summary:
      "The app's desktop preferences: which notifications are on, running in the background, developer tools.",
    input: NoInput,
    output: DesktopSettings,
  }),
  'desktop.updateSettings': channel({
    summary: 'Change desktop preferences (remembered for the next start).',
    input: UpdateDesktopSettingsInput,
    output: DesktopSettings,
  }),
  'recentOrgs.list': channel({
    summary:
      'The orgs opened before, pinned ones first, then the newest; a folder that is gone is marked missing.',
    input: NoInput,
    output: z.array(RecentOrg),
  }),
  'recentOrgs.pin': channel({
    summary: 'Pin an org to the top of the recent list, or unpin it.',
    input: PinRecentOrgInput,
    output: z.array(RecentOrg),
  }),
  'recentOrgs.forget': channel({
    summary: 'Take an org off the recent list (its folder is not touched).',
    input: ForgetRecentOrgInput,
    output: z.array(RecentOrg),
  }),

  'updates.status': channel({
    summary: "Where the app's own updates stand (checked on start, downloaded in the background).",
    input: NoInput,
    output: UpdateStatus,
  }),
  'updates.setEnabled': channel({
    summary: 'Turn automatic update checks on or off (remembered for the next start).',
    input: SetUpdatesEnabledInput,
    output: UpdateStatus,
  }),
  'updates.restartNow': channel({
    summary: 'Restart into the downloaded update; false when no update is ready.',
    input: NoInput,
    output: z.object({ restarting: z.boolean() }),
  }),
} as const;

export type Contract = typeof contract;
export type Channel = keyof Contract;
export type ChannelInput<C extends Channel> = z.input<Contract[C]['input']>;
export type ChannelParsedInput<C extends Channel> = z.output<Contract[C]['input']>;
export type ChannelOutput<C extends Channel> = z.output<Contract[C]['output']>;

export const channels = Object.keys(contract) as Channel[];

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(contract, name);
}
