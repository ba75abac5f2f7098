import { createHash } from 'node:crypto';
import { crc32, deflateRawSync } from 'node:zlib';
import { BUNDLE_FORMAT_VERSION, MANIFEST_FILE, type BundleManifest } from '../../api/bundle-schemas';

/**
 * One entry of a hand-made zip, with every field a hostile bundle might lie in: the name as raw bytes,
 * the Unix file type and mode, the sizes it declares (a 10 GB size is written as ZIP64), the flags.
 */
export interface RawEntry {
  name: string | Buffer;
  data?: Buffer | string;
  /** The Unix mode (type and permissions) in the high half of the external attributes; a plain file by default. */
  mode?: number;
  /** The uncompressed size to declare, when it should differ from the data's. */
  declaredSize?: number;
  deflate?: boolean;
  flags?: number;
}

/** A zip archive exactly as described, which no well-behaved zip writer would produce for the bad cases. */
export function rawZip(entries: readonly RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const name = typeof entry.name === 'string' ? Buffer.from(entry.name, 'utf8') : entry.name;
    const data = Buffer.from(entry.data ?? '');
    const packed = entry.deflate ? deflateRawSync(data) : data;
    const declared = entry.declaredSize ?? data.length;
    const zip64 = declared > 0xfffffffe;
    const extra = zip64 ? Buffer.alloc(4 + 16) : Buffer.alloc(0);
    if (zip64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(16, 2);
      extra.writeBigUInt64LE(BigInt(declared), 4);
      extra.writeBigUInt64LE(BigInt(packed.length), 12);
    }
    const shared = (header: Buffer, at: number) => {
      header.writeUInt16LE(zip64 ? 45 : 20, at);
      header.writeUInt16LE(0x0800 | (entry.flags ?? 0), at + 2);
      header.writeUInt16LE(entry.deflate ? 8 : 0, at + 4);
      header.writeUInt16LE(0, at + 6);
      header.writeUInt16LE(0x21, at + 8);
      header.writeUInt32LE(crc32(data), at + 10);
      header.writeUInt32LE(zip64 ? 0xffffffff : packed.length, at + 14);
      header.writeUInt32LE(zip64 ? 0xffffffff : declared, at + 18);
      header.writeUInt16LE(name.length, at + 22);
      header.writeUInt16LE(extra.length, at + 24);
    };
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    shared(local, 4);
    locals.push(local, name, extra, packed);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(0x031e, 4);
    shared(central, 6);
    central.writeUInt32LE(((entry.mode ?? 0o100644) << 16) >>> 0, 38);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name, extra);
    offset += local.length + name.length + extra.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A manifest that tells the truth about these files (a test then makes it lie, or the files). */
export function honestManifest(
  files: Record<string, string>,
  overrides: Partial<BundleManifest> = {},
): BundleManifest {
  return {
    format: 'lemming-bundle',
    formatVersion: BUNDLE_FORMAT_VERSION,
    createdAt: '2026-01-01T00:00:00.000Z',
    orgName: 'hostile',
    scope: { kind: 'org' },
    includes: { memory: false, outboxes: false, history: false, workspaces: false },
    agents: [],
    departments: [],
    reach: [],
    secrets: [],
    leftOut: [],
    files: Object.entries(files).map(([path, text]) => ({
      path,
      size: Buffer.byteLength(text),
      sha256: createHash('sha256').update(text).digest('hex'),
    })),
    ...overrides,
  };
}

/** The entries of a bundle holding these files and a manifest telling the truth about them. */
export function honestEntries(files: Record<string, string>, manifest = honestManifest(files)): RawEntry[] {
  return [
    ...Object.entries(files).map(([name, data]) => ({ name, data })),
    { name: MANIFEST_FILE, data: JSON.stringify(manifest) },
  ];
}
