import type { ApprovalMode, ApprovalSettings } from '../api/approval-schemas';
import type { ApprovalTarget, ToolAnnotations } from '../api/tool-schemas';
import type { McpStanding } from './mcp/mcp-tool-record';

/** What the approval rule needs to know about a tool. */
export interface ApprovalSubject {
  name: string;
  kind: string;
  /** An MCP tool's hints, from its descriptor: claims of its server, which count only when the person trusts them. */
  annotations?: ToolAnnotations | undefined;
  /** For a composed tool: the built-in call it ends in, judged in its place. */
  endsIn?: ApprovalTarget | undefined;
  /** For an MCP tool: the person's record of it (their choices, whether they trust its server's hints, what changed). */
  mcpStanding?: McpStanding | undefined;
  /** The engine's own tool that only reads (an MCP server's resources, read by the engine): judged as such, not by MCP claims. */
  onlyReads?: true | undefined;
}

/** Whether a call may run: at once, after the person says yes, or not at all, and why. */
export type ApprovalNeed = {
  mode: ApprovalMode;
  reason: string;
  /** For an MCP tool that changed since the person chose how it runs: what changed. */
  changes?: string[];
};

const SAFE_HTTP_METHODS = new Set(['GET', 'HEAD']);
const MCP_PREFIX = 'mcp__';

/** A tool of an MCP server the person has no record of: its hints are not trusted and nothing was chosen. */
export const UNKNOWN_STANDING: McpStanding = {
  hintsTrusted: false,
  changes: [],
  changeReason: null,
  modes: {},
};

export const isMcp = (subject: ApprovalSubject): boolean =>
  !subject.onlyReads &&
  (subject.kind === 'mcp' ||
    subject.name.startsWith(MCP_PREFIX) ||
    subject.annotations !== undefined ||
    subject.mcpStanding !== undefined);

const HINTS_NOT_TRUSTED =
  'MCP servers describe their own tools, and you have not chosen to trust what this one says about which tools only read';

/**
 * Why an MCP tool asks, by the specification's defaults: a tool may change things and reach the open
 * world unless its server says otherwise. What the server said is quoted as its claim; a hint it left
 * out is said to be left out, never put in its mouth.
 */
function mcpRisks(annotations: ToolAnnotations | undefined): string | null {
  const readOnly = annotations?.readOnlyHint === true;
  const destructive = readOnly ? false : annotations?.destructiveHint;
  const openWorld = annotations?.openWorldHint;
  const says = [
    ...(destructive === true ? ['it may delete or overwrite things'] : []),
    ...(openWorld === true ? ['it reaches outside this computer'] : []),
  ];
  const doesNotSay = [
    ...(destructive === undefined ? ['it changes anything'] : []),
    ...(openWorld === undefined ? ['it reaches outside this computer'] : []),
  ];
  if (says.length === 0 && doesNotSay.length === 0) return null;
  const parts = [
    ...(says.length > 0 ? [`says ${says.join(' and ')}`] : []),
    ...(doesNotSay.length > 0 ? [`does not say whether ${doesNotSay.join(' or whether ')}`] : []),
  ];
  return `its server ${parts.join(' and ')}`;
}

/** The built-in rule for a tool, whatever the call's arguments: whether it asks, and in plain words (for the Tool Store). */
export interface DefaultRule {
  mode: Extract<ApprovalMode, 'always' | 'ask'>;
  text: string;
}

const DOES_NOT_ASK: DefaultRule = { mode: 'always', text: 'Does not ask.' };
const asks = (text: string): DefaultRule => ({ mode: 'ask', text });

