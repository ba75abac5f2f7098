import type {
  AnswerApprovalInput,
  ApprovalAnswer,
  ApprovalRequest,
  ApprovalSettingsView,
  PendingApprovals,
  SetApprovalModeInput,
  SetApprovalTimeoutInput,
} from '../api/approval-schemas';
import { fail, ok, type IpcResult, type Result } from '../api/result';
import type { JsonEdit } from '../files/json-edit';
import { discoverAgents } from '../org/discover';
import { readApprovalsFor, setAgentApproval, updateApprovals } from '../org/approvals-file';
import { agentIdentity } from '../org/agent-identity';
import type { ApprovalAsker } from '../tools/approval-gate';
import { approvalSettingOf, type ApprovalSubject } from '../tools/approval-rule';
import { formProblems } from '../tools/mcp/mcp-elicitation';
import { mcpStanding, withChoice } from '../tools/mcp/mcp-tool-record';
import { orgKeyOf } from '../trust/org-trust';
import type { ToolVerdict } from '../api/tool-schemas';
import { findValidAgent } from './agent-lookup';
import type { OrgContext } from './org-context';
import { issuesFromProblems } from './problems';

/** Requests whose turns parked: kept by the engine (in the timeline), answered through it. */
export interface ParkedRequests {
  requests(): ApprovalRequest[];
  /** False when none waits under the id; the error when the person's approval could not be kept. */
  answer(id: string, answer: ApprovalAnswer): Promise<Result<boolean, string>>;
}

interface Waiting {
  request: ApprovalRequest;
  answer: (answer: ApprovalAnswer) => void;
}

/**
 * The app's approval requests. A call that asks before it runs parks its turn (the tick goes on
 * without it): its request is the engine's (`attach`), kept in the timeline until answered. A form an
 * MCP server asks for during a call waits here until the person answers its card, or the gate
 * withdraws it (timeout, run stopped). `changed` names the asking agent, so the renderer pulls the
 * list again and the agent's state ("needs you") is asked again.
 */
export class ApprovalDesk implements ApprovalAsker {
  private readonly waiting = new Map<string, Waiting>();
  private parked: ParkedRequests | null = null;

  constructor(private readonly changed: (agent: string) => void) {}

  /** The engine's parked requests, listed and answered with those waiting here. */
  attach(parked: ParkedRequests): void {
    this.parked = parked;
  }

  parks(request: ApprovalRequest): boolean {
    return this.parked !== null && request.form === undefined;
  }

  ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalAnswer> {
    return new Promise((resolve) => {
      const settle = (answer: ApprovalAnswer) => {
        if (!this.waiting.delete(request.id)) return;
        signal.removeEventListener('abort', withdraw);
        resolve(answer);
        this.changed(request.agent);
      };
      const withdraw = () =>
        settle({ answer: 'deny', source: 'stopped', reason: 'The request was withdrawn.' });
      this.waiting.set(request.id, { request, answer: settle });
      signal.addEventListener('abort', withdraw, { once: true });
      this.changed(request.agent);
    });
  }

  /** Everything waiting for the person, oldest first. */
  pending(): ApprovalRequest[] {
    return [
      ...(this.parked?.requests() ?? []),
      ...[...this.waiting.values()].map((waiting) => waiting.request),
    ].sort((a, b) => a.asked_at.localeCompare(b.asked_at));
  }

  /** The request waiting under this id, if it still waits. */
  request(id: string): ApprovalRequest | undefined {
    return this.waiting.get(id)?.request ?? this.parked?.requests().find((request) => request.id === id);
  }

  async answer(input: AnswerApprovalInput): Promise<Result<boolean, string>> {
    const answer: ApprovalAnswer = {
      answer: input.answer,
      source: 'person',
      ...(input.reason?.trim() ? { reason: input.reason.trim() } : {}),
      ...(input.values ? { values: input.values } : {}),
      ...(input.dismissed ? { dismissed: true } : {}),
    };
    const waiting = this.waiting.get(input.id);
    if (waiting) {
      waiting.answer(answer);
      return { ok: true, value: true };
    }
    return this.parked ? this.parked.answer(input.id, answer) : { ok: true, value: false };
  }
}

export function pendingApprovals(desk: ApprovalDesk): IpcResult<PendingApprovals> {
  return ok({ requests: desk.pending() });
}

/** Answers one request: approve once, always for this agent (kept in the person's own record), or deny with a reason. */
export async function answerApproval(
  desk: ApprovalDesk,
  input: AnswerApprovalInput,
): Promise<IpcResult<PendingApprovals>> {
  const form = desk.request(input.id)?.form;
  if (form && input.answer !== 'deny') {
    // A form that does not fit keeps waiting, so the person can put it right.
    const problems = formProblems(form, input.values ?? {});
    if (problems.length > 0)
      return fail(
        'invalid_input',
        'Some answers do not fit the form.',
        problems.map((problem) => ({ path: problem.field, message: problem.message })),
      );
  }
  const answered = await desk.answer(input);
  if (!answered.ok) return fail('invalid_change', `Your answer could not be kept: ${answered.error}`);
  if (!answered.value)
    return fail(
      'not_found',
      'This request is no longer waiting: it was answered, timed out, or its run stopped.',
    );
  return ok({ requests: desk.pending() });
}

