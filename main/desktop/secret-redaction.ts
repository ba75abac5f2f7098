import { createRedactor, type Redactor } from '../../engine/secrets/redactor';
import { revealAll, type SecretStore } from '../../engine/secrets/secret-store';

/**
 * Main's own redaction of the secret store's values, for its log and the diagnostics: read again at
 * most every `maxAgeMs` (a log line is written at once, with the values known then; a secret stored
 * since is caught by the next reading, and diagnostics always read afresh). Values once seen stay
 * redacted: an old log line may hold a secret since replaced.
 */
export class SecretRedaction {
  private redactor: Redactor = createRedactor();
  private readAt = 0;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly store: SecretStore,
    private readonly maxAgeMs = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reads the store's values now. */
  refresh(): Promise<void> {
    this.reading ??= revealAll(this.store)
      .then((secrets) => {
        for (const secret of secrets) this.redactor.add(secret);
        this.readAt = this.now();
      })
      .catch(() => undefined)
      .finally(() => {
        this.reading = null;
      });
    return this.reading;
  }

  /** The text with every value known so far replaced by its name. */
  readonly redactText = (text: string): string => {
    if (this.now() - this.readAt > this.maxAgeMs) void this.refresh();
    return this.redactor.redactText(text);
  };

  /** A redaction with the store's values as they are now. */
  async current(): Promise<(text: string) => string> {
    await this.refresh();
    return this.redactText;
  }
}
