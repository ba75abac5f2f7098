import { fromMicros } from '../credits/credit-amount';
import { CreditLedger } from '../credits/ledger';
import { ok, type IpcResult } from '../api/result';
import type { TurnStatus } from '../api/run-schemas';
import type { AgentStatus, OrgStatusReport } from '../api/status-schemas';
import { readCredits } from '../org/credits-file';
import { discoverAgents } from '../org/discover';
import { runLockHolder } from '../org/org-lock';
import { nextFiringTicks } from '../org/schedule';
import { nextTickToRead, type OrgReader } from './org-reader';
import { nextDueOf } from './next-due';
import { readOrgConfig } from '../org/org-config-file';

/** How many coming firing ticks the status names per agent. */
const FIRING_TICKS_SHOWN = 3;

/** The next tick, who runs the org, and each agent's schedule, balance and last turn, or why its resume is invalid. */
export async function orgStatusReport(reader: OrgReader): Promise<IpcResult<OrgStatusReport>> {
  const { orgPath, timeline } = reader;
  const [discovered, tick, credits, config] = await Promise.all([
    discoverAgents(orgPath),
    nextTickToRead(reader),
    readCredits(orgPath),
    readOrgConfig(orgPath),
  ]);
  if (!tick.ok) return tick;
  const pace = {
    nextTick: tick.value,
    now: new Date(),
    intervalMs: config.ok ? Math.round(config.value.base_turn_seconds * 1000) : null,
  };
  const ledger = timeline ? new CreditLedger(timeline.db) : null;
  const lastTurns = new Map(
    (
      (timeline?.db
        .prepare(
          'SELECT agent, tick, status FROM turns WHERE rowid IN (SELECT max(rowid) FROM turns GROUP BY agent)',
        )
        .all() ?? []) as { agent: string; tick: number; status: TurnStatus }[]
    ).map((row) => [row.agent, { tick: row.tick, status: row.status }]),
  );
  const agents = discovered.map((agent): AgentStatus => {
    if (!agent.valid)
      return { folder: agent.folder, name: agent.name, valid: false, problems: agent.problems };
    const balance = ledger?.balance(agent.resume.name) ?? null;
    // Before this app's first run seeds its ledger from credits.json (an org LeMMing ran), the file's balance is the balance.
    const nextDue = nextDueOf(agent, pace);
    const fileBalance = credits.ok ? (credits.value[agent.resume.name]?.credits_left ?? null) : null;
    return {
      folder: agent.folder,
      name: agent.resume.name,
      title: agent.resume.title,
      valid: true,
      model: agent.resume.model.key,
      firesNextTick: nextDue.tick === tick.value,
      nextFiringTicks: nextFiringTicks(agent.resume.schedule, tick.value, FIRING_TICKS_SHOWN),
      nextDue,
      credits: balance === null ? fileBalance : fromMicros(balance),
      lastTurn: lastTurns.get(agent.resume.name) ?? null,
    };
  });
  return ok({ org: orgPath, nextTick: tick.value, runningBy: runLockHolder(orgPath), agents });
}
