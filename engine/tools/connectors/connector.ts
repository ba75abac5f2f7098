import { z } from 'zod';
import { ToolKind } from '../tool-spec';

/** Something that must be true for a connector's tools to reach an agent. */
export const ConnectorPermission = z.object({
  /** `org`: a setting of lemming/config/policy.json; `agent`: something each agent's resume must say. */
  scope: z.enum(['org', 'agent']),
  requirement: z.string(),
  /** Whether the org meets an org requirement now; null for agent requirements (see grantedTo). */
  met: z.boolean().nullable(),
});
export type ConnectorPermission = z.infer<typeof ConnectorPermission>;

/** A secret a connector needs; whether it is set is known without reading its value. */
export const ConnectorSecret = z.object({ name: z.string(), description: z.string(), isSet: z.boolean() });
export type ConnectorSecret = z.infer<typeof ConnectorSecret>;

/** The same shape as a catalog entry's readiness: the policy resolver's readiness layer. */
export const ConnectorReadiness = z.discriminatedUnion('ready', [
  z.object({ ready: z.literal(true), note: z.string().optional() }),
  z.object({ ready: z.literal(false), reason: z.string(), fix: z.string() }),
]);
export type ConnectorReadiness = z.infer<typeof ConnectorReadiness>;

/** Where a connector's settings live: a part of the org's policy.json, or nowhere (it has none). */
export const ConnectorConfigLocation = z.object({ file: z.string(), pointer: z.string() }).nullable();

/** A Tool Store entry (DESIGN.md §4.3): a built-in primitive group or a composed tool. */
export const Connector = z.object({
  /** `builtin:<group>`, `composed:org:<tool>` / `composed:agent:<folder>:<tool>`, or `file:<path>` for a tool file that failed to load. */
  id: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(['builtin', 'composed']),
  toolKinds: z.array(ToolKind),
  tools: z.array(z.string()),
  permissions: z.array(ConnectorPermission),
  /** JSON Schema of its settings form; secret fields are marked `writeOnly`. */
  configSchema: z.record(z.string(), z.unknown()),
  config: ConnectorConfigLocation,
  secrets: z.array(ConnectorSecret),
  readiness: ConnectorReadiness,
  /** For a composed tool: its YAML file (relative to the org) and, for an agent's own tool, the agent's folder. */
  source: z.object({ file: z.string(), agent: z.string().nullable() }).nullable(),
  /** Agents whose permissions.tools grant any of its tools. */
  grantedTo: z.array(z.string()),
});
export type Connector = z.infer<typeof Connector>;
