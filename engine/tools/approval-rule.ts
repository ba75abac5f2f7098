import type { ApprovalMode, ApprovalSettings } from '../api/approval-schemas';
import type { ApprovalTarget, ToolAnnotations } from '../api/tool-schemas';

/** What the approval rule needs to know about a tool. */
export interface ApprovalSubject {
  name: string;
  kind: string;
  /** An MCP tool's hints, from its descriptor. */
  annotations?: ToolAnnotations | undefined;
  /** For a composed tool: the built-in call it ends in, judged in its place. */
  endsIn?: ApprovalTarget | undefined;
}

/** Whether a call may run: at once, after the person says yes, or not at all, and why. */
export type ApprovalNeed =
  { mode: 'always'; reason: string } | { mode: 'ask'; reason: string } | { mode: 'never'; reason: string };

const SAFE_HTTP_METHODS = new Set(['GET', 'HEAD']);
const MCP_PREFIX = 'mcp__';

/** The MCP specification's defaults: a tool without hints may change things and may reach the open world. */
function mcpRisks(annotations: ToolAnnotations | undefined): string[] {
  const readOnly = annotations?.readOnlyHint === true;
  const destructive = !readOnly && (annotations?.destructiveHint ?? true);
  const openWorld = annotations?.openWorldHint ?? true;
  return [
    ...(destructive ? ['its server says it may delete or overwrite things'] : []),
    ...(openWorld ? ['its server says it reaches outside this computer'] : []),
  ];
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
    const { name, method } = subject.endsIn;
    if (method) {
      // The method is fixed in the tool's file, so the rule for one call is the rule for every call.
      const need = defaultNeed({ name, kind: subject.endsIn.kind }, { method });
      return need.mode === 'ask' ? asks(`Asks before every call: ${lowerFirst(need.reason)}`) : DOES_NOT_ASK;
    }
    const wrapped = defaultRule({ name, kind: subject.endsIn.kind });
    return wrapped.mode === 'ask' ? asks(`It runs ${name}, so it ${lowerFirst(wrapped.text)}`) : wrapped;
  }
  if (subject.name === 'shell') return asks('Asks before every command.');
  if (subject.name === 'http_request')
    return asks('Asks before anything but reading a web page (GET or HEAD).');
  if (subject.kind === 'file') return asks("Asks before changing files outside the agent's own workspace.");
  if (subject.annotations || subject.name.startsWith(MCP_PREFIX)) {
    const risks = mcpRisks(subject.annotations);
    return risks.length > 0 ? asks(`Asks before every call: ${risks.join(' and ')}.`) : DOES_NOT_ASK;
  }
  return DOES_NOT_ASK;
}

/**
 * The built-in rule for one call: the shell, an HTTP request that is not a plain read, and an MCP tool
 * whose hints say destructive or open-world ask first. (File writes outside the workspace ask when
 * the sandbox sees where they lead: see writeApprovalReason.)
 */
export function defaultNeed(subject: ApprovalSubject, args: unknown): ApprovalNeed {
  if (subject.endsIn) {
    const { name, kind, method } = subject.endsIn;
    // A composed call's arguments are its own, not the wrapped tool's: the method comes from its file,
    // and a delegate to http_request (whose method is templated) is judged as an unknown method.
    const need = defaultNeed({ name, kind }, method ? { method } : {});
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
    return { mode: 'always', reason: 'A GET or HEAD request only reads.' };
  }
  if (subject.annotations || subject.name.startsWith(MCP_PREFIX)) {
    const risks = mcpRisks(subject.annotations);
    if (risks.length > 0) return { mode: 'ask', reason: `${capitalize(risks.join(' and '))}.` };
  }
  return { mode: 'always', reason: 'The built-in rule does not ask for this tool.' };
}

/** The mode the settings give a tool for an agent, and where it comes from; undefined: the built-in rule. */
export function settingFor(
  settings: ApprovalSettings,
  agent: string,
  tool: string,
): { mode: ApprovalMode; from: 'agent' | 'org' } | undefined {
  const own = settings.agents[agent]?.[tool];
  if (own) return { mode: own, from: 'agent' };
  const org = settings.tools[tool];
  return org ? { mode: org, from: 'org' } : undefined;
}

/** What one call needs: the settings first (agent, then org), else the built-in rule. */
export function approvalNeed(
  subject: ApprovalSubject,
  args: unknown,
  settings: ApprovalSettings,
  agent: string,
): ApprovalNeed & { fromSetting: boolean } {
  const set = settingFor(settings, agent, subject.name);
  if (!set) return { ...defaultNeed(subject, args), fromSetting: false };
  const where =
    set.from === 'agent'
      ? `for ${agent} in the approval settings`
      : 'for every agent in the approval settings';
  const reason =
    set.mode === 'never'
      ? `${subject.name} is set to "never allowed" ${where}.`
      : set.mode === 'ask'
        ? `${subject.name} is set to "ask me first" ${where}.`
        : `${subject.name} is set to "always allowed" ${where}.`;
  return { mode: set.mode, reason, fromSetting: true };
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
