import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Writable, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { BUNDLE_FORMAT_VERSION, BundleManifest, MANIFEST_FILE } from '../api/bundle-schemas';
import type { Result } from '../api/result';
import { DEFAULT_BUNDLE_LIMITS, sizeInWords, type BundleLimits } from './bundle-limits';
import { checkEntryName, collisionKey } from './entry-names';

/** Why a bundle was refused: one sentence a person can read, naming the entry when there is one. */
export type BundleRefusal = string;

const FILE_TYPE_MASK = 0o170000;
const REGULAR_FILE = 0o100000;
const FOLDER = 0o040000;
const SYMLINK = 0o120000;
const ENCRYPTED = 0x1;
const STORED = 0;
const DEFLATED = 8;

interface CheckedEntry {
  entry: Entry;
  path: string;
}

/**
 * Reads a bundle and checks everything before any file is written: every entry's name, type and
 * declared size (docs/BUNDLE-FORMAT.md, “What an importer refuses”), the manifest (present, a known
 * format version, listing exactly the files there are with their sizes), then every file's bytes as
 * they inflate (the size limits again, and each sha256). When `into` is given, each file is written
 * under that folder as it passes; the caller gives a fresh, empty folder and throws it away on refusal.
 */
export async function readBundle(
  file: string,
  options: { into?: string; limits?: BundleLimits } = {},
): Promise<Result<BundleManifest, BundleRefusal>> {
  const limits = options.limits ?? DEFAULT_BUNDLE_LIMITS;
  let zip: ZipFile;
  try {
    zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      autoClose: false,
      decodeStrings: false,
      validateEntrySizes: true,
    });
  } catch (error) {
    return refuse(`it is not a zip file this app can read (${messageOf(error)})`);
  }
  try {
    if (zip.entryCount > limits.entries)
      return refuse(`it has ${zip.entryCount} entries; a bundle may have at most ${limits.entries}`);
    const listed = await listEntries(zip, limits);
    if (!listed.ok) return listed;
    const manifest = await readManifest(zip, listed.value, limits);
    if (!manifest.ok) return manifest;
    const matches = manifestMatches(manifest.value, listed.value);
    if (!matches.ok) return matches;
    for (const { entry, path } of listed.value) {
      if (path === MANIFEST_FILE || isFolder(entry)) continue;
      const expected = manifest.value.files.find((listedFile) => listedFile.path === path)!;
      const read = await inflate(zip, entry, path, limits, options.into);
      if (!read.ok) return read;
      if (read.value !== expected.sha256)
        return refuse(`"${path}" does not match its checksum in the manifest (it was changed after export)`);
    }
    return { ok: true, value: manifest.value };
  } catch (error) {
    if (/size mismatch/.test(messageOf(error)))
      return refuse(
        `an entry's declared sizes do not agree (${messageOf(error)}); the zip is damaged or made to mislead`,
      );
    return refuse(`it could not be read (${messageOf(error)})`);
  } finally {
    zip.close();
  }
}

const refuse = (reason: string): Result<never, BundleRefusal> => ({ ok: false, error: reason });

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

const isFolder = (entry: Entry): boolean => decodeName(entry).endsWith('/');

function decodeName(entry: Entry): string {
  const raw = entry.fileName as unknown as Buffer;
  return new TextDecoder('utf-8', { fatal: true }).decode(raw);
}

/** Every entry, each checked on its own (name, type, declared size) and against the others (duplicates, collisions). */
async function listEntries(
  zip: ZipFile,
  limits: BundleLimits,
): Promise<Result<CheckedEntry[], BundleRefusal>> {
  const entries: CheckedEntry[] = [];
  const seen = new Map<string, string>();
  const folders = new Set<string>();
  let declaredTotal = 0;
  for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
    let name: string;
    try {
      name = decodeName(entry);
    } catch {
      return refuse('an entry’s name is not UTF-8 text');
    }
    const checked = checkEntryName(name);
    if (!checked.ok) return checked;
    const path = checked.value;
    const top = path.split('/')[0]!.toLowerCase();
    if (top === '.lemming')
      return refuse(`"${path}" is run state of another computer; a bundle never carries .lemming/`);
    if (top === '.git')
      return refuse(
        `"${path}" is version-control data (its hooks run programs); a bundle never carries .git/`,
      );
    const type = (entry.externalFileAttributes >>> 16) & FILE_TYPE_MASK;
    if (type === SYMLINK) return refuse(`"${path}" is a symbolic link; bundles carry no links`);
    const folder = name.endsWith('/');
    if (type !== 0 && type !== REGULAR_FILE && !(folder && type === FOLDER))
      return refuse(`"${path}" is a device or special file, not a plain file`);
    if (entry.generalPurposeBitFlag & ENCRYPTED) return refuse(`"${path}" is encrypted`);
    if (entry.compressionMethod !== STORED && entry.compressionMethod !== DEFLATED)
      return refuse(
        `"${path}" is compressed in a way this app does not read (method ${entry.compressionMethod})`,
      );
    if (entry.uncompressedSize > limits.fileBytes)
      return refuse(
        `"${path}" says it is ${sizeInWords(entry.uncompressedSize)}; a file in a bundle may be at most ${sizeInWords(limits.fileBytes)}`,
      );
    declaredTotal += entry.uncompressedSize;
    if (declaredTotal > limits.totalBytes)
      return refuse(`its files add up to more than the ${sizeInWords(limits.totalBytes)} a bundle may hold`);
    const key = collisionKey(path);
    const earlier = seen.get(key);
    if (earlier === path) return refuse(`"${path}" is in the bundle twice`);
    if (earlier !== undefined)
      return refuse(`"${path}" and "${earlier}" would be one file on some computers (case or Unicode form)`);
    seen.set(key, path);
    const parts = key.split('/');
    for (let depth = 1; depth < parts.length; depth += 1) folders.add(parts.slice(0, depth).join('/'));
    if (folder) folders.add(key);
    entries.push({ entry, path });
  }
  for (const { entry, path } of entries)
    if (!isFolder(entry) && folders.has(collisionKey(path)))
      return refuse(`"${path}" is both a file and a folder in the bundle`);
  return { ok: true, value: entries };
}

