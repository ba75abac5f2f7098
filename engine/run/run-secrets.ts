import { createRedactor, type Redactor } from '../secrets/redactor';
import { revealAll, type SecretStore } from '../secrets/secret-store';

/**
 * The secrets an engine works with: their values for the places that need them (model API keys,
 * `${secrets.KEY}` in a composed tool), and the redactor every event, message, file and tool result
 * passes through before it is written or shown to an agent (docs/ARCHITECTURE.md, “Secrets”).
 */
export class RunSecrets {
  private values = new Map<string, string>();
  private redactor: Redactor = createRedactor();

  constructor(private readonly store: SecretStore | undefined) {}

  /** Reads the store again, so a secret set or changed since takes effect (called before each tick and call). */
  async refresh(): Promise<void> {
    const secrets = this.store ? await revealAll(this.store) : [];
    this.values = new Map(secrets.map(({ name, value }) => [name, value]));
    this.redactor = createRedactor(secrets);
  }

  readonly lookup = (name: string): string | undefined => this.values.get(name);

  readonly has = (name: string): boolean => this.values.has(name);

  readonly redactText = (text: string): string => this.redactor.redactText(text);

  /** Whether there is no secret to redact, so redacting leaves every value as it is. */
  get redactsNothing(): boolean {
    return this.values.size === 0;
  }

  redactValue<T>(value: T): T {
    return this.redactor.redactValue(value);
  }
}
