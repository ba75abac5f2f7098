import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ErrorCode,
  ListRootsRequestSchema,
  McpError,
  type CallToolResult,
  type CreateMessageRequestParams,
  type CreateMessageResult,
  type ElicitRequestFormParams,
  type Prompt,
  type ReadResourceResult,
  type Resource,
  type ResourceTemplate,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { mkdir } from 'node:fs/promises';
import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Readable } from 'node:stream';
import type { Failure } from '../../api/failure';
import { checkedFetch, type CheckedFetch } from '../../net/checked-fetch';
import type { AddressClassifier } from '../../net/address-policy';
import type { HostLookup } from '../../net/host-lookup';
import { allNotGranted, describeNotGranted, type GrantRefusal } from '../../api/grant-refusal';
import { fillSecrets, isStdioServer, serverSecretNames, type McpServerConfig } from './mcp-config';
import type { McpServerRecord } from '../../api/approval-schemas';
import { elicitResult, formRequest, formTooLarge, UNATTENDED_FORM, type AskPerson } from './mcp-elicitation';
import { MCP_QUESTIONS_PER_CALL } from '../../api/tool-schemas';
import {
  notAllowedReason,
  OUTSIDE_A_CALL,
  OUTSIDE_A_TURN,
  QuestionDeclined,
  samplingResult,
  serverQuestion,
  SEVERAL_CALLS,
  TOO_MANY_QUESTIONS,
  type ModelAsker,
} from './mcp-sampling';
import { offeredRoots } from './mcp-roots';
import { mcpServerIdentity } from './mcp-tool-record';
import {
  describeHttpRefusal,
  httpTransportTries,
  triesLegacySseNext,
  type HttpTransportTry,
} from './mcp-transport';
import type { McpSignInStore } from './auth/mcp-sign-in-store';
import { McpSignIn, type SignInView } from './auth/mcp-sign-in';

/** What one server is doing now, as its card shows it. */
export type McpServerStatus = 'stopped' | 'starting' | 'running' | 'restarting' | 'failed' | 'needs_sign_in';

/** One thing that happened to a server (started, crashed, restarted, gave up), newest last. */
export interface McpServerHappening {
  time: string;
  message: string;
}

export interface McpServerDeps {
  orgPath: string;
  /** A secret's value by name (for `${secrets.NAME}` in env and headers), when the org may use it. */
  secret: (name: string) => string | undefined;
  /** Which secret an entry names is refused to the org: the server is then not started. */
  refusal: GrantRefusal;
  /** Removes secret values from text the server wrote (its errors, its stderr). */
  redact: (text: string) => string;
  /** The org's private hosts (network.private_hosts): the only private or loopback hosts an HTTP server may be at. */
  privateHosts: readonly string[];
  lookup?: HostLookup;
  classifyAddress?: AddressClassifier;
  /** The person's record of a server of this org, by its identity (kept outside the org); undefined when none. */
  serverRecord?: (identity: string) => McpServerRecord | undefined;
  /** Called when status, tools or happenings change (a card to redraw). */
  onChange?: () => void;
  /**
   * Told each list of tools the server gives (at start and on tools/list_changed) before any of them
   * can be called, so the person's record knows every tool as first seen. Must not throw.
   */
  toolsListed?: (server: McpServer, tools: readonly Tool[]) => Promise<void>;
  clock?: () => Date;
  /** Where an HTTP server's sign-in (tokens, client registration) is kept for this org; none: no sign-in. */
  signInStore?: (server: string) => McpSignInStore;
  /** Restarts after a crash, with the delay doubling from `restartDelayMs`; then the server is failed. */
  maxRestarts?: number;
  restartDelayMs?: number;
}

const STDERR_KEPT = 4096;
/** The SDK's own request timeout, out of the way: a call keeps its own clock (paused while a form is asked). */
const NO_SDK_TIMEOUT = 2_147_483_647;

/**
 * A call being sent: aborted at once when an answer passes the byte cap; who to ask when the server asks
 * for a form, and whose model answers when it asks a question (and how many it asked so far).
 */
interface CallInFlight {
  tooLarge: AbortController;
  askPerson: AskPerson | undefined;
  askModel: ModelAsker | undefined;
  questions: number;
}

