import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { AppInfo } from '../../engine/api/schemas';
import type { DesktopSettings } from '../../engine/api/desktop-schemas';
import { zipArchive, type ZipEntry } from '../../engine/files/zip-writer';

export interface DiagnosticsInput {
  appInfo: AppInfo;
  system: { platform: string; release: string; arch: string };
  settings: DesktopSettings;
  /** The app's log files, newest first. */
  logFiles: string[];
  /** The open org's report (its status and each agent's problems), as the engine answers it; no agent content. */
  org: { path: string; status: unknown; agents: unknown } | null;
  /** Every text passes through it: a value in the secret store never leaves in the archive. */
  redact: (text: string) => string;
  now?: Date;
}

/**
 * What Help → Copy Diagnostics saves for the person to send: versions, the OS, the app's settings, the
 * logs and the open org's report, every file redacted again (a log line written before a secret was
 * stored is redacted now).
 */
export function diagnosticsArchive(input: DiagnosticsInput): Buffer {
  const json = (value: unknown) => input.redact(`${JSON.stringify(value, null, 2)}\n`);
  const entries: ZipEntry[] = [
    { name: 'versions.json', data: json({ ...input.appInfo, system: input.system }) },
    { name: 'settings.json', data: json(input.settings) },
    ...input.logFiles.map((file) => ({ name: `logs/${basename(file)}`, data: input.redact(readLog(file)) })),
    ...(input.org
      ? [
          { name: 'org/report.json', data: json({ path: input.org.path, status: input.org.status }) },
          { name: 'org/agents.json', data: json(input.org.agents) },
        ]
      : []),
    {
      name: 'README.txt',
      data:
        "Diagnostics of LeMMing Desktop: versions, settings, the app log and the open org's report.\n" +
        'Stored secret values are replaced by their names; no agent messages, memory or files are included.\n',
    },
  ];
  return zipArchive(entries, input.now);
}

function readLog(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    return `(this log file could not be read: ${error instanceof Error ? error.message : String(error)})\n`;
  }
}

/** The file name the save dialog suggests, e.g. `lemming-diagnostics-2026-11-27-2140.zip`. */
export function diagnosticsFileName(now: Date): string {
  const stamp = now.toISOString().slice(0, 16).replace('T', '-').replace(':', '');
  return `lemming-diagnostics-${stamp}.zip`;
}
