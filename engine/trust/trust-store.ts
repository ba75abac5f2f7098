import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Result } from '../api/result';
import { AgentAllowances, McpServerRecord } from '../api/approval-schemas';
import { OrgGrants, ReachItem, type OrgReach } from '../api/trust-schemas';
import { writeFileAtomic } from '../files/atomic-write';
import { runSerially } from '../files/serial-by-key';

/** What the person said yes to, for one org: the reach they saw and when. */
const TrustedReach = z.object({
  fingerprint: z.string(),
  items: z.array(ReachItem),
  at: z.string(),
});
export type TrustedReach = z.infer<typeof TrustedReach>;

const OrgRecord = z.object({
  trusted: TrustedReach.nullable(),
  grants: OrgGrants,
  /**
   * The org's MCP servers as the person knows them, by server identity: whether they trust each one's
   * hints, each tool as first seen, and their approval choices (docs/ARCHITECTURE.md, “Approvals”).
   * Absent in files written before it existed.
   */
  mcp: z.record(z.string(), McpServerRecord).default({}),
  /**
   * The person's "always" answers for the org's own tools, by agent identity (agents/<folder>/.agent-id),
   * so they hold for that agent only, never for a new agent of its name (docs/ARCHITECTURE.md,
   * “Approvals”). Absent in files written before it existed.
   */
  agents: z.record(z.string(), AgentAllowances).default({}),
  /**
   * The agent (identity) each agent name's MCP choices (`mcp.*.tools.*.modes`, kept by name) were made
   * for: when another agent holds the name, they are dropped (bindAgentName).
   */
  agentIds: z.record(z.string(), z.string()).default({}),
  /**
   * The parked requests (docs/ARCHITECTURE.md, "Parked turns") the person approved, by request id, until
   * their turns go on: an approval found in the org's timeline counts only if it is here too.
   */
  parkedApprovals: z.array(z.string()).default([]),
});
export type OrgRecord = z.infer<typeof OrgRecord>;

const TrustFile = z.object({
  version: z.literal(1),
  /** Keyed by the org's real path (links resolved). */
  orgs: z.record(z.string(), OrgRecord),
});
type TrustFile = z.infer<typeof TrustFile>;

const EMPTY_RECORD: OrgRecord = {
  trusted: null,
  grants: { secrets: [], environment: [] },
  mcp: {},
  agents: {},
  agentIds: {},
  parkedApprovals: [],
};

/**
 * The person's trust decisions and grants, kept outside every org (the app's user data, the CLI's
 * config folder): an org cannot carry its own trust with it. One JSON file, written atomically; it is
 * read again before every decision, so the app and a second program see each other's changes. A file
 * that cannot be read trusts nothing and is never overwritten: changes are refused with its problem.
 */
export class TrustStore {
  constructor(readonly file: string) {}

  /** The org's record; an org never seen has no trust and no grants. */
  record(orgRealPath: string): OrgRecord {
    const read = this.read();
    return (read.ok ? read.value.orgs[orgRealPath] : undefined) ?? EMPTY_RECORD;
  }

  /** Every org the secret is granted to. */
  orgsGranted(kind: keyof OrgGrants, name: string): string[] {
    const read = this.read();
    if (!read.ok) return [];
    return Object.entries(read.value.orgs)
      .filter(([, record]) => record.grants[kind].includes(name))
      .map(([org]) => org);
  }

  /** The person trusts the org as `reach` says it is; grants are added to the org's own. */
  trust(
    orgRealPath: string,
    fingerprint: string,
    reach: OrgReach,
    grants: Partial<OrgGrants> = {},
    now: Date = new Date(),
  ): Promise<Result<OrgRecord, string>> {
    return this.change(orgRealPath, (record) => ({
      ...record,
      trusted: { fingerprint, items: reach.items, at: now.toISOString() },
      grants: {
        secrets: union(record.grants.secrets, grants.secrets ?? []),
        environment: union(record.grants.environment, grants.environment ?? []),
      },
    }));
  }

  /** The org is no longer trusted; its grants stay, for when it is trusted again. */
  revoke(orgRealPath: string): Promise<Result<OrgRecord, string>> {
    return this.change(orgRealPath, (record) => ({ ...record, trusted: null }));
  }

  grant(
    orgRealPath: string,
    kind: keyof OrgGrants,
    name: string,
    granted: boolean,
  ): Promise<Result<OrgRecord, string>> {
    return this.change(orgRealPath, (record) => ({
      ...record,
      grants: {
        ...record.grants,
        [kind]: granted
          ? union(record.grants[kind], [name])
          : record.grants[kind].filter((held) => held !== name),
      },
    }));
  }

  /** The person's record of one MCP server of the org, by the server's identity; undefined when none. */
  mcpServer(orgRealPath: string, identity: string): McpServerRecord | undefined {
    const servers = this.record(orgRealPath).mcp;
    return Object.hasOwn(servers, identity) ? servers[identity] : undefined;
  }

  /** Changes the person's record of one MCP server of the org; nothing is written when nothing changes. */
  changeMcpServer(
    orgRealPath: string,
    identity: string,
    edit: (server: McpServerRecord | undefined) => McpServerRecord,
  ): Promise<Result<OrgRecord, string>> {
    return this.change(
      orgRealPath,
      (record) => ({
        ...record,
        mcp: {
          ...record.mcp,
          [identity]: edit(Object.hasOwn(record.mcp, identity) ? record.mcp[identity] : undefined),
        },
      }),
      { unlessSame: true },
    );
  }

