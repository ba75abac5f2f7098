import { TrustStore } from '../../engine/trust/trust-store';
import {
  readGrantedValues,
  variablesIn,
  type GrantedValues,
  type VariableSource,
} from '../../engine/trust/org-grants';
import { engineRefusals, openOrgFolder } from '../../engine/app/org';
import { Jobs } from '../../engine/app/jobs';
import type { SecretsAccess } from '../../engine/app/org-context';
import { fail, ok, type IpcResult } from '../../engine/api/result';
import type { OpenedOrg } from '../../engine/org/open-org';
import { createRedactor, type NamedSecret, type Redactor } from '../../engine/secrets/redactor';
import { revealAll, type SecretStore } from '../../engine/secrets/secret-store';
import { HostEvents } from './host-events';
import { OrgSession } from './org-session';
import { TimelineUnusableError } from '../../engine/run/engine-errors';

export interface EngineHostOptions {
  /** Where secrets live: safeStorage in the app, a file in a temp folder in tests. */
  secretStore: SecretStore;
  /** The person's trust record and grants, outside every org: `<userData>/trust.json` in the app. */
  trustFile: string;
  /** The demo org as shipped with the app (examples/demo-org). */
  demoOrgSource: string;
  /** The template gallery as shipped with the app (templates/, built into out/templates). */
  templatesFolder: string;
  /** Where the first run puts the user's copy of the demo org. */
  userOrgsFolder: string;
  /**
   * The environment the engine's programs start from (a `cli` model's PATH, HOME and the like): in the
   * app only the minimal base main gave the engine thread (engineWorkerEnvironment), never the app's
   * whole environment.
   */
  env?: Record<string, string | undefined>;
  /**
   * Reads the variables granted to the org at `orgPath` (the app's engine thread asks main, which
   * gives only those granted); default: from `env`.
   */
  readVariables?: (orgPath: string, names: readonly string[]) => Promise<Record<string, string>>;
  /** How long timeline pings are gathered before one is sent. */
  pingIntervalMs?: number;
  logError?: (context: string, error: unknown) => void;
}

/**
 * Owns the current org (its engine and run controller), the secrets the engine may use and the
 * redactor built from them, and the events the renderer hears. Opening, switching and closing orgs
 * happen one at a time. Nothing here imports Electron: the app and the test harness run the same host.
 */
export class EngineHost {
  readonly events: HostEvents;
  /** The secret store, as use-cases change it: every change reloads the values and the redactor. */
  readonly secrets: SecretsAccess;
  /** The person's trust decisions and grants for every org. */
  readonly trust: TrustStore;
  /** The long jobs going on (exports), each told as `job.progress` and cancelled through `jobs.cancel`. */
  readonly jobs: Jobs;
  private session: OrgSession | null = null;
  /** Sessions closing now (their run finishing its tick): a quit that cannot wait ends their programs too. */
  private readonly closing = new Set<OrgSession>();
  private lifecycle: Promise<unknown> = Promise.resolve();
  private secretValues = new Map<string, string>();
  /** Values replaced or deleted during this session: still redacted, since the timeline may hold them. */
  private readonly retiredSecrets: NamedSecret[] = [];
  private redactor: Redactor = createRedactor();
  private redacting = false;

  private constructor(readonly options: EngineHostOptions) {
    this.events = new HostEvents(options.pingIntervalMs);
    this.secrets = { store: options.secretStore, changed: () => this.reloadSecrets() };
    this.trust = new TrustStore(options.trustFile);
    this.jobs = new Jobs((progress) => this.events.emit('job.progress', progress));
  }

  static async create(options: EngineHostOptions): Promise<EngineHost> {
    const host = new EngineHost(options);
    await host.reloadSecrets();
    return host;
  }

  get secretStore(): SecretStore {
    return this.options.secretStore;
  }

  /** The current session, if an org is open. */
  current(): OrgSession | null {
    return this.session;
  }

