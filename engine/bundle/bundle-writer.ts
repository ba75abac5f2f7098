import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yazl from 'yazl';
import { MANIFEST_FILE, type BundleFile, type BundleManifest } from '../api/bundle-schemas';

/** One file to put in a bundle: its path in the bundle and how to get its bytes, called when its turn comes. */
export interface BundleSource {
  path: string;
  bytes(): Promise<Buffer>;
}

/**
 * Writes a bundle: each file in turn (its bytes asked for only when the zip reaches it, so one file at a
 * time is in memory), then the manifest, made from every file's size and sha256 as written. Writes to
 * a temporary file beside `file` and renames it into place, so a failed export leaves no file.
 */
export async function writeBundle(
  file: string,
  sources: readonly BundleSource[],
  manifestOf: (files: BundleFile[]) => BundleManifest,
): Promise<BundleManifest> {
  const zip = new yazl.ZipFile();
  const files: BundleFile[] = [];
  const mtime = new Date();
  for (const source of sources)
    zip.addReadStreamLazy(source.path, { mtime, mode: 0o100644 }, (ready) => {
      source.bytes().then(
        (bytes) => {
          files.push({
            path: source.path,
            size: bytes.length,
            sha256: createHash('sha256').update(bytes).digest('hex'),
          });
          ready(null, Readable.from([bytes]));
        },
        (error: Error) => ready(error, undefined as never),
      );
    });
  let manifest: BundleManifest | undefined;
  zip.addReadStreamLazy(MANIFEST_FILE, { mtime, mode: 0o100644 }, (ready) => {
    try {
      manifest = manifestOf(files);
      ready(null, Readable.from([Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)]));
    } catch (error) {
      ready(error as Error, undefined as never);
    }
  });
  zip.end();
  const partial = join(dirname(file), `.${basename(file)}.${process.pid}.partial`);
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', reject);
      pipeline(zip.outputStream, createWriteStream(partial, { flags: 'wx' })).then(resolve, reject);
    });
    await rename(partial, file);
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
  return manifest!;
}
