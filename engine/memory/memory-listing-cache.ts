import { join } from 'node:path';
import { pathSignature } from '../files/folder-signature';
import { listMemory, memoryDir, type MemoryListing } from './memory-file';

interface Kept {
  maxItems: number;
  /** What the folder and the files the listing read looked like before they were read; null: sign again. */
  signature: string | null;
  listing: MemoryListing;
}

/**
 * Each agent's memory listing (what its prompt shows), read again only when the memory folder or one of
 * the files the listing read changes. Adding, removing or renaming a file changes the folder's own
 * times, so the folder's stat and the stats of the files read cover all the listing depends on, however
 * many files the folder holds (the listing stops at `maxItems`). Holds at most `capacity` agents,
 * starting over when full.
 */
export class MemoryListingCache {
  private readonly kept = new Map<string, Kept>();

  constructor(private readonly capacity = 10_000) {}

  async list(agentDir: string, maxItems: number): Promise<MemoryListing> {
    const kept = this.kept.get(agentDir);
    const signedFiles = kept?.listing.files ?? [];
    // Signed before reading, so a change made while the files are read is seen the next time.
    const signature = memorySignature(agentDir, signedFiles);
    if (kept && kept.maxItems === maxItems && kept.signature === signature) return kept.listing;
    const listing = await listMemory(agentDir, maxItems);
    if (this.kept.size >= this.capacity) this.kept.clear();
    // When this listing read other files than those signed, the next call signs those before reading again.
    const sameFiles =
      listing.files.length === signedFiles.length &&
      listing.files.every((name, i) => name === signedFiles[i]);
    this.kept.set(agentDir, { maxItems, signature: sameFiles ? signature : null, listing });
    return listing;
  }
}

function memorySignature(agentDir: string, files: readonly string[]): string {
  const folder = memoryDir(agentDir);
  return [
    pathSignature(folder, false),
    ...files.map((name) => pathSignature(join(folder, name), false)),
  ].join('|');
}
