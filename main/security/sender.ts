/** The parts of an IPC sender's frame that decide whether it may talk to main. */
export interface SenderFrame {
  url: string;
  isMainFrame: boolean;
}

/**
 * Only the app's own top-level document may call main: not an iframe, not a page that was navigated
 * elsewhere, not another origin (Electron security checklist #17, as VS Code's ValidatedIpcMain does it).
 */
export function isTrustedSender(
  frame: SenderFrame | null | undefined,
  trustedOrigins: readonly string[],
): boolean {
  if (!frame || !frame.isMainFrame) return false;
  let origin: string;
  try {
    origin = originOf(frame.url);
  } catch {
    return false;
  }
  return trustedOrigins.includes(origin);
}

/** URL.origin is "null" for non-special schemes such as app:, so build it from protocol and host. */
export function originOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}`;
}
