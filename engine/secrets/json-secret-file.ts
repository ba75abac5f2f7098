import { chmod, mkdir, open, readFile, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Result } from '../api/result';
import { writeFileAtomic } from '../files/atomic-write';
import { parseJsonText } from '../files/json-text';
import { secretNameProblem } from './secret-name';

/** The field of an entry that holds the secret: the CLI file keeps `value`, the app's file keeps `ciphertext`. */
export type PayloadField = 'value' | 'ciphertext';

export interface StoredSecret {
  payload: string;
  updatedAt: string | null;
}

/** The file's secrets and what was skipped in it, or why it cannot be read (naming the file). */
export type SecretFileRead = Result<
  { secrets: ReadonlyMap<string, StoredSecret>; warnings: string[] },
  string
>;

/** Whether the secret was there before, or why the file could not be changed (naming the file). */
export type SecretFileChange = Result<{ existed: boolean }, string>;

export const SECRET_FILE_FORMAT = 'lemming-secrets';
export const SECRET_FILE_VERSION = 1;

/** Owner read/write only: another user of the machine must not read the file. */
const FILE_MODE = 0o600;
const FOLDER_MODE = 0o700;

type JsonObject = Record<string, unknown>;

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A JSON file of named secrets, `{"format": "lemming-secrets", "version": 1, "secrets": {NAME:
 * {<payload field>, "updated_at"}}}`, shared by the CLI's plain file and the app's encrypted one.
 * Writes are atomic and the file is owner-only (0600, also while being written); fields this version
 * does not know, in the document and in each entry, are kept. Reads are cached until the file changes
 * on disk, so a long run sees a secret set meanwhile from the command line.
 */
export class JsonSecretFile {
  private cache: { signature: string; read: SecretFileRead } | null = null;
  private writing: Promise<unknown> = Promise.resolve();

  constructor(
    readonly path: string,
    private readonly field: PayloadField,
  ) {}

  async read(): Promise<SecretFileRead> {
    const signature = await this.signature();
    if (this.cache?.signature === signature) return this.cache.read;
    const current = await this.readDocument();
    if (!current.ok) return current;
    const read: SecretFileRead = { ok: true, value: this.entriesOf(current.value) };
    this.cache = { signature, read };
    return read;
  }

  /** Sets (`next`) or removes (null) one secret; changes are applied one after another. */
  change(name: string, next: StoredSecret | null): Promise<SecretFileChange> {
    const done = this.writing.then(() => this.applyChange(name, next));
    this.writing = done.catch(() => undefined);
    return done;
  }

  private async applyChange(name: string, next: StoredSecret | null): Promise<SecretFileChange> {
    const current = await this.readDocument();
    if (!current.ok) return current;
    const document = current.value;
    const secrets = isObject(document.secrets) ? { ...document.secrets } : {};
    const existed = Object.hasOwn(secrets, name);
    if (next === null) {
      if (!existed) return { ok: true, value: { existed: false } };
      delete secrets[name];
    } else {
      const previous = isObject(secrets[name]) ? secrets[name] : {};
      secrets[name] = { ...previous, [this.field]: next.payload, updated_at: next.updatedAt };
    }
    const written = { format: SECRET_FILE_FORMAT, version: SECRET_FILE_VERSION, ...document, secrets };
    try {
      await writeOwnerOnly(this.path, `${JSON.stringify(written, null, 2)}\n`);
    } catch (error) {
      return { ok: false, error: `cannot write ${this.path}: ${(error as Error).message}` };
    }
    this.cache = null;
    return { ok: true, value: { existed } };
  }

  private async signature(): Promise<string> {
    const info = await stat(this.path).catch(() => null);
    return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : 'missing';
  }

  private async readDocument(): Promise<Result<JsonObject, string>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { ok: true, value: {} };
      return { ok: false, error: `cannot read ${this.path}: ${(error as Error).message}` };
    }
    // A file just created for its first write is empty for a moment; it holds no secrets yet.
    if (text.trim() === '') return { ok: true, value: {} };
    const parsed = parseJsonText(text);
    if (!parsed.ok)
      return {
        ok: false,
        error: `${this.path}:${parsed.error.line}:${parsed.error.column}: ${parsed.error.message}`,
      };
    const document = parsed.value;
    if (!isObject(document))
      return { ok: false, error: `${this.path}: the file must hold a JSON object with a "secrets" object` };
    if (
      document.version !== undefined &&
      !(typeof document.version === 'number' && document.version <= SECRET_FILE_VERSION)
    ) {
      return {
        ok: false,
        error: `${this.path} (version): version ${JSON.stringify(document.version)} is not one this app can read (it reads version ${SECRET_FILE_VERSION}); it was written by a newer app`,
      };
    }
    if (document.secrets !== undefined && !isObject(document.secrets)) {
      return {
        ok: false,
        error: `${this.path} (secrets): "secrets" must be an object of NAME: {"${this.field}": ...}`,
      };
    }
    return { ok: true, value: document };
  }

  private entriesOf(document: JsonObject): { secrets: Map<string, StoredSecret>; warnings: string[] } {
    const secrets = new Map<string, StoredSecret>();
    const warnings: string[] = [];
    for (const [name, entry] of Object.entries(isObject(document.secrets) ? document.secrets : {})) {
      const where = `${this.path} (secrets.${name})`;
      const nameProblem = secretNameProblem(name);
      if (nameProblem) {
        warnings.push(`${where}: skipped: ${nameProblem}`);
        continue;
      }
      const payload = isObject(entry) ? entry[this.field] : undefined;
      if (typeof payload !== 'string') {
        warnings.push(`${where}: skipped: the entry has no "${this.field}" text`);
        continue;
      }
      const updatedAt = isObject(entry) && typeof entry.updated_at === 'string' ? entry.updated_at : null;
      secrets.set(name, { payload, updatedAt });
    }
    return { secrets, warnings };
  }
}

/**
 * Writes the file atomically with mode 0600. A new file is first created empty with that mode, and an
 * existing one narrowed to it, because the atomic write gives its temp file the target's mode: so
 * the secret never sits, even for a moment, in a file others may read.
 */
async function writeOwnerOnly(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: FOLDER_MODE });
  const created = await open(path, 'wx', FILE_MODE).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EEXIST') return null;
    throw error;
  });
  if (created) await created.close();
  else await chmod(path, FILE_MODE);
  await writeFileAtomic(path, text);
}
