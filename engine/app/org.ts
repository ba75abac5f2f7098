import type { z } from 'zod';
import type { SendMessageInput, SentMessage, TopUpInput } from '../api/credit-schemas';
import type { OrgStatus } from '../api/org-schemas';
import { fail, ok, type IpcResult } from '../api/result';
import type { AgentListEntry } from '../api/agent-state-schemas';
import type { AgentListItem } from '../api/schemas';
import { agentStates } from './agent-states';
import { outboxFileName } from '../messages/outbox-entry';
import { discoverAgents } from '../org/discover';
import { NotAnOrgError, openOrg, OrgNotFoundError, type OpenedOrg } from '../org/open-org';
import { EngineInputError, OrgNotTrustedError, UnknownAgentError } from '../run/engine-errors';
import { trustFix } from '../trust/trust-words';
import { firingOrder } from '../org/schedule';
import type { OrgContext } from './org-context';
import { issuesFromProblems } from './problems';
import { agentPaths } from '../org/org-layout';

/** The org folder at `path`: its summary and agents; `org_not_found` when there is no folder there. */
export async function openOrgFolder(path: string): Promise<IpcResult<OpenedOrg>> {
  try {
    return ok(await openOrg(path));
  } catch (error) {
    if (error instanceof NotAnOrgError)
      return fail(
        'not_an_org',
        error.message,
        undefined,
        'Choose the folder that holds “agents”, or create a new org in this folder.',
      );
    if (error instanceof OrgNotFoundError) return fail('org_not_found', error.message);
    throw error;
  }
}

/** Every agent of the org, valid or not, with the reasons a resume is invalid. */
export async function listAgents(orgPath: string): Promise<IpcResult<AgentListItem[]>> {
  const opened = await openOrgFolder(orgPath);
  return opened.ok ? ok(opened.value.agents) : opened;
}

/** Every agent of the org with its state, for the Agents list. */
export async function agentList(context: OrgContext): Promise<IpcResult<AgentListEntry[]>> {
  const listed = await listAgents(context.orgPath);
  if (!listed.ok) return listed;
  const states = await agentStates(context, await discoverAgents(context.orgPath));
  return ok(
    listed.value.flatMap((agent) => {
      const state = states.get(agent.name);
      return state ? [{ ...agent, state }] : [];
    }),
  );
}

/** Counts, the next tick, the newest timeline seq and the run state. */
export async function orgStatus(context: OrgContext): Promise<IpcResult<OrgStatus>> {
  const { summary } = await openOrg(context.orgPath);
  const run = await context.controller.refresh();
  return ok({ ...summary, nextTick: run.nextTick, latestSeq: context.engine.timeline.latestSeq(), run });
}

/**
 * The valid agents that fire at `tick` by LeMMing's tick rule, in its order; not those switched off, nor
 * those run by the clock (whether one is due depends on when the last tick ran: the engine decides).
 */
export async function firingAgents(orgPath: string, tick: number): Promise<string[]> {
  const agents = (await discoverAgents(orgPath)).flatMap((agent) =>
    agent.valid && agent.resume.switched_off !== true && agent.resume.schedule.clock === undefined
      ? [{ name: agent.resume.name, schedule: agent.resume.schedule }]
      : [],
  );
  return firingOrder(tick, agents).map((agent) => agent.name);
}

export async function topUp(
  context: OrgContext,
  input: z.output<typeof TopUpInput> & { reason?: string },
): Promise<IpcResult<{ agent: string; balance: number }>> {
  const balance = await context.engine.topUp(input.agent, input.amount, input.reason);
  return ok({ agent: input.agent, balance });
}

/** A message from the human into the human's outbox, as LeMMing's `send` does. */
export async function sendMessage(
  context: OrgContext,
  input: z.output<typeof SendMessageInput>,
): Promise<IpcResult<z.output<typeof SentMessage>>> {
  const target = input.target ?? null;
  if (target !== null) {
    const agents = await discoverAgents(context.orgPath);
    if (!agents.some((agent) => agent.valid && agent.resume.name === target))
      return fail('agent_not_found', `There is no agent named "${target}" in ${context.orgPath}.`);
  }
  const entry = await context.engine.sendHumanMessage(input.text, {
    ...(input.importance ? { importance: input.importance } : {}),
    target,
  });
  return ok({ id: entry.id, tick: entry.tick, file: agentPaths('human').outboxFile(outboxFileName(entry)) });
}

/**
 * Runs a use-case, turning the engine's own refusals into typed results: an invalid config file
 * (`org_unusable`, with where), an agent it does not know (`agent_not_found`), an org not trusted as
 * it is now (`not_trusted`, listing what it would run and reach, and how to trust it).
 */
export async function engineRefusals<T>(work: () => Promise<IpcResult<T>>): Promise<IpcResult<T>> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof UnknownAgentError) return fail('agent_not_found', error.message);
    if (error instanceof OrgNotTrustedError)
      return fail('not_trusted', error.message, undefined, trustFix(error.trust.orgPath));
    if (error instanceof EngineInputError)
      return fail(
        'org_unusable',
        'A config file of the org is not valid.',
        issuesFromProblems(error.problems),
      );
    throw error;
  }
}
