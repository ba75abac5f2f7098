import type { GrantRefusal } from '../api/grant-refusal';
import type { TakeCharacters } from '../secrets/cut-redacted';
import { createRedactor, type Redaction, type Redactor } from '../secrets/redactor';
import { revealAll, type SecretStore } from '../secrets/secret-store';
import { GrantedValues, readGrantedValues, type VariableSource } from '../trust/org-grants';
import type { TrustStore } from '../trust/trust-store';

/** Whose grants the engine's secrets follow, and where its granted environment variables are read. */
export interface RunSecretsGrants {
  orgPath: string;
  trust: TrustStore;
  variables: VariableSource;
}

/**
 * The secrets an engine works with: the values of those granted to its org for the places that need
 * them (model API keys, `${secrets.KEY}` in a composed tool, an MCP server's env), the environment
 * variables granted to it, and the redactor every event, message, file and tool result passes through
 * before it is written or shown to an agent, which redacts every stored value, granted or not
 * (docs/ARCHITECTURE.md, “Secrets”).
 */
export class RunSecrets implements Redaction {
  private storedCount = 0;
  private redactor: Redactor = createRedactor();
  private granted: GrantedValues;

  constructor(
    private readonly store: SecretStore | undefined,
    private readonly grants: RunSecretsGrants,
  ) {
    this.granted = GrantedValues.none(grants.orgPath);
  }

  /**
   * Reads the store and the person's grants again, so a secret set, changed or granted since takes
   * effect (called before each tick and call).
   */
  async refresh(): Promise<void> {
    const secrets = this.store ? await revealAll(this.store) : [];
    this.storedCount = secrets.length;
    this.redactor = createRedactor(secrets);
    const { orgPath, trust, variables } = this.grants;
    this.granted = await readGrantedValues(
      orgPath,
      trust,
      new Map(secrets.map(({ name, value }) => [name, value])),
      variables,
    );
  }

  /** A secret's value when it is set and granted to this org. */
  readonly lookup = (name: string): string | undefined => this.granted.secret(name);

  readonly has = (name: string): boolean => this.lookup(name) !== undefined;

  /** Whether a secret or variable the org names is refused to it (see GrantRefusal). */
  readonly refusal: GrantRefusal = (kind, name) => this.granted.refusal(kind, name);

  /** The environment variables granted to this org that are set, by name. */
  get variables(): Readonly<Record<string, string>> {
    return this.granted.variables;
  }

  readonly redactText = (text: string): string => this.redactor.redactText(text);

  /** Whether there is no secret to redact, so redacting leaves every value as it is. */
  get redactsNothing(): boolean {
    return this.storedCount === 0;
  }

  redactValue<T>(value: T): T {
    return this.redactor.redactValue(value);
  }

  readonly cutText = (text: string, limit: number, take?: TakeCharacters): string =>
    this.redactor.cutText(text, limit, take);

  readonly redactCut = (text: string): string => this.redactor.redactCut(text);

  /** A stream redacts with the secrets known when it starts, so one text is redacted by one set. */
  readonly stream = () => this.redactor.stream();
}