  /** Opens the org at `path`, closing the current one (and stopping its run) first, unless it is the same org. */
  open(path: string): Promise<IpcResult<OpenedOrg>> {
    return this.serially(async () => {
      const found = await openOrgFolder(path);
      if (!found.ok) return found;
      const opened = found.value;
      // Opening the org that is already open keeps it (and its run) as it is.
      if (this.session?.orgPath === opened.summary.path) return ok(opened);
      await this.closeSession();
      try {
        this.session = await OrgSession.open({
          orgPath: opened.summary.path,
          events: this.events,
          secrets: this.secrets,
          trust: this.trust,
          env: this.options.env ?? {},
          variables: this.variablesOf(opened.summary.path),
          ...(this.options.logError ? { logError: this.options.logError } : {}),
        });
      } catch (error) {
        this.options.logError?.(`opening ${opened.summary.path}`, error);
        return fail(
          'org_unusable',
          `${opened.summary.path} cannot be opened: ${error instanceof Error ? error.message : String(error)}`,
          undefined,
          error instanceof TimelineUnusableError ? error.fix : undefined,
        );
      }
      this.events.emit('org.changed', { path: this.session.orgPath });
      this.events.emit('run.state', this.session.controller.state());
      this.events.emit('agents.changed', { names: [] });
      this.session.timelineGrew();
      return ok(opened);
    });
  }

  /** Stops any run and closes the current org; false when none was open. */
  close(): Promise<boolean> {
    return this.serially(async () => {
      const wasOpen = this.session !== null;
      await this.closeSession();
      if (wasOpen) this.events.emit('org.changed', { path: null });
      return wasOpen;
    });
  }

  /**
   * Runs `work` on the current org. The engine's own refusals become typed results: an invalid config
   * file (`org_unusable`, with where), an agent it does not know (`agent_not_found`). Work that fails
   * because the org was closed under it (another org opened, the window closed) says so.
   */
  async withSession<T>(work: (session: OrgSession) => Promise<IpcResult<T>>): Promise<IpcResult<T>> {
    const session = this.session;
    if (!session) return fail('no_org_open', 'Open an org folder first.');
    try {
      return await engineRefusals(() => work(session));
    } catch (error) {
      if (this.session === session) throw error;
      return fail('no_org_open', `${session.orgPath} was closed before this was done.`);
    }
  }

  /**
   * The secrets and environment variables the org at `orgPath` may use, for a use-case that calls a
   * model outside a run (a connection test, the model setup form); never for an IPC answer.
   */
  grantedTo(orgPath: string): Promise<GrantedValues> {
    return readGrantedValues(orgPath, this.trust, this.secretValues, this.variablesOf(orgPath));
  }

  /** Where the variables granted to the org at `orgPath` are read. */
  private variablesOf(orgPath: string): VariableSource {
    const { readVariables, env } = this.options;
    return readVariables ? (names) => readVariables(orgPath, names) : variablesIn(env ?? {});
  }

  /** Re-reads every secret after a change, so the engine and the redactor see it at once. */
  async reloadSecrets(): Promise<void> {
    const secrets = await revealAll(this.options.secretStore).catch((error: unknown) => {
      this.options.logError?.('reading the secret store', error);
      return [];
    });
    const current = new Map(secrets.map(({ name, value }) => [name, value]));
    for (const [name, value] of this.secretValues)
      if (current.get(name) !== value) this.retiredSecrets.push({ name, value });
    this.secretValues = current;
    this.redactor = createRedactor([...secrets, ...this.retiredSecrets]);
    this.redacting = secrets.length + this.retiredSecrets.length > 0;
  }

  /** Every spelling of every known secret replaced: applied to each answer that leaves main. */
  redact<T>(value: T): T {
    return this.redacting ? this.redactor.redactValue(value) : value;
  }

  /** Ends the open org's programs (its MCP servers) at once, for a quit that cannot wait for them. */
  killPrograms(): void {
    this.session?.engine.mcp.killAll();
    for (const session of this.closing) session.engine.mcp.killAll();
  }

  async dispose(): Promise<void> {
    await this.close();
    this.events.flush();
  }

  private async closeSession(): Promise<void> {
    const session = this.session;
    this.session = null;
    if (!session) return;
    this.closing.add(session);
    await session.close().finally(() => this.closing.delete(session));
  }

  private serially<T>(work: () => Promise<T>): Promise<T> {
    const next = this.lifecycle.then(work, work);
    this.lifecycle = next.catch(() => undefined);
    return next;
  }
}
