import { z } from 'zod';
import { ToolKind } from './agent-schemas';
import { AgentProblem } from './schemas';

/**
 * The layers a tool passes on its way to the model, in order (docs/ARCHITECTURE.md, “Tools”). `delegate` is judged
 * only for a composed tool that calls a registered tool (a primitive such as shell): that tool must be
 * available to the agent too, by its own grant or an explicit "<tool> via <primitive>" grant.
 */
export const PolicyLayer = z.enum(['allowlist', 'org_deny', 'kind', 'delegate', 'readiness', 'credits']);
export type PolicyLayer = z.infer<typeof PolicyLayer>;

/** One change that gets a tool past one layer. */
export const PolicyChange = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('grant_tool'), tool: z.string() }),
  z.object({ kind: z.literal('undeny_tool'), tool: z.string() }),
  z.object({ kind: z.literal('allow_org_kind'), toolKind: ToolKind }),
  z.object({ kind: z.literal('enable_network') }),
  z.object({ kind: z.literal('allow_agent_kind'), toolKind: ToolKind }),
  z.object({ kind: z.literal('top_up_credits') }),
  z.object({ kind: z.literal('make_ready'), instructions: z.string() }),
]);
export type PolicyChange = z.infer<typeof PolicyChange>;

/**
 * What an MCP server says about one of its tools (the MCP spec's ToolAnnotations): hints, not
 * guarantees. Carried on the tool's descriptor (ToolSpec.annotations) so approval defaults can ask
 * before a destructive or open-world call.
 */
export const ToolAnnotations = z.object({
  title: z.string().optional(),
  readOnlyHint: z.boolean().optional(),
  destructiveHint: z.boolean().optional(),
  idempotentHint: z.boolean().optional(),
  openWorldHint: z.boolean().optional(),
});
export type ToolAnnotations = z.infer<typeof ToolAnnotations>;

/**
 * One MCP tool as it was seen (docs/ARCHITECTURE.md, “Approvals”): what its server claims about it and
 * sha256 hashes (hex) of its description and of its input schema as canonical JSON: enough to tell
 * that it changed since the person chose how it runs.
 */
export const McpToolVersion = z.object({
  annotations: ToolAnnotations,
  description: z.string(),
  inputSchema: z.string(),
});
export type McpToolVersion = z.infer<typeof McpToolVersion>;

/**
 * Where an MCP tool comes from: its server's identity (what the server is: its command line, or its
 * URL; not its mcp.json key), the tool's name there, and the tool as it is now.
 */
export const McpToolOrigin = z.object({ server: z.string(), name: z.string(), version: McpToolVersion });
export type McpToolOrigin = z.infer<typeof McpToolOrigin>;

/**
 * The built-in call a wrapper ends in (the shell, a web request with its method, a file tool) and the
 * composed tools it runs on the way: the approval rule judges that call and counts the settings of
 * each, so a wrapper never asks less than what it runs.
 */
export const ApprovalTarget = z.object({
  name: z.string(),
  kind: ToolKind,
  method: z.string().optional(),
  /** The method-override headers its request carries (X-HTTP-Method-Override…), '' for a templated value. */
  headers: z.record(z.string(), z.string()).optional(),
  /** The composed tools between the wrapper and the call, in order. */
  through: z.array(z.string()).optional(),
});
export type ApprovalTarget = z.infer<typeof ApprovalTarget>;