  /**
   * The tools the person let the agent run without asking: kept for its identity and the name it had
   * then, so a copy of its folder under another name does not hold them.
   */
  agentAlways(orgRealPath: string, agent: { id: string; name: string }): ReadonlySet<string> {
    const agents = this.record(orgRealPath).agents;
    const kept = Object.hasOwn(agents, agent.id) ? agents[agent.id] : undefined;
    return new Set(kept?.name === agent.name ? kept.always : []);
  }

  /** Lets the agent run `tool` without asking, or takes that back. */
  allowAlways(
    orgRealPath: string,
    agent: { id: string; name: string },
    tool: string,
    allowed: boolean,
  ): Promise<Result<OrgRecord, string>> {
    return this.change(
      orgRealPath,
      (record) => {
        const kept = Object.hasOwn(record.agents, agent.id) ? record.agents[agent.id] : undefined;
        const held = kept?.name === agent.name ? kept.always : [];
        const always = allowed ? union(held, [tool]) : held.filter((name) => name !== tool);
        const { [agent.id]: _dropped, ...others } = record.agents;
        return {
          ...record,
          agents: always.length > 0 ? { ...others, [agent.id]: { name: agent.name, always } } : others,
        };
      },
      { unlessSame: true },
    );
  }

  /**
   * Binds the person's MCP choices kept under the agent's name to the agent holding it now: the first
   * time, those kept so far are its own; when another agent (another identity) holds the name, the
   * choices made for the one before are dropped.
   */
  bindAgentName(
    orgRealPath: string,
    agent: { id: string; name: string },
  ): Promise<Result<OrgRecord, string>> {
    return this.change(
      orgRealPath,
      (record) => {
        const before = Object.hasOwn(record.agentIds, agent.name) ? record.agentIds[agent.name] : undefined;
        if (before === agent.id) return record;
        const agentIds = { ...record.agentIds, [agent.name]: agent.id };
        if (before === undefined) return { ...record, agentIds };
        return { ...record, agentIds, mcp: withoutModesOf(record.mcp, agent.name) };
      },
      { unlessSame: true },
    );
  }

  /** Whether the person approved this parked request (and its turn has not gone on yet). */
  approvedParked(orgRealPath: string, requestId: string): boolean {
    return this.record(orgRealPath).parkedApprovals.includes(requestId);
  }

  /** Keeps that the person approved a parked request, or forgets it once its turn went on. */
  keepParkedApproval(
    orgRealPath: string,
    requestId: string,
    kept: boolean,
  ): Promise<Result<OrgRecord, string>> {
    return this.change(
      orgRealPath,
      (record) => ({
        ...record,
        parkedApprovals: kept
          ? union(record.parkedApprovals, [requestId])
          : record.parkedApprovals.filter((id) => id !== requestId),
      }),
      { unlessSame: true },
    );
  }

  /** Forgets the person's answers for an agent that is removed: its "always" answers and its MCP choices. */
  forgetAgent(
    orgRealPath: string,
    agent: { id: string | null; name: string },
  ): Promise<Result<OrgRecord, string>> {
    return this.change(
      orgRealPath,
      (record) => {
        const agents = { ...record.agents };
        if (agent.id !== null) delete agents[agent.id];
        const agentIds = { ...record.agentIds };
        delete agentIds[agent.name];
        return { ...record, agents, agentIds, mcp: withoutModesOf(record.mcp, agent.name) };
      },
      { unlessSame: true },
    );
  }

  private change(
    orgRealPath: string,
    edit: (record: OrgRecord) => OrgRecord,
    { unlessSame = false } = {},
  ): Promise<Result<OrgRecord, string>> {
    return runSerially(this.file, async () => {
      const read = this.read();
      if (!read.ok) return read;
      const before = read.value.orgs[orgRealPath] ?? EMPTY_RECORD;
      const record = edit(before);
      // A server listing the same tools again changes nothing: the file is not rewritten for it.
      if (unlessSame && JSON.stringify(record) === JSON.stringify(before)) return { ok: true, value: record };
      const next: TrustFile = { ...read.value, orgs: { ...read.value.orgs, [orgRealPath]: record } };
      await writeFileAtomic(this.file, `${JSON.stringify(next, null, 2)}\n`);
      return { ok: true, value: record };
    });
  }

  private read(): Result<TrustFile, string> {
    let text: string;
    try {
      text = readFileSync(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        return { ok: true, value: { version: 1, orgs: {} } };
      return { ok: false, error: `${this.file} cannot be read: ${(error as Error).message}` };
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (error) {
      return { ok: false, error: `${this.file} is not valid JSON: ${(error as Error).message}` };
    }
    const parsed = TrustFile.safeParse(json);
    if (!parsed.success)
      return {
        ok: false,
        error: `${this.file} is not a trust record this version understands: ${parsed.error.issues[0]?.message ?? 'unknown shape'}`,
      };
    return { ok: true, value: parsed.data };
  }
}

/** The MCP records without any choice made for the agent named. */
function withoutModesOf(servers: OrgRecord['mcp'], agent: string): OrgRecord['mcp'] {
  return Object.fromEntries(
    Object.entries(servers).map(([identity, server]) => [
      identity,
      {
        ...server,
        tools: Object.fromEntries(
          Object.entries(server.tools).map(([name, tool]) => {
            const modes = { ...tool.modes };
            delete modes[agent];
            return [name, { ...tool, modes }];
          }),
        ),
      },
    ]),
  );
}

function union(held: readonly string[], added: readonly string[]): string[] {
  return [...new Set([...held, ...added])].sort();
}
