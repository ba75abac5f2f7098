import { createHash } from 'node:crypto';
import { readdirSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { MessageStore } from '../messages/message-store';
import { parseOutboxFileName, readOutboxEntryText } from '../messages/outbox-entry';
import { jsonNestingProblem, parseJsonText } from '../files/json-text';
import { readTextFile } from '../files/read-text-file';
import { ListedNames } from '../files/listed-names';
import type { KnownTimelineEvent } from '../api/timeline-events';
import type { TimelineStore } from '../timeline/timeline-store';
import type { RunSecrets } from './run-secrets';
import { AGENTS_FOLDER, agentPaths, inOrg } from '../org/org-layout';

/**
 * Brings what LeMMing (or a person, or an older version of this app) left in an org folder into the
 * timeline, keeping every field: outbox entries become messages, memory files and log lines become
 * events. Each file is imported once; files the engine wrote itself are never imported.
 */
export class DiskImport {
  private readonly selectKnown: Database.Statement;
  private readonly insertKnown: Database.Statement;
  private readonly selectUnreadable: Database.Statement;
  private readonly upsertUnreadable: Database.Statement;
  /** Outbox files already in the message store: each tick lists every outbox, and most of its files are old. */
  private readonly knownOutboxFiles = new ListedNames();

  constructor(
    private readonly orgPath: string,
    private readonly timeline: TimelineStore,
    private readonly messages: MessageStore,
    private readonly clock: () => Date,
    private readonly secrets: Pick<RunSecrets, 'redactText' | 'redactValue'>,
  ) {
    this.selectKnown = timeline.db.prepare('SELECT 1 FROM known_files WHERE path = ?').pluck();
    this.insertKnown = timeline.db.prepare('INSERT OR IGNORE INTO known_files (path, origin) VALUES (?, ?)');
    this.selectUnreadable = timeline.db
      .prepare('SELECT text_sha256 FROM unreadable_files WHERE path = ?')
      .pluck();
    this.upsertUnreadable = timeline.db.prepare(
      'INSERT INTO unreadable_files (path, text_sha256) VALUES (?, ?) ON CONFLICT (path) DO UPDATE SET text_sha256 = excluded.text_sha256',
    );
  }

  /** Call inside the transaction that writes `paths`, so they are never mistaken for foreign files. */
  markWritten(paths: readonly string[]): void {
    for (const path of paths) this.insertKnown.run(path, 'written');
  }

  /** Imports every agent folder's new outbox entries, memory files and log files. Returns the number of events. */
  async importAll(): Promise<number> {
    return this.importFrom({ memoryAndLogs: true });
  }

  /**
   * Imports only new outbox entries: what a person or another program may add while the org runs
   * (memory and logs are the agent's own, so they are imported once, when the org is opened).
   */
  async importOutboxes(): Promise<number> {
    return this.importFrom({ memoryAndLogs: false });
  }

  private async importFrom(options: { memoryAndLogs: boolean }): Promise<number> {
    const folders = subfolders(join(this.orgPath, AGENTS_FOLDER));
    this.knownOutboxFiles.keepFolders(folders);
    // Folders are read at once but their findings are kept in folder order, so imports are deterministic.
    const found = await Promise.all(
      folders.map(async (folder) => {
        const messages: { file: string; text: string; tick: number; sender: string }[] = [];
        const events: KnownTimelineEvent[] = [];
        const known: string[] = [];
        await this.collectOutbox(folder, messages);
        if (options.memoryAndLogs) {
          await this.collectMemory(folder, events, known);
          await this.collectLogs(folder, events, known);
        }
        return { messages, events, known };
      }),
    );
    const messages = found.flatMap((folder) => folder.messages);
    const events = found.flatMap((folder) => folder.events);
    const known = found.flatMap((folder) => folder.known);
    if (messages.length === 0 && events.length === 0) return 0;
    messages.sort((a, b) => a.tick - b.tick || (a.file < b.file ? -1 : 1));
    return this.timeline.transaction(() => {
      // Checked again inside the transaction: another program (`lemming send`, the app) may have taken the same file in since it was listed.
      const messageEvents = messages
        .filter((message) => !this.messages.has(message.file))
        .flatMap((message) => this.addMessage(message));
      for (const path of known) this.insertKnown.run(path, 'imported');
      return this.timeline.appendMany(
        [...messageEvents, ...events].map((event) => this.secrets.redactValue(event)),
      ).length;
    });
  }

  private async collectOutbox(
    folder: string,
    into: { file: string; text: string; tick: number; sender: string }[],
  ): Promise<void> {
    const dir = inOrg(this.orgPath, agentPaths(folder).outbox);
    const names = fileNames(dir);
    const known = this.knownOutboxFiles.relist(folder, names);
    for (const name of names) {
      const parsedName = parseOutboxFileName(name);
      if (!parsedName || known.has(name)) continue;
      const file = agentPaths(folder).outboxFile(name);
      if (this.messages.has(file)) {
        known.add(name);
        continue;
      }
      const read = await readTextFile(join(dir, name));
      if (read.found) into.push({ file, text: read.text, tick: parsedName.tick, sender: folder });
    }
  }

  private addMessage(message: {
    file: string;
    text: string;
    tick: number;
    sender: string;
  }): KnownTimelineEvent[] {
    const read = readOutboxEntryText(message.text, message.file);
    if (!read.ok) {
      // Warned about once: every tick lists the outboxes again, and the file stays as it is until someone fixes it.
      const sha256 = createHash('sha256').update(message.text).digest('hex');
      if (this.selectUnreadable.get(message.file) === sha256) return [];
      this.upsertUnreadable.run(message.file, sha256);
      const { message: problem, line, column } = read.error;
      return [
        {
          kind: 'warning',
          code: 'outbox_unreadable',
          file: message.file,
          message: problem,
          line,
          column,
          time: this.clock().toISOString(),
          agent: message.sender,
        },
      ];
    }
    const entry = read.raw;
    const time =
      typeof entry.created_at === 'string'
        ? entry.created_at
        : typeof entry.timestamp === 'string'
          ? entry.timestamp
          : this.clock().toISOString();
    const kind = typeof entry.kind === 'string' ? entry.kind : JSON.stringify(entry.kind ?? null);
    const tick = typeof entry.tick === 'number' && Number.isInteger(entry.tick) ? entry.tick : message.tick;
    this.messages.add({
      id: String(entry.id ?? message.file),
      sender: message.sender,
      tick,
      kind,
      file: message.file,
      json: this.secrets.redactText(message.text),
    });
    return [
      { kind: 'message', source: 'disk', file: message.file, entry, time, tick, agent: message.sender },
    ];
  }

  private async collectMemory(folder: string, events: KnownTimelineEvent[], known: string[]): Promise<void> {
    const dir = inOrg(this.orgPath, agentPaths(folder).memory);
    for (const name of fileNames(dir)) {
      const file = `${agentPaths(folder).memory}/${name}`;
      if (!name.endsWith('.json') || this.selectKnown.get(file)) continue;
      const read = await readTextFile(join(dir, name));
      if (!read.found) continue;
      known.push(file);
      const parsed = parseUntrustedJson(read.text);
      const record = parsed.ok ? parsed.value : null;
      const tick =
        isRecord(record) && typeof record.tick === 'number' && Number.isInteger(record.tick)
          ? record.tick
          : null;
      events.push(
        parsed.ok
          ? {
              kind: 'memory_snapshot',
              source: 'disk',
              file,
              record,
              time: this.clock().toISOString(),
              agent: folder,
              tick,
            }
          : {
              kind: 'warning',
              code: 'memory_unreadable',
              file,
              message: parsed.error.message,
              line: parsed.error.line,
              column: parsed.error.column,
              time: this.clock().toISOString(),
              agent: folder,
            },
      );
    }
  }

  private async collectLogs(folder: string, events: KnownTimelineEvent[], known: string[]): Promise<void> {
    for (const name of ['structured.jsonl', 'activity.log']) {
      const file = `${agentPaths(folder).logs}/${name}`;
      if (this.selectKnown.get(file)) continue;
      const read = await readTextFile(join(this.orgPath, file));
      if (!read.found) continue;
      known.push(file);
      read.text.split('\n').forEach((line, index) => {
        if (line.trim() === '') return;
        events.push(
          name === 'activity.log'
            ? activityEvent(line, file, index + 1, folder)
            : structuredLogEvent(line, file, index + 1, folder),
        );
      });
    }
  }
}

function structuredLogEvent(
  line: string,
  file: string,
  lineNumber: number,
  folder: string,
): KnownTimelineEvent {
  const parsed = parseUntrustedJson(line);
  if (!parsed.ok || !isRecord(parsed.value)) {
    return {
      kind: 'warning',
      code: 'log_line_unreadable',
      file,
      line: lineNumber,
      text: line,
      agent: folder,
    };
  }
  const record = parsed.value;
  return {
    kind: 'lemming_log',
    source: 'disk',
    file,
    line: lineNumber,
    record,
    time: typeof record.timestamp === 'string' ? record.timestamp : null,
    tick: typeof record.tick === 'number' && Number.isInteger(record.tick) ? record.tick : null,
    agent: typeof record.agent === 'string' ? record.agent : folder,
  };
}

/** activity.log lines are `[Tick N] notes`. */
function activityEvent(line: string, file: string, lineNumber: number, folder: string): KnownTimelineEvent {
  const match = /^\[Tick (-?\d+)\] ?(.*)$/.exec(line);
  return {
    kind: 'activity',
    source: 'disk',
    file,
    line: lineNumber,
    text: line,
    notes: match ? match[2] : line,
    tick: match ? Number(match[1]) : null,
    agent: folder,
  };
}

/** Parsed JSON from a file anyone could have written, refused when it nests deeper than anything downstream may walk. */
function parseUntrustedJson(text: string): ReturnType<typeof parseJsonText> {
  const tooDeep = jsonNestingProblem(text);
  return tooDeep ? { ok: false, error: tooDeep } : parseJsonText(text);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

// A synchronous listing, like the engine's reads of small files: see engine/org/read-text-file.ts.
function subfolders(dir: string): string[] {
  return entriesOf(dir)
    .filter((entry) => entry.isDirectory() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}

function fileNames(dir: string): string[] {
  return entriesOf(dir)
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name)
    .sort();
}

function entriesOf(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}