/** The policy resolver's verdict on one tool for one agent: what the explainer shows. */
export const ToolVerdict = z.object({
  name: z.string(),
  kind: ToolKind,
  title: z.string(),
  available: z.boolean(),
  /**
   * `plain` is the verdict in words for people (what the app shows); `reason` is the technical form with the
   * files and fields it comes from (what `lemming tools` prints, and the app keeps under "Advanced").
   */
  layers: z.array(
    z.object({ layer: PolicyLayer, passed: z.boolean(), reason: z.string(), plain: z.string() }),
  ),
  /**
   * The smallest set of changes that makes the tool available; null when available or when none exists.
   * `summary` names the files and fields it changes; `plain` says the same for people.
   */
  fix: z.object({ changes: z.array(PolicyChange), summary: z.string(), plain: z.string() }).nullable(),
  note: z.string().optional(),
  /** The note in words for people, when the note itself is technical (how the shell is confined). */
  plainNote: z.string().optional(),
  /** What the tool's descriptor says for the approval rule: an MCP tool's hints, a composed tool's end. */
  annotations: ToolAnnotations.optional(),
  endsIn: ApprovalTarget.optional(),
  /** For an MCP tool: its server's identity and the tool as it is now, for the person's own approval choices. */
  mcpTool: McpToolOrigin.optional(),
  /** The engine's own tool that only reads (an MCP server's resources): the built-in rule does not ask. */
  onlyReads: z.literal(true).optional(),
});
export type ToolVerdict = z.infer<typeof ToolVerdict>;

export const ToolRef = z
  .object({ agent: z.string().min(1).max(256), tool: z.string().min(1).max(200) })
  .strict();

/** Applying a fix; a fix that changes the whole org (orgWideChange) is refused until the user has agreed to it. */
export const ApplyFixInput = ToolRef.extend({ confirmOrgWide: z.boolean().optional() }).strict();

/**
 * What a change does to every agent of the org, in plain words, or null when it touches only the one agent.
 * Such a change is never made without asking first.
 */
export function orgWideChange(change: PolicyChange): string | null {
  switch (change.kind) {
    case 'enable_network':
      return 'turns network access on for the whole org: every agent given a web tool can then reach the internet';
    case 'allow_org_kind':
      return `allows ${change.toolKind} tools for the whole org: every agent given one can then use it`;
    case 'undeny_tool':
      return `stops forbidding "${change.tool}" to every agent of the org`;
    default:
      return null;
  }
}

export const ToolsExplanation = z.object({ agent: z.string(), tools: z.array(ToolVerdict) });

export const AppliedFix = z.object({
  /** Changes written to the org's files. */
  applied: z.array(PolicyChange),
  /** Changes only the user can make (a top-up amount, a connector setting), each in words. */
  needsUser: z.array(z.object({ change: PolicyChange, summary: z.string(), plain: z.string() })),
  /** The tool's verdict after the changes. */
  tool: ToolVerdict,
});

export const SetEnabledInput = ToolRef.extend({ enabled: z.boolean() }).strict();

export const SetEnabledResult = z.object({
  tool: ToolVerdict,
  /** The agent's permissions.tools after the change. */
  grants: z.array(z.string()),
});

export const CatalogTool = z.object({
  name: z.string(),
  kind: ToolKind,
  title: z.string(),
  description: z.string(),
  /** Entries of permissions.tools that grant it: its name, its group, LeMMing aliases. */
  grantedBy: z.array(z.string()),
  /** What the org and the agent must allow for it, naming the files and fields (shown under "Advanced"). */
  requiredPermissions: z.array(z.string()),
  /** The same, in words for people. */
  plainNeeds: z.array(z.string()),
  source: z.enum(['built_in', 'connector']),
});
export type CatalogTool = z.infer<typeof CatalogTool>;

export const ToolsCatalog = z.object({
  tools: z.array(CatalogTool),
  /** Per valid agent: the tools its resume grants, and those that reach its model. */
  grants: z.array(
    z.object({ agent: z.string(), enabled: z.array(z.string()), available: z.array(z.string()) }),
  ),
});
export type ToolsCatalog = z.infer<typeof ToolsCatalog>;

/** One tool of an MCP server, as its card shows it. */
export const McpToolView = z.object({
  /** The name the server gives it. */
  name: z.string(),
  /** The name agents and grants use: `mcp__<server>__<tool>`. */
  grantName: z.string(),
  description: z.string(),
  inputSchema: z.record(z.string(), z.unknown()),
  annotations: ToolAnnotations,
  /**
   * What changed since the person chose how it runs (or since it was first seen here), in plain
   * sentences; empty when nothing did. A changed tool asks before every call until the person chooses again.
   */
  changes: z.array(z.string()),
});
export type McpToolView = z.infer<typeof McpToolView>;

