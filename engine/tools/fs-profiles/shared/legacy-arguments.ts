import type { ParsedArguments } from './tool-arguments';

/**
 * Arguments under the names gemini-cli used before February 2026 (which models trained on it still
 * send) rewritten to the current names. A call that gives both names is left alone, so the check
 * reports the old one as unknown instead of silently choosing.
 */
export function renameLegacyArguments(
  args: unknown,
  renames: Readonly<Record<string, string>>,
): ParsedArguments<unknown> {
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return { ok: true, value: args };
  const upgraded: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const [legacy, current] of Object.entries(renames)) {
    if (!Object.hasOwn(upgraded, legacy) || Object.hasOwn(upgraded, current)) continue;
    upgraded[current] = upgraded[legacy];
    delete upgraded[legacy];
  }
  return { ok: true, value: upgraded };
}