/** Who a call may turn to while it runs: the person (a form), the model of the agent that made it (a question). */
export interface CallHelpers {
  signal?: AbortSignal | undefined;
  askPerson?: AskPerson | undefined;
  askModel?: ModelAsker | undefined;
}
const HAPPENINGS_KEPT = 20;

/**
 * One MCP server of the org, on the official SDK's client: started (a program over stdio, or a
 * Streamable HTTP server through the SSRF-safe fetch), its tools listed and kept current
 * (tools/list_changed), restarted with backoff when it crashes, stopped with the run.
 */
export class McpServer {
  status: McpServerStatus = 'stopped';
  error: string | null = null;
  tools: Tool[] = [];
  /** Whether it offers resources (agents read them through its `read_resource` tool). */
  offersResources = false;
  /** The prompts it offers, as it listed them when it started (shown on its card). */
  prompts: Prompt[] = [];
  readonly happenings: McpServerHappening[] = [];
  private client: Client | null = null;
  private transport: Transport | null = null;
  private fetcher: CheckedFetch | null = null;
  private starting: Promise<void> | null = null;
  /** The transport of a start in progress, until it runs or has failed. */
  private startingTransport: Transport | null = null;
  private stopping = false;
  private restarts = 0;
  private restartTimer: NodeJS.Timeout | null = null;
  private stderrTail = '';
  /**
   * The call whose requests are being sent: an answer past the byte cap aborts that call at once with
   * the reason, rather than leaving it to its timeout (a stream that broke is otherwise only logged).
   */
  private readonly callInFlight = new AsyncLocalStorage<CallInFlight>();
  /**
   * Every call waiting for its answer: a legacy SSE server answers them all on one stream, and a request
   * the server makes while one runs may arrive outside its context (stdio).
   */
  private readonly callsInFlight = new Set<CallInFlight>();
  /** The clients whose server asked for its roots while starting (each gets one more round trip). */
  private readonly rootsAsked = new WeakSet<Client>();
  /** Lists from tools/list_changed, taken one after another in the order they came. */
  private listing: Promise<void> = Promise.resolve();
  /** What the server is, for the person's choices about it (its command line, or its URL). */
  readonly identity: string;
  /** An HTTP server's sign-in (OAuth), when this org keeps sign-ins. */
  private readonly auth: McpSignIn | null;

  constructor(
    readonly name: string,
    readonly config: McpServerConfig,
    private readonly deps: McpServerDeps,
  ) {
    this.identity = mcpServerIdentity(config);
    this.auth =
      !isStdioServer(config) && deps.signInStore
        ? new McpSignIn(config, deps.signInStore(name), deps.secret)
        : null;
  }

  /** Whether someone is signed in to it, for its card; null when it has not asked anyone to sign in. */
  get signIn(): SignInView | null {
    return this.auth?.view ?? null;
  }

  /**
   * The person signs in: the sign-in page opens with `open`, the answer comes back to a loopback
   * redirect, and the server is started again with the new tokens. Resolves when it runs or failed.
   */
  async signInAndStart(open: (url: URL) => Promise<void>): Promise<void> {
    if (!this.auth)
      throw new Error(
        isStdioServer(this.config)
          ? `${this.name} is a program on this computer: there is nothing to sign in to`
          : 'there is no secret store here to keep a sign-in in',
      );
    const fetcher = this.newFetcher();
    try {
      await this.auth.signIn(open, (url, init) => fetcher.fetch(url, init));
    } finally {
      await fetcher.close();
    }
    await this.stop();
    await this.start();
  }

  /** The HTTP client of its connection, made on the first request (closed with the connection). */
  private httpFetcher(): CheckedFetch {
    return (this.fetcher ??= this.newFetcher());
  }

  /** An HTTP client under the org's network rules: every request through the SSRF checks. */
  private newFetcher(): CheckedFetch {
    return checkedFetch({
      allowPrivateHosts: this.deps.privateHosts,
      ...(this.deps.lookup ? { lookup: this.deps.lookup } : {}),
      ...(this.deps.classifyAddress ? { classifyAddress: this.deps.classifyAddress } : {}),
    });
  }