/** Each agent's granted tools with the approval setting that applies and where it comes from. */
export async function approvalSettings(context: OrgContext): Promise<IpcResult<ApprovalSettingsView>> {
  const valid = (await discoverAgents(context.orgPath)).filter((agent) => agent.valid);
  const identified = await Promise.all(
    valid.map((agent) => identifiedAgent(context, agent.resume.name, agent.folder)),
  );
  const read = await readApprovalsFor(context.orgPath, identified);
  if (!read.ok)
    return fail(
      'org_unusable',
      'The approval settings file (lemming/config/approvals.json) has problems.',
      issuesFromProblems(read.error),
    );
  const settings = read.value;
  const orgKey = orgKeyOf(context.orgPath);
  const agents = [];
  for (const { name, id } of identified) {
    const verdicts = await context.engine.explainTools(name);
    const personsAlways = context.trust.agentAlways(orgKey, { id, name });
    agents.push({
      agent: name,
      tools: verdicts
        .filter((verdict) => verdict.layers[0]?.passed)
        .map((verdict) => {
          const subject = approvalSubject(context, verdict);
          const setting = approvalSettingOf(subject, settings, name, personsAlways);
          return {
            tool: verdict.name,
            title: verdict.title,
            mode: setting.mode,
            from: setting.from,
            defaultRule: setting.rule.text,
            changes: setting.changes,
          };
        }),
    });
  }
  return ok({ timeoutSeconds: settings.timeout_seconds, agents });
}

/**
 * An agent by name and identity, with the person's MCP choices kept under its name bound to it (those
 * made for an agent that held the name before are dropped).
 */
async function identifiedAgent(
  context: OrgContext,
  name: string,
  folder: string,
): Promise<{ name: string; id: string }> {
  const agent = { name, id: await agentIdentity(context.orgPath, folder) };
  // When the record cannot be written, the engine asks before every call (see OrgEngine.approvalGate).
  await context.trust.bindAgentName(orgKeyOf(context.orgPath), agent);
  return agent;
}

/** A tool as the approval rule judges it: an MCP tool with the person's record of it. */
function approvalSubject(context: OrgContext, verdict: ToolVerdict): ApprovalSubject {
  const origin = verdict.mcpTool;
  if (!origin) return verdict;
  const server = context.trust.mcpServer(orgKeyOf(context.orgPath), origin.server);
  return { ...verdict, mcpStanding: mcpStanding(server, origin) };
}

/**
 * Sets (or clears, with `mode: null`) one agent's approval setting for one tool, for that agent (its
 * identity). "Always" is the person's, kept in their own record; "never" and "ask" go to approvals.json.
 */
export async function setApprovalMode(
  context: OrgContext,
  input: SetApprovalModeInput,
): Promise<IpcResult<ApprovalSettingsView>> {
  const found = await findValidAgent(context.orgPath, input.agent);
  if (!found.ok) return found;
  const agent = await identifiedAgent(context, input.agent, found.value.folder);
  if (input.tool.startsWith('mcp__')) return setMcpApprovalMode(context, input);
  const allowed = await context.trust.allowAlways(
    orgKeyOf(context.orgPath),
    agent,
    input.tool,
    input.mode === 'always',
  );
  if (!allowed.ok) return fail('invalid_change', `The approval setting could not be saved: ${allowed.error}`);
  const mode = input.mode === 'always' ? null : input.mode;
  const updated = await setAgentApproval(context.orgPath, agent, input.tool, mode);
  if (!updated.ok)
    return fail(
      'invalid_change',
      'The approval settings could not be saved.',
      issuesFromProblems(updated.error),
    );
  return approvalSettings(context);
}

/**
 * An MCP tool's setting is the person's, kept in their own record (outside the org) for the tool as
 * its server lists it now: choosing again after the tool changed accepts the change.
 */
async function setMcpApprovalMode(
  context: OrgContext,
  input: SetApprovalModeInput,
): Promise<IpcResult<ApprovalSettingsView>> {
  const verdict = (await context.engine.explainTools(input.agent)).find(
    (candidate) => candidate.name === input.tool,
  );
  const origin = verdict?.mcpTool;
  if (!origin)
    return fail(
      'not_found',
      `${input.tool} is not a tool its MCP server lists now (the server may not be running), so no setting can be kept for it.`,
    );
  const chosen = await context.trust.changeMcpServer(orgKeyOf(context.orgPath), origin.server, (record) =>
    withChoice(record, origin, input.agent, input.mode, new Date()),
  );
  if (!chosen.ok) return fail('invalid_change', `The approval setting could not be saved: ${chosen.error}`);
  return approvalSettings(context);
}

/** Sets how long a request waits for an answer before it counts as denied. */
export async function setApprovalTimeout(
  context: OrgContext,
  input: SetApprovalTimeoutInput,
): Promise<IpcResult<ApprovalSettingsView>> {
  return saveApprovals(context, [{ path: ['timeout_seconds'], value: input.seconds }]);
}

/** Writes edits to approvals.json and answers with the settings as they are now. */
async function saveApprovals(
  context: OrgContext,
  edits: readonly JsonEdit[],
): Promise<IpcResult<ApprovalSettingsView>> {
  const updated = await updateApprovals(context.orgPath, edits);
  if (!updated.ok)
    return fail(
      'invalid_change',
      'The approval settings could not be saved.',
      issuesFromProblems(updated.error),
    );
  return approvalSettings(context);
}