/** A prompt an MCP server offers (a template a person could start a conversation with), as its card lists it. */
export const McpPromptView = z.object({
  name: z.string(),
  title: z.string().optional(),
  description: z.string(),
  arguments: z.array(
    z.object({ name: z.string(), description: z.string().optional(), required: z.boolean() }),
  ),
});
export type McpPromptView = z.infer<typeof McpPromptView>;

/**
 * What an MCP server is doing, as its card says. `not_trusted`: not started, because the org is not
 * trusted as it is now (docs/ARCHITECTURE.md, “Trust”); `network_off`: an HTTP server not started,
 * because the org's internet access is off; `needs_sign_in`: an HTTP server that waits for the person to
 * sign in (`connectors.signIn`).
 */
export const McpStatus = z.enum([
  'stopped',
  'starting',
  'running',
  'restarting',
  'failed',
  'disabled',
  'not_trusted',
  'network_off',
  'needs_sign_in',
]);
export type McpStatus = z.infer<typeof McpStatus>;

/** The open org's MCP servers by name with what each is doing (the `mcp.statuses` push). */
export const McpServerStatuses = z.object({
  servers: z.array(z.object({ name: z.string(), status: McpStatus })),
});
export type McpServerStatuses = z.infer<typeof McpServerStatuses>;

/** An MCP server's live state for its connector card. */
export const McpServerView = z.object({
  server: z.string(),
  /** What the server is (its command line, or its URL): the person's choices about it are kept under this. */
  identity: z.string(),
  /**
   * Whether the person trusts what this server says about which of its tools only read (off unless
   * they turned it on): only then do its tools' hints decide whether a call asks first.
   */
  hintsTrusted: z.boolean(),
  /**
   * Whether the person lets this server ask the models of the agents using it (MCP sampling; off unless
   * they turned it on). Only such a server is told, as it starts, that it may ask.
   */
  samplingAllowed: z.boolean(),
  transport: z.enum(['stdio', 'http']),
  /** For stdio, the program and its arguments; for HTTP, the URL (no header values). */
  target: z.string(),
  status: McpStatus,
  error: z.string().nullable(),
  tools: z.array(McpToolView),
  /** Started, crashed, restarted, failed: newest last. */
  happenings: z.array(z.object({ time: z.string(), message: z.string() })),
  /** What is wrong with its tool list, in words naming its own tool names (tools agents could not tell apart). */
  problems: z.array(z.string()),
  /**
   * What is wrong with its entry in mcp.json (file, field, line): such a server is not started, and the
   * other servers are not held up by it.
   */
  entryProblems: z.array(AgentProblem),
  /** In plain words: what the server can reach (a stdio server runs with the user's rights, unconfined). */
  rights: z.string(),
  /** The prompts it offers, as it listed them when it started. */
  prompts: z.array(McpPromptView).optional(),
  /** When it offers resources: the tool agents read them with (granted by name or with the server's group). */
  resourceTool: z.string().optional(),
  /**
   * An HTTP server's sign-in (OAuth): whether someone is signed in, and who when the token says; `byPerson`
   * false when the app signs in by itself (client credentials). Null when the server never asked for one.
   */
  signIn: z
    .object({ signedIn: z.boolean(), subject: z.string().nullable(), byPerson: z.boolean() })
    .nullable(),
});
export type McpServerView = z.infer<typeof McpServerView>;

/** Something that must be true for a connector's tools to reach an agent. */
export const ConnectorPermission = z.object({
  /** `org`: a setting of lemming/config/policy.json; `agent`: something each agent's resume must say. */
  scope: z.enum(['org', 'agent']),
  requirement: z.string(),
  /** The requirement in words for people; `requirement` names the file and field (shown under "Advanced"). */
  plain: z.string().optional(),
  /** Whether the org meets an org requirement now; null for agent requirements (see grantedTo). */
  met: z.boolean().nullable(),
});
export type ConnectorPermission = z.infer<typeof ConnectorPermission>;