  /** Starts the server unless it runs or is starting; resolves when it runs or has failed. */
  start(): Promise<void> {
    if (this.status === 'running') return Promise.resolve();
    this.starting ??= this.connect().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  /**
   * Calls one of its tools; a server that is not running, a timeout or a protocol error is thrown. A form
   * the server asks for while the call runs goes to `askPerson` (declined when absent); a question it
   * asks a model goes to `askModel` when the person allows this server that (declined otherwise).
   */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    { signal, askPerson, askModel }: CallHelpers = {},
  ): Promise<CallToolResult> {
    const client = this.client;
    if (!client || this.status !== 'running')
      throw new McpCallFailed(`the MCP server ${this.name} is not running`, {
        kind: 'network',
        retryable: true,
      });
    const tooLarge = new AbortController();
    // The call's time runs while the server works, not while the person fills in a form it asked for.
    const timeoutMs = this.config.call_timeout_ms;
    const timedOut = new AbortController();
    const startClock = () =>
      setTimeout(
        () => timedOut.abort(new Error(`it did not answer within ${timeoutMs / 1000} s (call_timeout_ms)`)),
        timeoutMs,
      );
    let clock = startClock();
    // The call's time stands still while the person or the agent's model answers the server.
    const paused = async <T>(answer: () => Promise<T>): Promise<T> => {
      clearTimeout(clock);
      try {
        return await answer();
      } finally {
        clock = startClock();
      }
    };
    const call: CallInFlight = {
      tooLarge,
      askPerson: askPerson && ((form) => paused(() => askPerson(form))),
      askModel: askModel && {
        ask: (question) => paused(() => askModel.ask(question)),
        refused: (server, reason) => askModel.refused(server, reason),
      },
      questions: 0,
    };
    this.callsInFlight.add(call);
    try {
      return (await this.callInFlight.run(call, () =>
        client.callTool({ name: tool, arguments: args }, undefined, {
          timeout: NO_SDK_TIMEOUT,
          signal: AbortSignal.any([...(signal ? [signal] : []), tooLarge.signal, timedOut.signal]),
        }),
      )) as CallToolResult;
    } catch (error) {
      if (tooLarge.signal.aborted) throw McpCallFailed.of(tooLarge.signal.reason, { kind: 'bad_response' });
      if (timedOut.signal.aborted)
        throw McpCallFailed.of(timedOut.signal.reason, { kind: 'timeout', retryable: true });
      const signIn = McpSignIn.neededBy(error);
      if (signIn) {
        this.error = this.deps.redact(signIn);
        this.setStatus('needs_sign_in');
        this.note(`needs sign-in: ${this.error}`);
        throw new McpCallFailed(
          `the MCP server ${this.name} needs you to sign in: ${this.error}`,
          { kind: 'auth' },
          { cause: error },
        );
      }
      throw McpCallFailed.of(error, mcpErrorFailure(error, signal));
    } finally {
      clearTimeout(clock);
      this.callsInFlight.delete(call);
    }
  }

  /** The resources and resource templates it offers (first page of each). */
  async listResources(
    signal?: AbortSignal,
  ): Promise<{ resources: Resource[]; templates: ResourceTemplate[] }> {
    const client = this.runningClient();
    const options = { timeout: this.config.call_timeout_ms, ...(signal ? { signal } : {}) };
    const { resources } = await client.listResources(undefined, options);
    const templates = await client
      .listResourceTemplates(undefined, options)
      .then((listed) => listed.resourceTemplates)
      .catch(() => []);
    return { resources, templates };
  }

