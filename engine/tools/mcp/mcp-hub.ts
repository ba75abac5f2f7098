import type { Problem } from '../../api/problem';
import { createHash } from 'node:crypto';
import type { McpServerStatuses, McpServerView, McpStatus } from '../../api/tool-schemas';
import type { OrgPolicy } from '../../org/policy-file';
import type { CatalogEntry } from '../tool-catalog';
import {
  isStdioServer,
  readMcpConfig,
  serverSecretNames,
  type McpEntry,
  type McpServerConfig,
} from './mcp-config';
import { McpServer, type McpServerDeps } from './mcp-server';
import {
  annotationsOf,
  invalidServerEntries,
  describeToolNameProblems,
  mcpCatalogEntries,
  mcpToolName,
  mcpToolOrigin,
  toolNameProblems,
} from './mcp-tools';
import { mcpServerIdentity, mcpStanding } from './mcp-tool-record';
import { READ_RESOURCE } from './mcp-resources';

export type McpHubDeps = Omit<McpServerDeps, 'privateHosts'>;

interface Held {
  server: McpServer;
  /** The config and private hosts it was started with: a change restarts it. */
  key: string;
  disabled: boolean;
  /** An HTTP server while the org's internet access is off: not started, so no agent reaches it. */
  networkOff: boolean;
}

/** A stdio server is the user's own program: said plainly on its card. */
export const STDIO_RIGHTS =
  "It runs as a program on this computer with your rights: it can read and change anything you can. It is not confined; it gets only the settings and secrets its entry names, and starts in the org folder. Turning the org's internet access off does not stop it: it is a program, and reaches whatever this computer can.";
const HTTP_RIGHTS =
  "It is reached over the network through the same checks as agent web requests: only while the org's internet access is on, and a server on this computer or your local network only when the org names its host in network.private_hosts.";

/**
 * The org's MCP servers (lemming/config/mcp.json) for one engine: started when a turn, a call or the
 * Tool Store needs them, kept while the run goes on, restarted when a config change asks for it, and
 * stopped with the run.
 */
export class McpHub {
  private readonly held = new Map<string, Held>();
  /** Servers asked to stop that have not ended yet: a quit that cannot wait ends them too. */
  private readonly stopping = new Set<McpServer>();
  /** Problems of mcp.json as a whole, as last read; its servers are left as they were while it cannot be read. */
  problems: Problem[] = [];
  /** Entries of mcp.json that are not valid: each is a card with its problems, and is not started. */
  private invalid: Extract<McpEntry, { valid: false }>[] = [];
  /** The org is not trusted as it is now: no server is started, and those running were stopped. */
  private untrusted = false;

  constructor(
    private readonly orgPath: string,
    private readonly deps: McpHubDeps,
  ) {}