/** A secret a connector needs: whether it is set, never its value. */
export const ConnectorSecret = z.object({ name: z.string(), description: z.string(), isSet: z.boolean() });
export type ConnectorSecret = z.infer<typeof ConnectorSecret>;

/** The same shape as a catalog entry's readiness: the policy resolver's readiness layer. */
export const ConnectorReadiness = z.discriminatedUnion('ready', [
  z.object({ ready: z.literal(true), note: z.string().optional(), plainNote: z.string().optional() }),
  z.object({
    ready: z.literal(false),
    reason: z.string(),
    fix: z.string(),
    /** Why and the fix in words for people, when `reason` and `fix` name files and fields. */
    plain: z.object({ reason: z.string(), fix: z.string() }).optional(),
  }),
]);
export type ConnectorReadiness = z.infer<typeof ConnectorReadiness>;

/** Where a connector's settings live: a part of the org's policy.json, or nowhere (it has none). */
export const ConnectorConfigLocation = z.object({ file: z.string(), pointer: z.string() }).nullable();

/** How a REST API connector sends its key: `Authorization: Bearer`, a header of its own, a query parameter, or not at all. */
export const RestAuthStyle = z.enum(['bearer', 'header', 'query', 'none']);
export type RestAuthStyle = z.infer<typeof RestAuthStyle>;

/** A REST API connector's settings as its drawer shows them; the key only as whether it is set. */
export const RestApiView = z.object({
  name: z.string(),
  baseUrl: z.string(),
  description: z.string(),
  authStyle: RestAuthStyle,
  /** The header or query parameter name, for the `header` and `query` styles. */
  authName: z.string().nullable(),
  methods: z.array(z.string()),
  /** The secret that holds the key; null for a public API. */
  keySecret: z.string().nullable(),
  /** The one host (and port) its tool may reach. */
  host: z.string(),
});
export type RestApiView = z.infer<typeof RestApiView>;

/**
 * Adds or changes a REST API connector. `apiKey` goes to the secret store and is never returned;
 * left out, the stored key is kept. Problems come back located at these field names.
 */
