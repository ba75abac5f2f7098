import { realpath } from 'node:fs/promises';
import type { McpToolOrigin } from '../api/tool-schemas';
import { DEFAULT_APPROVAL_TIMEOUT_SECONDS, type FormRequest } from '../api/approval-schemas';
import { toMicros } from '../credits/credit-amount';
import type { OrgPolicy } from '../org/policy-file';
import { AgentSandbox } from '../sandbox/agent-sandbox';
import type { AccessRequest, AccessVerdict } from '../sandbox/access-policy';
import { accessKindOf } from '../sandbox/access-policy';
import { DiskAgentFilesystem } from '../sandbox/disk-agent-filesystem';
import { isWithin } from '../sandbox/sandbox-layout';
import {
  askApproval,
  askOrPark,
  askForm,
  settleApproval,
  denialText,
  type ApprovalAsker,
  type FormGate,
  type ApprovalGateOptions,
} from './approval-gate';
import { approvalNeed, writeApprovalReason, type ApprovalNeed, type ApprovalSubject } from './approval-rule';
import { mcpStanding } from './mcp/mcp-tool-record';
import { mayChangeTheWorld, onlyReads } from './side-effects';
import { heldBack, type RehearsalHold } from './rehearsal-hold';
import type { AgentTools, AnsweredApproval, ToolTurnContext } from './agent-tools';
import { judgeTools, withFix, type ToolAvailability } from './policy-resolver';
import type { CatalogEntry } from './tool-catalog';
import { toolFailure, type ToolOutcome } from './tool-result';
import type { ToolContext } from './tool-spec';
import type { Redaction } from '../secrets/redactor';

export interface ToolboxOptions {
  policy: OrgPolicy;
  /** The agent's balance in credits when the turn starts. */
  credits: number | null;
  /** The tools the agent could have (the org's catalog for its resume). */
  catalog: (context: ToolTurnContext) => CatalogEntry[];
  /** Every result passes through it before the agent sees it; tools cut text with it. */
  redaction: Redaction;
  /** "Ask me first": absent, no call asks (only `lemming call`, where the person is the caller, and tests). */
  approvals?: ApprovalGateOptions;
  /**
   * Who fills in the forms MCP servers ask for when no one answers approvals (`lemming call`: the person
   * at the terminal); without either, every form is declined.
   */
  forms?: ApprovalAsker;
  /** A rehearsal: every call that does not only read is held back, neither run nor asked about. */
  rehearsal?: RehearsalHold;
}

/** The call being run, for the sandbox's write check: whether its writes outside the workspace still ask. */
interface CurrentCall {
  tool: string;
  args: unknown;
  writesAsk: boolean;
}

/** The forms-only gate of `lemming call`: the default timeout, values redacted as approvals are. */
function formsOnly(asker: ApprovalAsker, redaction: Redaction): FormGate {
  return {
    asker,
    settings: { timeout_seconds: DEFAULT_APPROVAL_TIMEOUT_SECONDS },
    redact: <T>(value: T): T => redaction.redactValue(value),
  };
}

/** Why a verdict refuses a tool, as one sentence: its first failing layer. */
export function refusalOf(verdict: Pick<ToolAvailability, 'layers'>): string {
  return verdict.layers.find((layer) => !layer.passed)?.reason ?? 'not available';
}

/**
 * A call in a rehearsal: null when it only reads and would neither ask the person first nor be refused
 * (it then runs as in a turn); else what the model is told: the refusal, or that it was held back.
 */
function rehearsed(
  hold: RehearsalHold,
  spec: CatalogEntry['spec'],
  subject: ApprovalSubject,
  args: unknown,
  gate: ApprovalGateOptions | undefined,
  agent: string,
): ToolOutcome | null {
  if (gate) {
    const need = gate.settingsProblem
      ? { mode: 'ask' as const, reason: gate.settingsProblem }
      : approvalNeed(subject, args, gate.settings, agent, gate.personsAlways());
    if (need.mode === 'never') return toolFailure(`Tool '${spec.name}' was not run: ${need.reason}`);
    if (need.mode === 'ask') return held(hold, spec, args);
  }
  return onlyReads(subject) ? null : held(hold, spec, args);
}