  /**
   * Reads mcp.json and brings the servers in line: removed or changed ones stopped, new ones created,
   * every enabled one not yet started is started (waiting for each to run or fail, within its start timeout).
   * When the org is not trusted (`mayStart` false) every server is stopped and none is started: their
   * cards say so, with the tools they last listed.
   */
  async sync(policy: OrgPolicy, mayStart: boolean): Promise<void> {
    this.untrusted = !mayStart;
    if (!mayStart) await Promise.all([...this.held.values()].map((held) => held.server.stop()));
    const read = await readMcpConfig(this.orgPath);
    if (!read.ok) {
      this.problems = read.error;
      return;
    }
    this.invalid = read.value.entries.flatMap((entry) => (entry.valid ? [] : [entry]));
    this.problems = this.invalid
      .filter((entry) => Object.hasOwn(read.value.servers, entry.name))
      .flatMap((entry) => entry.problems);
    const wanted = new Map(Object.entries(read.value.servers));
    const stops: Promise<void>[] = [];
    for (const [name, held] of this.held) {
      const config = wanted.get(name);
      if (!config || this.keyOf(config, policy) !== held.key) {
        stops.push(held.server.stop());
        this.held.delete(name);
      } else held.disabled = config.disabled === true;
    }
    await Promise.all(stops);
    for (const [name, config] of wanted) {
      if (this.held.has(name)) continue;
      const server = new McpServer(name, config, {
        ...this.deps,
        privateHosts: policy.network.private_hosts,
      });
      this.held.set(name, {
        server,
        key: this.keyOf(config, policy),
        disabled: config.disabled === true,
        networkOff: networkOff(config, policy),
      });
    }
    if (!mayStart) return;
    // A server that failed stays failed until its entry or its secrets change or the run ends: retrying
    // it on every turn would cost its start timeout each time and say nothing new.
    await Promise.all(
      [...this.held.values()]
        .filter(
          (held) =>
            !held.disabled &&
            !held.networkOff &&
            (held.server.status === 'stopped' || held.server.status === 'starting'),
        )
        .map((held) => held.server.start()),
    );
    // A server that said its tools changed (during a call before this sync) is listed again first, so
    // a tool it renamed or added is in the catalog, and asks the person, rather than unknown.
    await Promise.all([...this.held.values()].map((held) => held.server.listsTaken()));
  }

  /** The MCP tools an agent could have, judged ready while their server runs. */
  catalogEntries(grants: readonly string[]): CatalogEntry[] {
    return [
      ...mcpCatalogEntries(
        [...this.held.values()].map(({ server, disabled, networkOff }) => ({
          server,
          disabled,
          untrusted: this.untrusted,
          networkOff,
        })),
        grants,
      ),
      ...this.invalid
        .filter((entry) => !this.held.has(entry.name))
        .flatMap((entry) => invalidServerEntries(entry.name, entry.problems, grants)),
    ];
  }

  views(): McpServerView[] {
    // A name listed twice is the running server's card; the second entry's problem is the file's.
    return [
      ...[...this.held.values()].map((held) => this.viewOf(held)),
      ...this.invalid.filter((entry) => !this.held.has(entry.name)).map(invalidView),
    ];
  }

  /** What each server is doing, by name: its card's status without the rest of the card (cheap). */
  statuses(): McpServerStatuses['servers'] {
    return [...this.held.values()].map((held) => ({ name: held.server.name, status: this.statusOf(held) }));
  }

  private statusOf({ server, disabled, networkOff }: Omit<Held, 'key'>): McpStatus {
    if (disabled) return 'disabled';
    if (this.untrusted) return 'not_trusted';
    return networkOff ? 'network_off' : server.status;
  }

  private viewOf({ server, disabled, networkOff }: Held): McpServerView {
    const record = this.deps.serverRecord?.(server.identity);
    return {
      server: server.name,
      identity: server.identity,
      hintsTrusted: record?.hintsTrusted ?? false,
      samplingAllowed: record?.samplingAllowed === true,
      transport: isStdioServer(server.config) ? 'stdio' : 'http',
      target: isStdioServer(server.config)
        ? [server.config.command, ...server.config.args].join(' ')
        : server.config.url,
      status: this.statusOf({ server, disabled, networkOff }),
      error: this.untrusted || networkOff ? null : server.error,
      tools: server.tools.map((tool) => ({
        name: tool.name,
        grantName: mcpToolName(server.name, tool.name),
        description: tool.description ?? '',
        inputSchema: tool.inputSchema as Record<string, unknown>,
        annotations: annotationsOf(tool),
        changes: mcpStanding(record, mcpToolOrigin(server.identity, tool)).changes,
      })),
      happenings: [...server.happenings],
      problems: describeToolNameProblems(toolNameProblems(server.name, server.tools)),
      entryProblems: [],
      rights: isStdioServer(server.config) ? STDIO_RIGHTS : HTTP_RIGHTS,
      prompts: server.prompts.map((prompt) => ({
        name: prompt.name,
        ...(prompt.title ? { title: prompt.title } : {}),
        description: prompt.description ?? '',
        arguments: (prompt.arguments ?? []).map((argument) => ({
          name: argument.name,
          ...(argument.description ? { description: argument.description } : {}),
          required: argument.required ?? false,
        })),
      })),
      ...(server.offersResources ? { resourceTool: mcpToolName(server.name, READ_RESOURCE) } : {}),
      signIn: server.signIn,
    };
  }