export const RestApiInput = z
  .object({
    name: z.string().max(200),
    baseUrl: z.string().max(2000),
    description: z.string().max(2000).optional(),
    authStyle: RestAuthStyle,
    authName: z.string().max(200).optional(),
    methods: z
      .array(z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']))
      .min(1)
      .max(5),
    apiKey: z.string().max(8192).optional(),
    /**
     * The settings the drawer showed when it opened (absent for a new API). When the file says
     * something else now, someone changed it meanwhile, and nothing is written over their change.
     */
    opened: RestApiView.pick({
      baseUrl: true,
      description: true,
      authStyle: true,
      authName: true,
      methods: true,
    })
      .strict()
      .optional(),
  })
  .strict();

export const RestApiRef = z.object({ name: z.string().min(1).max(200) }).strict();
export const RestApiRemoved = z.object({ name: z.string(), removed: z.boolean() });

/** A Tool Store entry as the connector catalog builds it (docs/ARCHITECTURE.md, “Tools”): a built-in primitive group or a composed tool. */
export const CatalogConnector = z.object({
  /** `builtin:<group>`, `mcp:<server>`, `rest:<api>`, `composed:org:<tool>` / `composed:agent:<folder>:<tool>`, or `file:<path>` for a tool file that failed to load. */
  id: z.string(),
  name: z.string(),
  description: z.string(),
  kind: z.enum(['builtin', 'composed', 'mcp', 'rest']),
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
  /** For an MCP server (`mcp:<server>`): its live state, tools and what happened to it. */
  mcp: McpServerView.optional(),
  /** For a REST API (`rest:<name>`): its settings, for its drawer. */
  restApi: RestApiView.optional(),
});
export type CatalogConnector = z.infer<typeof CatalogConnector>;

/** An MCP server's entry as its edit form shows it: names of its values and whether each is set, never a value. */
export const McpEntryView = z.object({
  /** Changes whenever the entry in the file does. */
  revision: z.string(),
  target: z.discriminatedUnion('kind', [
    z.object({
      kind: z.literal('program'),
      command: z.string(),
      args: z.array(z.string()),
      env: z.array(z.object({ name: z.string(), isSet: z.boolean() })),
    }),
    z.object({
      kind: z.literal('address'),
      url: z.string(),
      headers: z.array(z.object({ name: z.string(), isSet: z.boolean() })),
    }),
  ]),
});
export type McpEntryView = z.infer<typeof McpEntryView>;

/** A connector as the Tool Store shows it: the catalog entry and the current values of its settings. */
export const Connector = CatalogConnector.extend({
  /**
   * Whether its tools can work in this org at all, by the policy resolver (org deny list, tool kinds,
   * network, setup); `readiness` is its setup alone. A card says "Ready" only when this is.
   */
  usable: ConnectorReadiness,
  /** The current values of its settings (never secrets); empty when it has none. */
  settings: z.record(z.string(), z.unknown()),
  /** For an MCP server: its entry in mcp.json, for its edit form. */
  mcpEntry: McpEntryView.optional(),
});
export type Connector = z.infer<typeof Connector>;

export const ConnectorList = z.object({
  connectors: z.array(Connector),
  /** Tool files that did not load, each problem located in its file. */
  loadErrors: z.array(AgentProblem),
});

const SettingValue = z.union([
  z.string().max(65_536),
  z.number().finite(),
  z.boolean(),
  z.array(z.string().max(4096)).max(1000),
  z.null(),
]);

export const ConnectorConfigInput = z
  .object({
    /** The connector's id. */
    connector: z.string().min(1).max(500),
    /**
     * New values by field. A secret's value goes to the secret store and is never returned (null
     * deletes it); a setting goes to the file the connector names (null removes it).
     */
    values: z
      .record(z.string().min(1).max(200), SettingValue)
      .refine((values) => Object.keys(values).length > 0, 'Give at least one value.'),
  })
  .strict();

/** Apps whose MCP servers can be imported (their config files, where each keeps them on this OS). */
/**
 * Trust (or stop trusting) what one MCP server of the open org says about its tools. `identity` is
 * what the card showed: when the entry now runs something else, nothing is recorded.
 */
export const TrustMcpHintsInput = z
  .object({
    server: z.string().min(1).max(500),
    identity: z.string().min(1).max(65_536),
    trusted: z.boolean(),
  })
  .strict();
export type TrustMcpHintsInput = z.infer<typeof TrustMcpHintsInput>;

/** The most questions one tool call may have its MCP server ask a model: a server asking in a loop cannot drain an agent's credits. */
export const MCP_QUESTIONS_PER_CALL = 3;

/**
 * Let (or stop letting) one MCP server of the open org ask the models of the agents using it.
 * `identity` is what the card showed: when the entry now runs something else, nothing is recorded.
 */
export const AllowMcpSamplingInput = z
  .object({
    server: z.string().min(1).max(500),
    identity: z.string().min(1).max(65_536),
    allowed: z.boolean(),
  })
  .strict();
export type AllowMcpSamplingInput = z.infer<typeof AllowMcpSamplingInput>;

/** The person signs in to one of the org's MCP servers over HTTP (its sign-in page opens in their browser). */
export const McpSignInInput = z.object({ server: z.string().min(1).max(500) }).strict();
export type McpSignInInput = z.infer<typeof McpSignInInput>;

export const McpImportSource = z.enum(['claude', 'cursor']);
export type McpImportSource = z.infer<typeof McpImportSource>;

export const McpImportInput = z
  .object({
    from: McpImportSource,
    /** Stored secrets the person agreed the import may replace; any other one stops the import (`needs_confirmation`). */
    replaceSecrets: z.array(z.string().min(1).max(128)).max(1000).optional(),
  })
  .strict();

/** What an import did: the servers added to mcp.json, the secrets stored for them (names only), what was left out. */
export const McpImportResult = z.object({
  file: z.string(),
  imported: z.array(z.string()),
  secrets: z.array(z.string()),
  skipped: z.array(z.object({ name: z.string(), reason: z.string() })),
  /**
   * Secrets the imported entries name whose values were not in the file (VS Code's `${input:…}`, which
   * VS Code asks for): the person sets each (its description is the input's own), or the server does not start.
   */
  toAsk: z.array(z.object({ server: z.string(), name: z.string(), description: z.string() })),
});
export type McpImportResult = z.infer<typeof McpImportResult>;

/**
 * One environment value or header of an MCP server the person adds or edits. The value goes to the secret
 * store, never into mcp.json and never back; left out when editing, the one the server has is kept.
 */
export const McpSecretRow = z
  .object({ name: z.string().max(200), value: z.string().max(65_536).optional() })
  .strict();
export type McpSecretRow = z.infer<typeof McpSecretRow>;

/** What an MCP server is: a program started on this computer, or a server reached at an address. */
export const McpServerTarget = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('program'),
      command: z.string().max(4096),
      args: z.array(z.string().max(4096)).max(200),
      env: z.array(McpSecretRow).max(100),
    })
    .strict(),
  z
    .object({
      kind: z.literal('address'),
      url: z.string().max(4096),
      headers: z.array(McpSecretRow).max(100),
    })
    .strict(),
]);
export type McpServerTarget = z.infer<typeof McpServerTarget>;