export function defaultRule(subject: ApprovalSubject): DefaultRule {
  if (subject.endsIn) {
    const { name, method, headers } = subject.endsIn;
    if (method) {
      // The method (and any override of it) is fixed in the tool's file, so the rule for one call is
      // the rule for every call.
      const need = defaultNeed({ name, kind: subject.endsIn.kind }, { method, headers });
      return need.mode === 'ask' ? asks(`Asks before every call: ${lowerFirst(need.reason)}`) : DOES_NOT_ASK;
    }
    const wrapped = defaultRule({ name, kind: subject.endsIn.kind });
    return wrapped.mode === 'ask' ? asks(`It runs ${name}, so it ${lowerFirst(wrapped.text)}`) : wrapped;
  }
  if (subject.name === 'shell') return asks('Asks before every command.');
  if (subject.name === 'http_request')
    return asks('Asks before anything but reading a web page (GET or HEAD).');
  if (subject.kind === 'file') return asks("Asks before changing files outside the agent's own workspace.");
  if (isMcp(subject)) {
    const standing = subject.mcpStanding ?? UNKNOWN_STANDING;
    if (standing.changeReason) return asks(`Asks before every call: ${lowerFirst(standing.changeReason)}`);
    if (!standing.hintsTrusted)
      return asks(
        'Asks before every call: you have not chosen to trust what its server says about which tools only read.',
      );
    const risks = mcpRisks(subject.annotations);
    return risks ? asks(`Asks before every call: ${risks}.`) : DOES_NOT_ASK;
  }
  return DOES_NOT_ASK;
}

/**
 * Headers that ask a server to treat a request as another method (a GET that deletes): a request
 * carrying one is judged by the method it names. Compared without regard to case, as HTTP does.
 */
export const METHOD_OVERRIDE_HEADERS: readonly string[] = [
  'x-http-method-override',
  'x-http-method',
  'x-method-override',
];

/** The method-override headers among `headers` and the method each names ('' when unknown). */
export function methodOverrides(headers: unknown): { header: string; method: string }[] {
  if (typeof headers !== 'object' || headers === null) return [];
  return Object.entries(headers)
    .filter(([header]) => METHOD_OVERRIDE_HEADERS.includes(header.toLowerCase()))
    .map(([header, value]) => ({
      header,
      method: typeof value === 'string' ? value.trim().toUpperCase() : '',
    }));
}

/**
 * An MCP tool without a choice of the person's: a tool that changed since they chose (or since it was
 * first seen) asks; so does every tool of a server whose hints they do not trust; a trusted server's
 * hints decide the rest, with the specification's defaults.
 */
function mcpDefaultNeed(subject: ApprovalSubject): ApprovalNeed {
  const standing = subject.mcpStanding ?? UNKNOWN_STANDING;
  if (standing.changeReason) return { mode: 'ask', reason: standing.changeReason, changes: standing.changes };
  if (!standing.hintsTrusted)
    return { mode: 'ask', reason: `${HINTS_NOT_TRUSTED}, so every call asks first.` };
  const risks = mcpRisks(subject.annotations);
  if (risks) return { mode: 'ask', reason: `${capitalize(risks)}.` };
  return {
    mode: 'always',
    reason: 'Its server, whose hints you trust, says it only reads and stays on this computer.',
  };
}

/**
 * The built-in rule for one call: the shell, an HTTP request that is not a plain read, and an MCP tool
 * whose hints say destructive or open-world ask first. (File writes outside the workspace ask when
 * the sandbox sees where they lead: see writeApprovalReason.)
 */
export function defaultNeed(subject: ApprovalSubject, args: unknown): ApprovalNeed {
  if (subject.endsIn) {
    const { name, kind, method, headers } = subject.endsIn;
    // A composed call's arguments are its own, not the wrapped tool's: the method comes from its file,
    // and a delegate to http_request (whose method is templated) is judged as an unknown method.
    const need = defaultNeed({ name, kind }, method ? { method, headers } : {});
    return need.mode === 'ask'
      ? { mode: 'ask', reason: `${subject.name} runs ${name}. ${need.reason}` }
      : need;
  }
  if (subject.name === 'shell')
    return { mode: 'ask', reason: 'It runs a command on this computer with your rights.' };
  if (subject.name === 'http_request') {
    const method =
      typeof args === 'object' && args !== null && typeof (args as { method?: unknown }).method === 'string'
        ? (args as { method: string }).method.trim().toUpperCase()
        : '';
    if (!SAFE_HTTP_METHODS.has(method))
      return {
        mode: 'ask',
        reason: `It sends a ${method || 'non-GET'} request, which can change things on that server.`,
      };
    // Every one counts: the same header may be given twice, in two spellings.
    const override = methodOverrides((args as { headers?: unknown }).headers).find(
      (named) => !SAFE_HTTP_METHODS.has(named.method),
    );
    if (override)
      return {
        mode: 'ask',
        reason: `It sends a ${method} request that asks the server to treat it as a ${override.method || 'different method'} (${override.header}), which can change things on that server.`,
      };
    return { mode: 'always', reason: 'A GET or HEAD request only reads.' };
  }
  if (isMcp(subject)) return mcpDefaultNeed(subject);
  return { mode: 'always', reason: 'The built-in rule does not ask for this tool.' };
}