  /**
   * The person signs in to one HTTP server (its page opened with `open`), which then starts with the
   * new tokens. Refused while the org is not trusted, the server is off or network access is off.
   */
  async signIn(name: string, open: (url: URL) => Promise<void>): Promise<void> {
    const held = this.held.get(name);
    if (!held) throw new Error(`there is no MCP server "${name}" in this org`);
    if (this.untrusted) throw new Error('the org is not trusted as it is now: trust it first');
    if (held.disabled) throw new Error(`${name} is turned off`);
    if (held.networkOff) throw new Error("the org's internet access is off: turn it on first");
    await held.server.signInAndStart(open);
  }

  /** Secrets each server names, for the card (presence only). */
  serverConfigs(): { name: string; config: McpServerConfig }[] {
    return [...this.held.values()].map(({ server }) => ({ name: server.name, config: server.config }));
  }

  /**
   * What a server was started with: its entry, the private hosts an HTTP server may be at, a
   * fingerprint of the secrets it names and whether the org may use them (kept in memory only), and
   * whether the person lets it ask their models (it is told as it starts), so changing any restarts it.
   */
  private keyOf(config: McpServerConfig, policy: OrgPolicy): string {
    const { disabled: _disabled, ...rest } = config;
    const secrets = createHash('sha256')
      .update(
        JSON.stringify(
          serverSecretNames(config).map((name) => [
            name,
            this.deps.secret(name) ?? null,
            this.deps.refusal('secret', name) !== null,
          ]),
        ),
      )
      .digest('hex');
    return JSON.stringify({
      ...rest,
      secrets,
      samplingAllowed: this.deps.serverRecord?.(mcpServerIdentity(config))?.samplingAllowed === true,
      ...(isStdioServer(config)
        ? {}
        : { privateHosts: policy.network.private_hosts, network: policy.network.enabled }),
    });
  }

  /** Ends every server's program at once: the app quits and cannot wait for them to close. */
  killAll(): void {
    for (const { server } of this.held.values()) server.kill();
    for (const server of this.stopping) server.kill();
  }

  /** Stops every server (the run stopped, or the engine closes); the next sync starts them again. */
  async stopAll(): Promise<void> {
    const servers = [...this.held.values()].map(({ server }) => server);
    this.held.clear();
    for (const server of servers) this.stopping.add(server);
    await Promise.all(servers.map((server) => server.stop().finally(() => this.stopping.delete(server))));
  }
}

/** The card of an entry that is not valid: not started, its problems located, nothing claimed about what it is. */
function invalidView(entry: Extract<McpEntry, { valid: false }>): McpServerView {
  return {
    server: entry.name,
    identity: '',
    hintsTrusted: false,
    samplingAllowed: false,
    transport: entry.looksLike === 'program' ? 'stdio' : 'http',
    target: entry.target,
    signIn: null,
    status: 'failed',
    error: `it was not started: its settings have ${entry.problems.length === 1 ? 'a problem' : `${entry.problems.length} problems`}`,
    tools: [],
    happenings: [],
    problems: [],
    entryProblems: entry.problems,
    rights: 'Nothing of it runs or is reached until its settings are corrected.',
  };
}

/**
 * An HTTP server is a network tool: while the org's internet access is off it is not started. A stdio
 * server is a program the person runs, which the switch does not govern (its card says so).
 */
function networkOff(config: McpServerConfig, policy: OrgPolicy): boolean {
  return !isStdioServer(config) && !policy.network.enabled;
}