/**
 * Adds an MCP server to the org's mcp.json, or (with `opened`) changes one. Problems come back located
 * at these field names (`name`, `command`, `args.0`, `env.1.name`, `url`, `headers.0.value`…).
 */
export const McpServerInput = z
  .object({
    name: z.string().max(200),
    target: McpServerTarget,
    /**
     * The entry's revision when its form opened (absent for a new server). When the file says something
     * else now, someone changed it meanwhile, and nothing is written over their change.
     */
    opened: z
      .object({ revision: z.string().min(1).max(200) })
      .strict()
      .optional(),
    /** The person agreed to replace the server of that name the org has (a new server only). */
    replace: z.boolean().optional(),
    /** Stored secrets the person agreed may be replaced; any other one stops the change (`needs_confirmation`). */
    replaceSecrets: z.array(z.string().min(1).max(128)).max(1000).optional(),
  })
  .strict();
export type McpServerInput = z.infer<typeof McpServerInput>;

/**
 * MCP servers pasted as JSON (or read from a file the person picked) in any spelling other apps write:
 * Claude Desktop's and Cursor's `mcpServers`, VS Code's `servers`, LM Studio's.
 */
export const McpPasteInput = z
  .object({
    text: z.string().max(1_048_576),
    /** Servers of the org the person agreed the pasted ones of the same name replace. */
    replaceServers: z.array(z.string().min(1).max(200)).max(1000).optional(),
    replaceSecrets: z.array(z.string().min(1).max(128)).max(1000).optional(),
  })
  .strict();
export type McpPasteInput = z.infer<typeof McpPasteInput>;

/** What pasting did: the servers added, the secrets stored for them (names only), what was left out. */
export const McpPasteResult = McpImportResult.omit({ file: true });
export type McpPasteResult = z.infer<typeof McpPasteResult>;

export const McpServerRef = z.object({ name: z.string().min(1).max(200) }).strict();

/** What removing a server did: the secrets removed with it (those named for it that no other server uses). */
export const McpServerRemoved = z.object({ name: z.string(), secretsDeleted: z.array(z.string()) });
export type McpServerRemoved = z.infer<typeof McpServerRemoved>;
