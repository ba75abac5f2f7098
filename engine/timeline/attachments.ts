import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../files/atomic-write';

/**
 * The bytes of images and sounds in tool results, kept beside the timeline (`.lemming/attachments/`,
 * which agents may not change) under their sha256, so an event holds only the reference and the same
 * image kept twice takes the room once.
 */
export const ATTACHMENTS_FOLDER = '.lemming/attachments';

const SHA256 = /^[0-9a-f]{64}$/;

export const sha256Of = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

function attachmentPath(orgPath: string, sha256: string): string {
  return join(orgPath, ATTACHMENTS_FOLDER, sha256);
}

/** Keeps the bytes under their sha256 (written whole or not at all); returns the sha256. */
export async function saveAttachment(orgPath: string, bytes: Uint8Array): Promise<string> {
  const sha256 = sha256Of(bytes);
  await writeFileAtomic(attachmentPath(orgPath, sha256), bytes);
  return sha256;
}

/** The bytes kept under `sha256`, or null when they are not there or are not what was kept (changed since). */
export async function readAttachment(orgPath: string, sha256: string): Promise<Buffer | null> {
  if (!SHA256.test(sha256)) return null;
  const bytes = await readFile(attachmentPath(orgPath, sha256)).catch(() => null);
  return bytes && sha256Of(bytes) === sha256 ? bytes : null;
}