function held(hold: RehearsalHold, spec: CatalogEntry['spec'], args: unknown): ToolOutcome {
  const { call, result } = heldBack(spec, args);
  hold.held(call, result);
  return result;
}

/**
 * An agent's tools for one turn, decided by the policy resolver: the model is offered exactly the
 * available ones, and each call is checked again, costed, and run inside the agent's sandbox.
 */
export function agentToolbox(options: ToolboxOptions) {
  return (context: ToolTurnContext): AgentTools => {
    const catalog = options.catalog(context);
    const input = { resume: context.resume, policy: options.policy, catalog, credits: options.credits };
    const verdicts = judgeTools(input);
    const available = new Map(
      catalog.filter((_, index) => verdicts[index]!.available).map((entry) => [entry.spec.name, entry]),
    );
    const judged = new Map(
      verdicts.map((verdict, index) => [verdict.name, { verdict, entry: catalog[index]! }]),
    );
    let sandbox: AgentSandbox | null = null;
    let current: CurrentCall | null = null;
    const gate = options.approvals;
    const agent = context.resume.name;
    const approvalCall = (
      tool: string,
      args: unknown,
      need: Pick<ApprovalNeed, 'reason' | 'changes'>,
      mcpTool?: McpToolOrigin,
    ) => ({
      agent,
      tool,
      title: judged.get(tool)?.entry.spec.title,
      args,
      reason: need.reason,
      changes: need.changes,
      mcpTool,
      tick: context.tick,
      record: context.record,
      signal: context.signal,
    });
    const ask = (
      tool: string,
      args: unknown,
      need: Pick<ApprovalNeed, 'reason' | 'changes'>,
      mcpTool?: McpToolOrigin,
    ) => askApproval(gate!, approvalCall(tool, args, need, mcpTool));
    /** A write outside the workspace asks first, unless the call was already approved or a setting decides. */
    const checkWrite = async (request: AccessRequest): Promise<AccessVerdict> => {
      if (!current?.writesAsk || accessKindOf(request.action) !== 'write') return { allowed: true };
      const workspace = await realpath(request.workspacePath).catch(() => request.workspacePath);
      const reason = writeApprovalReason(
        request.requestedPath ?? request.path,
        isWithin(workspace, request.path),
      );
      if (!reason) return { allowed: true };
      const answer = await ask(current.tool, current.args, { reason });
      if (answer.answer === 'deny') return { allowed: false, reason: denialText(current.tool, answer) };
      current.writesAsk = false;
      return { allowed: true };
    };
    const formGate = gate ?? (options.forms && formsOnly(options.forms, options.redaction));
    const askPerson = (tool: string) =>
      formGate
        ? (form: FormRequest) =>
            askForm(formGate, {
              agent,
              tool,
              title: judged.get(tool)?.entry.spec.title,
              form,
              tick: context.tick,
              record: context.record,
              signal: context.signal,
            })
        : undefined;
    const toolContext = (tool: string): ToolContext => {
      sandbox ??= new AgentSandbox({
        orgPath: context.orgPath,
        agentDir: context.agentDir,
        fileAccess: context.resume.permissions.file_access,
        fs: new DiskAgentFilesystem(),
        ...(gate ? { checkAccess: checkWrite } : {}),
      });
      const asking = askPerson(tool);
      return {
        ...context,
        sandbox,
        policy: options.policy,
        redaction: options.redaction,
        ...(context.signal ? { signal: context.signal } : {}),
        ...(asking ? { askPerson: asking } : {}),
      };
    };

    return {
      definitions: [...available.values()].map((entry) => entry.spec.definition),
      verdict(name) {
        const tool = judged.get(name);
        return tool && withFix(tool.verdict, tool.entry, input);
      },
      async call(name, args, beforeChange, answered?: AnsweredApproval) {
        const entry = available.get(name);
        if (!entry) {
          const verdict = judged.get(name)?.verdict;
          return toolFailure(
            verdict
              ? `Tool '${name}' not permitted for ${context.resume.name}: ${refusalOf(verdict)}`
              : `Unknown tool: ${name}`,
            { kind: verdict ? 'refused' : 'not_found' },
          );
        }
        const cost = toMicros(options.policy.tool_costs[name] ?? 0);
        if (cost > 0 && cost > context.budget.availableMicro()) {
          return toolFailure(
            `Tool '${name}' costs ${options.policy.tool_costs[name]} credits; ${context.resume.name} cannot pay for it`,
          );
        }
        // A parked call resumed where no one answers approvals still follows the answer it was given.
        if (!gate && answered?.answer.answer === 'deny')
          return toolFailure(denialText(name, answered.answer));
        let writesAsk = false;
        const { mcpTool } = entry.spec;
        // The person's record is read at the call, so a choice made or a change seen during the turn counts.
        const mcpRecord = gate?.mcpRecord ?? options.rehearsal?.mcpRecord;
        const subject: ApprovalSubject =
          mcpTool && mcpRecord
            ? { ...entry.spec, mcpStanding: mcpStanding(mcpRecord(mcpTool.server), mcpTool) }
            : entry.spec;
        if (options.rehearsal) {
          const instead = rehearsed(options.rehearsal, entry.spec, subject, args, gate, agent);
          if (instead) return instead;
        }
        if (gate) {
          const changes = subject.mcpStanding?.changes ?? [];
          const need = gate.settingsProblem
            ? {
                mode: 'ask' as const,
                reason: gate.settingsProblem,
                ...(changes.length > 0 ? { changes } : {}),
                fromSetting: true,
              }
            : approvalNeed(subject, args, gate.settings, agent, gate.personsAlways());
          if (need.mode === 'never')
            return toolFailure(`Tool '${name}' was not run: ${need.reason}`, { kind: 'refused' });
          if (answered) {
            const { request, answer: given } = answered;
            const waited = (gate.clock?.() ?? new Date()).getTime() - Date.parse(request.asked_at);
            const answer = await settleApproval(
              gate,
              approvalCall(name, args, request, mcpTool),
              request,
              given,
              waited,
            );
            if (answer.answer === 'deny') return toolFailure(denialText(name, answer), { kind: 'refused' });
          } else if (need.mode === 'ask') {
            const asked = await askOrPark(gate, approvalCall(name, args, need, mcpTool));
            if ('parked' in asked)
              return {
                ...toolFailure(`Tool '${name}' waits for the person's answer.`),
                parked: asked.parked,
              };
            if (asked.answer.answer === 'deny')
              return toolFailure(denialText(name, asked.answer), { kind: 'refused' });
          }
          writesAsk = need.mode === 'always' && !need.fromSetting;
        }
        if (beforeChange && mayChangeTheWorld(subject, args)) {
          // A call whose start cannot be recorded does not run: after a kill nothing would say it had.
          try {
            beforeChange();
          } catch (error) {
            return toolFailure(
              `Tool '${name}' was not run: the app could not record that it was about to run (${error instanceof Error ? error.message : String(error)}).`,
            );
          }
        }
        current = { tool: name, args, writesAsk };
        const result = await entry.spec.run(args, toolContext(name)).finally(() => {
          current = null;
        });
        if (cost > 0) context.budget.charge(cost, `tool ${name}`);
        // An image's or a sound's bytes are not text a secret could be read from: only the words are redacted.
        const { media, ...words } = result;
        const redacted = options.redaction.redactValue(words);
        return media ? { ...redacted, media } : redacted;
      },
    };
  };
}