const entryOf = <T>(record: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** What the org's approvals.json says for a tool and an agent, and where: its own entry, else every agent's. */
export function orgSetting(
  settings: ApprovalSettings,
  agent: string,
  tool: string,
): { mode: ApprovalMode; from: 'agent' | 'org' } | undefined {
  const own = entryOf(entryOf(settings.agents, agent) ?? {}, tool);
  if (own) return { mode: own, from: 'agent' };
  const org = entryOf(settings.tools, tool);
  return org ? { mode: org, from: 'org' } : undefined;
}

const MODE_WORDS: Record<ApprovalMode, string> = {
  never: 'never allowed',
  ask: 'ask me first',
  always: 'always allowed',
};

const STRICTNESS: Record<ApprovalMode, number> = { always: 0, ask: 1, never: 2 };

/** The tools the person let an agent run without asking (their record, outside the org). */
export type PersonsAlways = ReadonlySet<string>;
const NONE: PersonsAlways = new Set();

interface Setting {
  mode: ApprovalMode;
  from: 'agent' | 'org';
  reason: string;
}

/**
 * The setting that decides for a tool and an agent, undefined for the built-in rule: the person's own
 * "always" for the agent, else the org's `never` or `ask` (the agent's own, then every agent's). The
 * org's `always` does not count: approvals.json is the org's file, whoever wrote the folder wrote it.
 */
function settingFor(
  settings: ApprovalSettings,
  agent: string,
  tool: string,
  personsAlways: PersonsAlways,
): Setting | undefined {
  if (personsAlways.has(tool))
    return { mode: 'always', from: 'agent', reason: `You let ${agent} run ${tool} without asking.` };
  const own = entryOf(entryOf(settings.agents, agent) ?? {}, tool);
  if (own && own !== 'always')
    return {
      mode: own,
      from: 'agent',
      reason: `${tool} is set to "${MODE_WORDS[own]}" for ${agent} in the approval settings.`,
    };
  const org = entryOf(settings.tools, tool);
  if (org && org !== 'always')
    return {
      mode: org,
      from: 'org',
      reason: `${tool} is set to "${MODE_WORDS[org]}" for every agent in the approval settings.`,
    };
  return undefined;
}

const ORG_ALWAYS_IGNORED =
  " The org's approval settings say it may always run, but only you can let a tool run without asking.";

/**
 * The strictest setting among the tools a wrapper runs (the composed tools on its chain, then the call
 * it ends in): a wrapper runs them without their own check, so it can never ask less than they would.
 */
function strictestWrapped(
  subject: ApprovalSubject,
  settings: ApprovalSettings,
  agent: string,
  personsAlways: PersonsAlways,
): (Setting & { tool: string }) | undefined {
  if (!subject.endsIn) return undefined;
  let strictest: (Setting & { tool: string }) | undefined;
  for (const tool of [...(subject.endsIn.through ?? []), subject.endsIn.name]) {
    const set = settingFor(settings, agent, tool, personsAlways);
    if (set && (!strictest || STRICTNESS[set.mode] > STRICTNESS[strictest.mode]))
      strictest = { tool, ...set };
  }
  return strictest;
}

/**
 * The one place a call's approval is decided (the toolbox asks it before every call): the person's
 * "always" for the agent, else the org's `never` or `ask` (agent, then every agent), else the built-in
 * rule; a wrapper (composed or REST API tool) also obeys the strictest setting of what it runs. For an
 * MCP tool the person's own choice comes first, and the org's approvals.json may only make it ask or
 * forbid it. What a folder says never lets a tool run without asking (docs/ARCHITECTURE.md, “Approvals”).
 */
export function approvalNeed(
  subject: ApprovalSubject,
  args: unknown,
  settings: ApprovalSettings,
  agent: string,
  personsAlways: PersonsAlways = NONE,
): ApprovalNeed & { fromSetting: boolean } {
  if (isMcp(subject)) return mcpNeed(subject, settings, agent);
  const set = settingFor(settings, agent, subject.name, personsAlways);
  const own = set
    ? { mode: set.mode, reason: set.reason, fromSetting: true }
    : withIgnoredAlways(defaultNeed(subject, args), settings, agent, subject.name);
  const wrapped = strictestWrapped(subject, settings, agent, personsAlways);
  if (!wrapped || STRICTNESS[wrapped.mode] <= STRICTNESS[own.mode]) return own;
  return {
    mode: wrapped.mode,
    reason: `${subject.name} runs ${wrapped.tool}. ${wrapped.reason}`,
    fromSetting: true,
  };
}

/** The built-in rule's need; when it asks although the org's file says "always", the reason says why. */
function withIgnoredAlways(
  need: ApprovalNeed,
  settings: ApprovalSettings,
  agent: string,
  tool: string,
): ApprovalNeed & { fromSetting: boolean } {
  const ignored = need.mode === 'ask' && orgSetting(settings, agent, tool)?.mode === 'always';
  return {
    ...need,
    reason: ignored ? `${need.reason}${ORG_ALWAYS_IGNORED}` : need.reason,
    fromSetting: false,
  };
}

function mcpNeed(
  subject: ApprovalSubject,
  settings: ApprovalSettings,
  agent: string,
): ApprovalNeed & { fromSetting: boolean } {
  const standing = subject.mcpStanding ?? UNKNOWN_STANDING;
  const own = Object.hasOwn(standing.modes, agent) ? standing.modes[agent] : undefined;
  if (own)
    return {
      mode: own,
      reason: `You set ${subject.name} to "${MODE_WORDS[own]}" for ${agent}.`,
      fromSetting: true,
    };
  const changes = standing.changes.length > 0 ? { changes: standing.changes } : {};
  const set = orgSetting(settings, agent, subject.name);
  if (set && set.mode !== 'always') {
    const where = set.from === 'agent' ? `for ${agent}` : 'for every agent';
    return {
      mode: set.mode,
      reason: `${subject.name} is set to "${MODE_WORDS[set.mode]}" ${where} in the org's approval settings.`,
      ...changes,
      fromSetting: true,
    };
  }
  const need = mcpDefaultNeed(subject);
  const overruled =
    set && need.mode === 'ask'
      ? ` The org's approval settings say it may always run, but only you can let a tool of an MCP server run without asking.`
      : '';
  return { ...need, reason: `${need.reason}${overruled}`, fromSetting: false };
}

/** One tool's setting for one agent as the Tool Store shows it: what applies, where it comes from, the built-in rule. */
export interface ApprovalSettingOf {
  mode: ApprovalMode;
  from: 'agent' | 'org' | 'default';
  rule: DefaultRule;
  changes: string[];
}

/**
 * What applies to the tool for the agent, by the same order as approvalNeed: for an MCP tool the
 * person's own choice, then what the org's settings forbid or make ask, then the built-in rule.
 */
export function approvalSettingOf(
  subject: ApprovalSubject,
  settings: ApprovalSettings,
  agent: string,
  personsAlways: PersonsAlways = NONE,
): ApprovalSettingOf {
  const rule = defaultRule(subject);
  if (!isMcp(subject)) {
    const set = settingFor(settings, agent, subject.name, personsAlways);
    const own = { mode: set?.mode ?? rule.mode, from: set?.from ?? ('default' as const) };
    const wrapped = strictestWrapped(subject, settings, agent, personsAlways);
    const applies = wrapped && STRICTNESS[wrapped.mode] > STRICTNESS[own.mode] ? wrapped : own;
    return { mode: applies.mode, from: applies.from, rule, changes: [] };
  }
  const standing = subject.mcpStanding ?? UNKNOWN_STANDING;
  const own = Object.hasOwn(standing.modes, agent) ? standing.modes[agent] : undefined;
  const set = orgSetting(settings, agent, subject.name);
  const from = own ? 'agent' : set && set.mode !== 'always' ? 'org' : 'default';
  return {
    mode: own ?? (from === 'org' && set ? set.mode : rule.mode),
    from,
    rule,
    changes: standing.changes,
  };
}

/** Why a write asks when the default rule applies: it leads outside the agent's workspace. Null: it does not ask. */
export function writeApprovalReason(shownPath: string, insideWorkspace: boolean): string | null {
  return insideWorkspace ? null : `It changes ${shownPath}, outside the agent's own workspace.`;
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
