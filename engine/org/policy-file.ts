import { z } from 'zod';
import { TOOL_KINDS } from '../api/agent-schemas';
import { boundConfigFile, type ConfigFileSpec } from './config-file';

/** This app's org-level tool policy (docs/ARCHITECTURE.md, “Tools”); LeMMing ignores the file. */
export const POLICY_FILE = 'lemming/config/policy.json';

const names = (what: string) =>
  z.array(z.string({ error: `each entry of ${what} must be text` }), { error: `${what} must be a list` });

export const OrgPolicySchema = z.looseObject({
  tools: z
    .looseObject({
      /** Tools no agent of the org may have, whatever its resume grants. */
      deny: names('tools.deny').default([]),
    })
    .default({ deny: [] }),
  /** The kinds of tool agents may use at all. Network also needs `network.enabled`. */
  allowed_tool_kinds: z
    .array(z.enum(TOOL_KINDS, { error: `allowed_tool_kinds may hold only ${TOOL_KINDS.join(', ')}` }))
    .default([...TOOL_KINDS]),
  network: z
    .looseObject({
      /** Off unless the user turns it on: agents reach no network by default. */
      enabled: z.boolean({ error: 'network.enabled must be true or false' }).default(false),
      /** Named private hosts agents may reach (a local Ollama, a NAS); never an IP range. */
      private_hosts: names('network.private_hosts').default([]),
    })
    .default({ enabled: false, private_hosts: [] }),
  /** Credits charged for each call of a tool, by name. */
  tool_costs: z
    .record(
      z.string(),
      z.number({ error: 'each tool cost must be a number' }).nonnegative('a tool cost must not be negative'),
    )
    .default({}),
});
export type OrgPolicy = z.output<typeof OrgPolicySchema>;

export const DEFAULT_ORG_POLICY: OrgPolicy = OrgPolicySchema.parse({});

export const POLICY_SPEC: ConfigFileSpec<typeof OrgPolicySchema> = {
  file: POLICY_FILE,
  schema: OrgPolicySchema,
  defaultDocument: {},
};

/**
 * The org's policy (a missing file is the default policy: every kind but network, nothing denied), and
 * edits to it in place.
 */
export const { read: readPolicy, update: updatePolicy } = boundConfigFile(POLICY_SPEC);
