/**
 * The CLI's last resort for an error nothing else caught (an unhandled promise rejection or an
 * uncaught exception): one plain line on stderr naming the command, every open engine closed (which
 * releases the org's run lock), and exit 1. Without it Node prints a raw stack trace and leaves the
 * run lock to be taken over by the next run.
 */
const openEngines = new Set<{ close(): void }>();

/** Keeps `engine` to be closed by the last resort while it is open; call the answer once it is closed. */
export function closeOnLastResort(engine: { close(): void }): () => void {
  openEngines.add(engine);
  return () => openEngines.delete(engine);
}

export function installLastResort(command: string, stderr: { write(text: string): unknown }): void {
  let ending = false;
  const end = (error: unknown) => {
    if (ending) return;
    ending = true;
    const message = error instanceof Error ? error.message : String(error);
    stderr.write(
      `lemming ${command}: stopped by an unexpected error (${message}); the org is left as its last commit.\n`,
    );
    for (const engine of openEngines) {
      try {
        engine.close();
      } catch {
        // Closing is best effort here: the process ends next, and the OS releases what is left.
      }
    }
    process.exit(1);
  };
  process.on('unhandledRejection', end);
  process.on('uncaughtException', end);
}
