/**
 * `read()`'s result, or null when what it reads does not exist (ENOENT); any other failure is thrown.
 * For the engine's synchronous reads of org files and folders that may not have been created yet.
 */
export function whenExists<T>(read: () => T): T | null {
  try {
    return read();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}
