/** What reading a file found. `reason` says why in words that name no host path. */
export type TextRead =
  | { kind: 'text'; text: string }
  | { kind: 'binary' }
  | { kind: 'missing' }
  | { kind: 'unreadable'; reason: string };

/**
 * The file operations apply_patch needs, on paths the resolver has already checked. `readText` never
 * rejects; the other methods reject on failure (with an error whose `code` says why, as node:fs does)
 * and `applyPatchPlan` turns every rejection into an error value.
 */
export interface PatchFilesystem {
  readText(path: string): Promise<TextRead>;
  /** True when anything (file, folder, link) is at `path`. */
  exists(path: string): Promise<boolean>;
  /** Creates one folder whose parent exists. */
  createDirectory(path: string): Promise<void>;
  /** Removes an empty folder. */
  removeDirectory(path: string): Promise<void>;
  /**
   * Creates `path`, which must not exist, with `text` as UTF-8, flushed to disk. When a file is at
   * `permissionsFrom`, the new file takes its permission bits (an edited script stays executable).
   */
  writeNewFile(path: string, text: string, permissionsFrom: string): Promise<void>;
  /** Copies a file's bytes to `to`, which must not exist. */
  copyFile(from: string, to: string): Promise<void>;
  /** Renames a file, replacing a file at `to`. */
  rename(from: string, to: string): Promise<void>;
  removeFile(path: string): Promise<void>;
}