function nextEntry(zip: ZipFile): Promise<Entry | null> {
  return new Promise((resolve, reject) => {
    const onEntry = (entry: Entry) => {
      cleanup();
      resolve(entry);
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      zip.off('entry', onEntry);
      zip.off('end', onEnd);
      zip.off('error', onError);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

async function readManifest(
  zip: ZipFile,
  entries: readonly CheckedEntry[],
  limits: BundleLimits,
): Promise<Result<BundleManifest, BundleRefusal>> {
  const found = entries.find(({ path }) => path === MANIFEST_FILE);
  if (!found) return refuse(`it has no ${MANIFEST_FILE}; it is not a LeMMing bundle`);
  const chunks: Buffer[] = [];
  const read = await inflate(
    zip,
    found.entry,
    MANIFEST_FILE,
    { ...limits, fileBytes: limits.manifestBytes },
    undefined,
    chunks,
  );
  if (!read.ok) return read;
  let json: unknown;
  try {
    json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch (error) {
    return refuse(`its ${MANIFEST_FILE} is not valid JSON (${messageOf(error)})`);
  }
  const version = (json as { formatVersion?: unknown } | null)?.formatVersion;
  if (version !== BUNDLE_FORMAT_VERSION)
    return refuse(
      `it is bundle format version ${JSON.stringify(version ?? null)}; this app reads version ${BUNDLE_FORMAT_VERSION}`,
    );
  const parsed = BundleManifest.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return refuse(`its ${MANIFEST_FILE} is not valid: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  return { ok: true, value: parsed.data };
}

/** The manifest lists exactly the bundle's files, each with the size the zip declares for it. */
function manifestMatches(
  manifest: BundleManifest,
  entries: readonly CheckedEntry[],
): Result<null, BundleRefusal> {
  const inZip = new Map(
    entries
      .filter(({ entry, path }) => path !== MANIFEST_FILE && !isFolder(entry))
      .map((item) => [item.path, item]),
  );
  const listed = new Set<string>();
  for (const file of manifest.files) {
    if (listed.has(file.path)) return refuse(`the manifest lists "${file.path}" twice`);
    listed.add(file.path);
    const found = inZip.get(file.path);
    if (!found) return refuse(`the manifest lists "${file.path}", which is not in the bundle`);
    if (found.entry.uncompressedSize !== file.size)
      return refuse(
        `the manifest says "${file.path}" is ${file.size} bytes, the zip says ${found.entry.uncompressedSize}`,
      );
  }
  for (const path of inZip.keys())
    if (!listed.has(path)) return refuse(`"${path}" is in the bundle but not in its manifest`);
  return { ok: true, value: null };
}

/**
 * Inflates one entry, counting its bytes against its declared size and the limit as they come out (a
 * zip bomb is stopped there), hashing them, and writing them under `into` (or into `chunks`).
 */
async function inflate(
  zip: ZipFile,
  entry: Entry,
  path: string,
  limits: BundleLimits,
  into?: string,
  chunks?: Buffer[],
): Promise<Result<string, BundleRefusal>> {
  const limit = Math.min(entry.uncompressedSize, limits.fileBytes);
  const hash = createHash('sha256');
  let count = 0;
  let tooBig = false;
  let source: Readable;
  try {
    source = await zip.openReadStreamPromise(entry);
  } catch (error) {
    return refuse(`"${path}" cannot be read (${messageOf(error)})`);
  }
  // Once the count has stopped it, the inflater may still report the overflow it found: already refused.
  source.on('error', () => undefined);
  const counter = new Writable({
    write(chunk: Buffer, _encoding, done) {
      count += chunk.length;
      if (count > limit) {
        tooBig = true;
        done(new Error('too big'));
        return;
      }
      hash.update(chunk);
      chunks?.push(chunk);
      if (sink) sink.write(chunk, done);
      else done();
    },
  });
  let sink: ReturnType<typeof createWriteStream> | undefined;
  if (into !== undefined) {
    const target = join(into, ...path.split('/'));
    await mkdir(dirname(target), { recursive: true });
    sink = createWriteStream(target, { flags: 'wx' });
  }
  try {
    await pipeline(source, counter);
  } catch (error) {
    sink?.destroy();
    if (tooBig || /too many bytes/i.test(messageOf(error)))
      return refuse(`"${path}" inflates to more than it declares or may be (a zip bomb?)`);
    return refuse(`"${path}" cannot be read (${messageOf(error)})`);
  }
  if (sink)
    await new Promise<void>((resolve, reject) =>
      sink.end((error?: Error | null) => (error ? reject(error) : resolve())),
    );
  if (count !== entry.uncompressedSize) return refuse(`"${path}" is shorter than it declares`);
  return { ok: true, value: hash.digest('hex') };
}
