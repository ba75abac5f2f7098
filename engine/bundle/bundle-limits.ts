/**
 * How much a bundle may hold (docs/BUNDLE-FORMAT.md). Checked against the sizes the zip declares before
 * anything is inflated, and again against the bytes that actually come out while inflating.
 */
export interface BundleLimits {
  /** The largest one file may be, in bytes. */
  fileBytes: number;
  /** The most all files together may be, in bytes. */
  totalBytes: number;
  /** The most entries (files and folders) a bundle may have. */
  entries: number;
  /** The largest the manifest may be, in bytes. */
  manifestBytes: number;
}

const MIB = 1024 * 1024;

export const DEFAULT_BUNDLE_LIMITS: BundleLimits = {
  fileBytes: 64 * MIB,
  totalBytes: 1024 * MIB,
  entries: 50_000,
  manifestBytes: 16 * MIB,
};

/** A size as a person reads it: "64 MB", "1.5 GB", "12 KB". */
export function sizeInWords(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let size = bytes;
  let unit = 0;
  while (size >= 1024 && unit < units.length - 1) {
    size /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${size} bytes` : `${Number(size.toFixed(1))} ${units[unit]}`;
}