  /** Reads one of its resources; like a call, an answer past the byte cap ends it at once. */
  async readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    const client = this.runningClient();
    const tooLarge = new AbortController();
    const call: CallInFlight = { tooLarge, askPerson: undefined, askModel: undefined, questions: 0 };
    this.callsInFlight.add(call);
    try {
      return await this.callInFlight.run(call, () =>
        client.readResource(
          { uri },
          {
            timeout: this.config.call_timeout_ms,
            signal: signal ? AbortSignal.any([signal, tooLarge.signal]) : tooLarge.signal,
          },
        ),
      );
    } catch (error) {
      throw tooLarge.signal.aborted ? tooLarge.signal.reason : error;
    } finally {
      this.callsInFlight.delete(call);
    }
  }

  private runningClient(): Client {
    if (!this.client || this.status !== 'running')
      throw new Error(`the MCP server ${this.name} is not running`);
    return this.client;
  }

  /** Stops it for good (until `start`): the program ends, open connections close, no restart follows. */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.restartTimer) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    await this.starting?.catch(() => undefined);
    await this.disconnect();
    if (this.status !== 'failed') this.setStatus('stopped');
    this.stopping = false;
  }

  /**
   * Ends its program at once (SIGKILL), without the polite close that may take seconds: for an app that
   * must quit now. A program still starting is ended too.
   */
  kill(): void {
    const transport = this.transport ?? this.startingTransport;
    const pid = transport instanceof StdioClientTransport ? transport.pid : null;
    if (pid === null) return;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // It has ended already.
    }
  }

  /** The process id of a stdio server's program while it runs. */
  get pid(): number | null {
    return this.transport instanceof StdioClientTransport ? this.transport.pid : null;
  }

  /** Secrets it needs that are not set. */
  missingSecrets(): string[] {
    return serverSecretNames(this.config).filter((name) => this.deps.secret(name) === undefined);
  }

  private async connect(): Promise<void> {
    this.error = null;
    this.stderrTail = '';
    const refused = serverSecretNames(this.config).flatMap((name) => this.deps.refusal('secret', name) ?? []);
    if (refused.length > 0) {
      this.fail(`it was not started: ${describeNotGranted(allNotGranted(refused))}`);
      return;
    }
    const missing = this.missingSecrets();
    if (missing.length > 0) {
      this.fail(
        `it needs the secret${missing.length > 1 ? 's' : ''} ${missing.join(', ')}, which ${missing.length > 1 ? 'are' : 'is'} not set`,
      );
      return;
    }
    this.setStatus(this.status === 'restarting' ? 'restarting' : 'starting');
    const tries = this.transportTries();
    const timeoutMs = this.config.start_timeout_ms;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`it did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    });
    let firstRefusal: unknown = null;
    let connected: Client | null = null;
    try {
      for (const [index, attempt] of tries.entries()) {
        const client = this.newClient();
        const transport = attempt.create();
        this.startingTransport = transport;
        try {
          await Promise.race([this.handshake(client, transport), timedOut]);
          this.client = connected = client;
          this.transport = transport;
          break;
        } catch (error) {
          this.client = client;
          this.transport = transport;
          await this.disconnect();
          const next = tries[index + 1];
          if (next && triesLegacySseNext(error)) {
            firstRefusal = error;
            this.stderrTail = '';
            continue;
          }
          const signIn = McpSignIn.neededBy(error);
          if (signIn) {
            await this.auth?.refreshView();
            this.error = this.deps.redact(signIn);
            this.setStatus('needs_sign_in');
            this.note(`waits for sign-in: ${this.error}`);
            return;
          }
          this.fail(this.describeStartError(error, firstRefusal, tries));
          return;
        }
      }
    } finally {
      clearTimeout(timer);
      this.startingTransport = null;
    }
    // What it says from here on is what a crash report quotes, not its start-up banner.
    this.stderrTail = '';
    const client = connected;
    if (!client) return;
    await this.auth?.refreshView();
    client.onclose = () => this.closed(client);
    if (this.transport instanceof SSEClientTransport)
      client.onerror = (error) => {
        if (error instanceof SseError && this.client === client)
          this.streamCut(
            error.code === undefined ? 'the server ended it' : `the server answered HTTP ${error.code}`,
            new Error(`the server's event stream broke before it answered (${error.message})`),
          );
      };
    this.restarts = this.status === 'restarting' ? this.restarts : 0;
    this.setStatus('running');
    this.note(`started with ${this.tools.length} tool${this.tools.length === 1 ? '' : 's'}`);
  }

  /** Whether the person lets this server ask their agents' models (their own record, never the org's files). */
  private samplingAllowed(): boolean {
    return this.deps.serverRecord?.(this.identity)?.samplingAllowed === true;
  }

  /**
   * A client that offers roots and keeps the tool list current (tools/list_changed). It says it can
   * answer a server's questions to a model (sampling) only when the person allows this server that.
   */
  private newClient(): Client {
    const sampling = this.samplingAllowed();
    const client = new Client(
      { name: 'lemming-desktop', version: '0.1.0' },
      {
        capabilities: {
          roots: { listChanged: false },
          elicitation: { form: {} },
          ...(sampling ? { sampling: {} } : {}),
        },
        listChanged: {
          tools: {
            // Told at once (no debounce, no list fetched by the SDK): the list is asked for in `listing`
            // as the notification comes, so `listsTaken` waits for it. A tool renamed during a call is
            // then known before the next turn's catalog, which must ask the person about it.
            autoRefresh: false,
            debounceMs: 0,
            onChanged: () => {
              // A list that could not be taken must not stop the ones after it.
              this.listing = this.listing
                .then(async () => {
                  const { tools } = await client.listTools(undefined, {
                    timeout: this.config.start_timeout_ms,
                  });
                  await this.takeChangedList(tools);
                })
                .catch(() => undefined);
            },
          },
        },
      },
    );
    client.setRequestHandler(ListRootsRequestSchema, async () => {
      this.rootsAsked.add(client);
      const roots = offeredRoots(this.config, this.deps.orgPath);
      // A server checks that its roots exist and keeps the folders it was started with otherwise.
      await Promise.all(roots.map((root) => mkdir(root, { recursive: true })));
      return { roots: roots.map((root) => ({ uri: pathToFileURL(root).href, name: basename(root) })) };
    });
    client.setRequestHandler(ElicitRequestSchema, async (request) => {
      const form = formRequest(this.name, request.params as ElicitRequestFormParams);
      // A form no one could fill in (hundreds of fields) is not put in front of the person.
      if (formTooLarge(form)) return { action: 'decline' };
      const answer = await (this.callAsking()?.(form) ?? UNATTENDED_FORM);
      return elicitResult(form, answer);
    });
    if (sampling)
      client.setRequestHandler(CreateMessageRequestSchema, (request) => this.answerQuestion(request.params));
    // A server that asks anyway is told why, and how the person could allow it, rather than "Method not found".
    else
      client.fallbackRequestHandler = (request) => {
        if (request.method === 'sampling/createMessage')
          this.decline(this.callWaiting(), notAllowedReason(this.name));
        throw new McpError(ErrorCode.MethodNotFound, 'Method not found');
      };
    return client;
  }

  /** Connects and lists the tools; the person's record hears of them before any can be called. */
  private async handshake(client: Client, transport: Transport): Promise<void> {
    await client.connect(transport);
    const { tools } = await client.listTools();
    // A server asks for its roots as it starts; one more round trip lets it read the answer
    // before agents may call it (applying them is the server's own doing).
    if (this.rootsAsked.has(client)) await client.ping();
    await this.deps.toolsListed?.(this, tools);
    this.tools = tools;
    const offers = client.getServerCapabilities();
    this.offersResources = offers?.resources !== undefined;
    // Prompts are shown on the card only; a server that cannot list them still starts.
    this.prompts = offers?.prompts
      ? await client
          .listPrompts()
          .then((listed) => listed.prompts)
          .catch(() => [])
      : [];
  }

  /**
   * Who to ask for a form the server wants now: the call whose request it came with (HTTP keeps that
   * context), else the only call running; with none, or several to choose from, no one.
   */
  private callAsking(): AskPerson | undefined {
    const call = this.callWaiting();
    return call === 'several' ? undefined : call?.askPerson;
  }

  /** The call a request of the server's belongs to (see callAsking); 'several' when it cannot be told which. */
  private callWaiting(): CallInFlight | 'several' | undefined {
    const own = this.callInFlight.getStore();
    if (own) return own;
    return this.callsInFlight.size > 1 ? 'several' : [...this.callsInFlight][0];
  }

  /**
   * A question the server asks a model (sampling/createMessage): put to the model of the agent whose call
   * it serves, while the person allows this server that, at most MCP_QUESTIONS_PER_CALL times per call.
   */
  private async answerQuestion(params: CreateMessageRequestParams): Promise<CreateMessageResult> {
    const call = this.callWaiting();
    if (!this.samplingAllowed()) this.decline(call, notAllowedReason(this.name));
    if (call === 'several') this.decline(call, SEVERAL_CALLS);
    if (!call) this.decline(call, OUTSIDE_A_CALL);
    if (!call.askModel) this.decline(call, OUTSIDE_A_TURN);
    if (call.questions >= MCP_QUESTIONS_PER_CALL) this.decline(call, TOO_MANY_QUESTIONS);
    const question = serverQuestion(this.name, params);
    if (!question.ok) this.decline(call, question.error);
    call.questions += 1;
    const answer = await call.askModel.ask(question.value);
    if (!answer.ok) throw new QuestionDeclined(answer.error);
    return samplingResult(answer.value);
  }

  /** The server is told no, with why; the turn of the call it came during (when known) records it. */
  private decline(call: CallInFlight | 'several' | undefined, reason: string): never {
    if (call !== 'several') call?.askModel?.refused(this.name, reason);
    this.note(`asked a model a question, declined: ${reason}`);
    throw new QuestionDeclined(reason);
  }

  /**
   * Resolves once every tools/list_changed the server sent so far is taken (each list asked for within
   * its start timeout): the hub waits for it before agents' catalogs are built.
   */
  listsTaken(): Promise<void> {
    return this.listing;
  }

  /** A list from tools/list_changed: the person's record hears of it first, then agents may call its tools. */
  private async takeChangedList(tools: Tool[]): Promise<void> {
    await this.deps.toolsListed?.(this, tools);
    const before = this.tools.map((tool) => tool.name).join('\n');
    this.tools = tools;
    if (tools.map((tool) => tool.name).join('\n') !== before)
      this.note(`its tools changed (${tools.length} now)`);
    else this.deps.onChange?.();
  }

  /** How to reach it: its program over stdio, or its URL (Streamable HTTP, legacy SSE, or the one then the other). */
  private transportTries(): HttpTransportTry[] {
    const { config, deps } = this;
    if (isStdioServer(config)) {
      const env: Record<string, string> = {};
      for (const [key, value] of Object.entries(config.env)) env[key] = fillSecrets(value, deps.secret).text;
      const create = () => {
        // The SDK adds only HOME, LOGNAME, PATH, SHELL, TERM and USER (their Windows equivalents there) to `env`.
        const transport = new StdioClientTransport({
          command: config.command,
          args: config.args,
          env,
          cwd: deps.orgPath,
          stderr: 'pipe',
        });
        (transport.stderr as Readable | null)?.on('data', (chunk: Buffer) => {
          this.stderrTail = (this.stderrTail + chunk.toString('utf8')).slice(-STDERR_KEPT);
        });
        return transport;
      };
      return [{ kind: 'stdio', create }];
    }
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(config.headers))
      headers[key] = fillSecrets(value, deps.secret).text;
    const auth = this.auth;
    const endpoint = new URL(config.url).href;
    return httpTransportTries(config, {
      headers,
      fetch: async (url, init) => {
        const call = this.callInFlight.getStore();
        const response = await this.httpFetcher().fetch(url, init, {
          onTooLarge: (error) => (call ? call.tooLarge.abort(error) : this.streamTooLarge(error)),
        });
        // Only the MCP endpoint's refusals are challenges to sign in; metadata and token answers are not.
        if (auth && new URL(String(url)).href === endpoint) await auth.heard(response);
        return response;
      },
      ...(auth
        ? {
            authProvider: auth.provider({ kind: 'unattended' }, (url, init) =>
              this.httpFetcher().fetch(url, init),
            ),
          }
        : {}),
    });
  }

  /**
   * An answer past the cap on the stream opened as the server started. A legacy SSE server answers every
   * call on that one stream, which is now cut: each waiting call ends with the reason at once, and the
   * connection is closed, so the server is started again as after a crash. (A Streamable HTTP server
   * answers each call on the call's own request; its other stream only carries news.)
   */
  private streamTooLarge(error: Error): void {
    if (this.transport instanceof SSEClientTransport) this.streamCut(error.message, error);
  }

  /**
   * A legacy SSE server's event stream broke: the calls waiting for answers on it end now with the
   * reason, and the connection is closed, so the server is started again as after a crash (the stream
   * the SDK would reopen belongs to a new session that was never initialized).
   */
  private streamCut(why: string, error: Error): void {
    for (const call of this.callsInFlight) call.tooLarge.abort(error);
    this.note(`its event stream was cut: ${why}`);
    void this.transport?.close();
  }

  /** The client closed: on purpose (stop), or the server went away (a crash), which restarts it with backoff. */
  private closed(client: Client): void {
    if (this.client !== client || this.stopping) return;
    this.client = null;
    const stderr = this.stderrSummary();
    void this.disconnect();
    const maxRestarts = this.deps.maxRestarts ?? 5;
    if (this.restarts >= maxRestarts) {
      this.fail(
        `it stopped unexpectedly and was restarted ${maxRestarts} times; it is left stopped${stderr}`,
      );
      return;
    }
    const delay = (this.deps.restartDelayMs ?? 500) * 2 ** this.restarts;
    this.restarts += 1;
    this.error = `it stopped unexpectedly${stderr}`;
    this.setStatus('restarting');
    this.note(
      `stopped unexpectedly${stderr}; restarting in ${delay} ms (restart ${this.restarts} of ${maxRestarts})`,
    );
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      void this.start().then(() => {
        if (this.status === 'running') this.note(`restarted after a crash`);
      });
    }, delay);
    this.restartTimer.unref();
  }

  private async disconnect(): Promise<void> {
    const { client, transport, fetcher } = this;
    this.client = null;
    this.transport = null;
    this.fetcher = null;
    if (client) client.onclose = undefined;
    await (client ? client.close() : transport?.close())?.catch(() => undefined);
    await fetcher?.close();
  }

  private describeStartError(
    error: unknown,
    firstRefusal: unknown,
    tries: readonly HttpTransportTry[],
  ): string {
    const refused = isStdioServer(this.config)
      ? null
      : (describeHttpRefusal(error, this.config.url, tries) ??
        (firstRefusal === null ? null : describeHttpRefusal(firstRefusal, this.config.url, tries)));
    if (refused) return `it could not be started: ${refused}`;
    const message = error instanceof Error ? error.message : String(error);
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    const notFound = (error as { code?: string }).code === 'ENOENT';
    const what = notFound
      ? `its program could not be started (${isStdioServer(this.config) ? this.config.command : ''} was not found)`
      : `it could not be started: ${message}${cause}`;
    return `${what}${this.stderrSummary()}`;
  }

  private stderrSummary(): string {
    const text = this.deps.redact(this.stderrTail.trim());
    if (text === '') return '';
    const lastLines = text.split('\n').slice(-5).join('\n');
    return ` — it said: ${lastLines}`;
  }

  private fail(error: string): void {
    this.error = this.deps.redact(error);
    this.setStatus('failed');
    this.note(`failed: ${this.error}`);
  }

  private note(message: string): void {
    this.happenings.push({
      time: (this.deps.clock?.() ?? new Date()).toISOString(),
      message: this.deps.redact(message),
    });
    if (this.happenings.length > HAPPENINGS_KEPT)
      this.happenings.splice(0, this.happenings.length - HAPPENINGS_KEPT);
    this.deps.onChange?.();
  }

  private setStatus(status: McpServerStatus): void {
    if (this.status === status) return;
    this.status = status;
    if (status === 'running') this.error = null;
    // Stopping is the run's doing, not news: announcing it would have an open Tool Store start it again.
    if (!this.stopping) this.deps.onChange?.();
  }
}

/** A tool call the server did not answer, with what failed typed where it was known (docs/ARCHITECTURE.md, “Failures as typed data”). */
export class McpCallFailed extends Error {
  constructor(
    message: string,
    readonly failure: Failure,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'McpCallFailed';
  }

  static of(error: unknown, failure: Failure): McpCallFailed {
    return new McpCallFailed(error instanceof Error ? error.message : String(error), failure, {
      cause: error,
    });
  }
}

/** The SDK's error codes, not its messages, say how a call failed. */
function mcpErrorFailure(error: unknown, signal: AbortSignal | undefined): Failure {
  if (signal?.aborted) return { kind: 'cancelled' };
  if (error instanceof McpError) {
    if (error.code === Number(ErrorCode.ConnectionClosed)) return { kind: 'network', retryable: true };
    if (error.code === Number(ErrorCode.RequestTimeout)) return { kind: 'timeout', retryable: true };
    return { kind: 'server' };
  }
  return { kind: 'unexpected' };
}
