/**
 * Why SQLite could not use a database file, in words for a person: null when the error is not one of the
 * file's storage (a constraint, a bug), which then keeps its own message. SQLite's own words ("database or
 * disk is full", "disk I/O error") say what it could not do, not what the person can do about it.
 */
export function storageFailure(error: unknown): { reading: boolean; reason: string } | null {
  const code = String((error as { code?: unknown } | null)?.code ?? '');
  const reading = /_READ$|_SHORT_READ$/.test(code);
  if (code.startsWith('SQLITE_FULL')) return { reading, reason: 'the disk is full' };
  if (code.startsWith('SQLITE_IOERR')) return { reading, reason: 'the disk reported an input/output error' };
  if (code.startsWith('SQLITE_READONLY') || code.startsWith('SQLITE_PERM'))
    return { reading, reason: 'the file or its folder is read-only' };
  if (code.startsWith('SQLITE_CANTOPEN')) return { reading, reason: 'the file cannot be opened' };
  return null;
}
