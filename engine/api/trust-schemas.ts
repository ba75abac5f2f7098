import { z } from 'zod';
import { SecretName } from './secret-name';

/**
 * What an org can make this computer do once it runs (docs/ARCHITECTURE.md, “Trust”):
 * - `program`: a program it would start (an MCP server's command, a `cli` model, a skill's program);
 * - `address`: a server it would contact (a model's base URL, an MCP server's URL, a composed or REST
 *   API tool's host, a host the org's policy lets agents reach on this computer or its network);
 * - `secret`: a stored secret it names (`api_key_secret`, `${secrets.X}`, a REST API's key);
 * - `environment`: an environment variable it would read (`api_key_env`, a provider's own variable);
 * - `shell`: an agent granted the shell, which runs whatever commands its model writes;
 * - `web`: an agent granted web requests to addresses its model chooses.
 */
export const ReachKind = z.enum(['program', 'address', 'secret', 'environment', 'shell', 'web']);
export type ReachKind = z.infer<typeof ReachKind>;

export const ReachItem = z.object({
  kind: ReachKind,
  /** What exactly: the full command line, the address, the secret's or variable's name, the agent's name. */
  subject: z.string(),
  /** Why, in plain words: `the MCP server “files”`, `model “gpt”`, `the tool “Stock level”`. */
  because: z.string(),
  /** Where the org says so, relative to the org folder (shown under “Advanced”). */
  file: z.string(),
  /** The field in that file, when there is one: `mcpServers.files.command`. */
  field: z.string().optional(),
});
export type ReachItem = z.infer<typeof ReachItem>;

/** Everything the org could run, contact or name; `unreadable` lists files whose reach could not be read. */
export const OrgReach = z.object({
  items: z.array(ReachItem),
  /** Files that cannot be read (bad JSON, a YAML error): their raw text is in the fingerprint, and they are named here. */
  unreadable: z.array(z.object({ file: z.string(), message: z.string() })),
});
export type OrgReach = z.infer<typeof OrgReach>;

/**
 * - `not_needed`: the org starts no program, contacts no address and names no secret or variable;
 * - `trusted`: the person trusted exactly this reach (the fingerprint matches);
 * - `untrusted`: never trusted here (or trust was revoked);
 * - `changed`: trusted once, but what it can run or reach changed since (see `changes`).
 */
export const TrustState = z.enum(['not_needed', 'trusted', 'untrusted', 'changed']);
export type TrustState = z.infer<typeof TrustState>;

export const TrustChanges = z.object({ added: z.array(ReachItem), removed: z.array(ReachItem) });
export type TrustChanges = z.infer<typeof TrustChanges>;

/** What the person granted this org: secrets by name, environment variables by name. */
export const OrgGrants = z.object({
  secrets: z.array(SecretName),
  environment: z.array(z.string()),
});
export type OrgGrants = z.infer<typeof OrgGrants>;

/** Whether an org may run, and everything the person needs to decide. */
export const OrgTrust = z.object({
  /** The org's real path (links resolved): what the trust record is keyed by. */
  orgPath: z.string(),
  state: TrustState,
  /** sha256 (hex) of the reach; the trust record holds the one the person trusted. */
  fingerprint: z.string(),
  reach: OrgReach,
  /** ISO time the person trusted it; null when never (or revoked). */
  trustedAt: z.string().nullable(),
  /** What changed since the person trusted it: only when `state` is `changed`. */
  changes: TrustChanges.nullable(),
  grants: OrgGrants,
});
export type OrgTrust = z.infer<typeof OrgTrust>;

/** Trust the org as it is now (the fingerprint the person saw) and grant what they ticked. */
export const AcceptTrustInput = z
  .object({
    /** The fingerprint shown on the trust screen: trust is refused if the org changed since. */
    fingerprint: z.string().min(1),
    secrets: z.array(SecretName).default([]),
    environment: z.array(z.string().min(1)).default([]),
  })
  .strict();
export type AcceptTrustInput = z.infer<typeof AcceptTrustInput>;

/** Grant (or take back) one stored secret or environment variable for the open org. */
export const GrantInput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('secret'), name: SecretName, granted: z.boolean() }).strict(),
  z.object({ kind: z.literal('environment'), name: z.string().min(1), granted: z.boolean() }).strict(),
]);
export type GrantInput = z.infer<typeof GrantInput>;
