import { resolve } from 'node:path';
import type { TimelinePage, TimelineQuery } from '../../api/timeline-schemas';
import type { OrgReader } from '../../app/org-reader';
import { exportTimeline, importTimeline, timelinePage, timelinePageWithEvents } from '../../app/timeline';
import type { TimelineStore } from '../../timeline/timeline-store';
import { CliFailure, EXIT_OK, printJson, UsageError, type CliIo } from '../cli-io';
import { stringOption, type CommandCode, type ParsedCommandArgs } from '../command';
import { integer, orgFolder, positiveInteger } from '../org-arg';
import { answerOf, withOrgContext, withOrgReader } from '../org-context';

const FILTER_OPTIONS = {
  agent: { type: 'string', multiple: true },
  kind: { type: 'string', multiple: true },
  from: { type: 'string' },
  to: { type: 'string' },
  text: { type: 'string' },
  run: { type: 'string' },
} as const;

function filterFrom(
  values: ParsedCommandArgs['values'],
): Omit<TimelineQuery, 'direction' | 'cursor' | 'limit'> {
  const list = (name: string) => {
    const value = values[name] as unknown;
    return Array.isArray(value) ? (value as string[]) : undefined;
  };
  const tickFrom = integer(stringOption(values, 'from'), '--from');
  const tickTo = integer(stringOption(values, 'to'), '--to');
  if (tickFrom !== undefined && tickTo !== undefined && tickFrom > tickTo)
    throw new UsageError('--from must not be after --to.');
  return {
    ...(list('agent') ? { agents: list('agent') } : {}),
    ...(list('kind') ? { kinds: list('kind') } : {}),
    ...(tickFrom !== undefined ? { tickFrom } : {}),
    ...(tickTo !== undefined ? { tickTo } : {}),
    ...(stringOption(values, 'text') ? { text: stringOption(values, 'text') } : {}),
    ...(stringOption(values, 'run') ? { runId: stringOption(values, 'run') } : {}),
  };
}

/** The org's timeline, read-only (inspecting never changes anything), or why there is none. */
function timelineOf(reader: OrgReader): TimelineStore {
  if (!reader.timeline)
    throw new CliFailure(`${reader.orgPath} has no timeline to read yet: run the org first.`);
  return reader.timeline;
}

/** A read-only timeline cannot index its newest events, so a text query says what it could not see. */
function noteUnsearched(io: CliIo, timeline: TimelineStore, text: string | undefined): void {
  if (text === undefined) return;
  const unsearched = timeline.unsearchedEvents();
  if (unsearched === 0) return;
  io.stderr.write(
    `note: the newest ${unsearched} event${unsearched === 1 ? ' is' : 's are'} not searchable yet; ` +
      'they are indexed when the engine finishes its tick or closes\n',
  );
}

function describe(io: CliIo, row: TimelinePage['rows'][number]): void {
  io.stdout.write(
    `#${row.seq} tick ${row.tick ?? '-'} ${row.agent ?? '-'} ${row.kind}${row.summary ? `: ${row.summary}` : ''}\n`,
  );
}

export const timelineCommand: CommandCode = {
  options: {
    ...FILTER_OPTIONS,
    limit: { type: 'string' },
    cursor: { type: 'string' },
    asc: { type: 'boolean' },
    json: { type: 'boolean' },
  },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const cursor = integer(stringOption(values, 'cursor'), '--cursor');
    const query = {
      ...filterFrom(values),
      direction: values.asc ? ('asc' as const) : ('desc' as const),
      limit: Math.min(positiveInteger(stringOption(values, 'limit'), '--limit', 50), 1000),
      ...(cursor !== undefined ? { cursor } : {}),
    };
    return withOrgReader(org, io, async (reader) => {
      const timeline = timelineOf(reader);
      if (values.json) {
        const page = timelinePageWithEvents(timeline, query);
        noteUnsearched(io, timeline, query.text);
        printJson(io, { events: page.rows, nextCursor: page.nextCursor, latestSeq: page.latestSeq });
        return EXIT_OK;
      }
      const page = timelinePage(timeline, query);
      noteUnsearched(io, timeline, query.text);
      for (const row of page.rows) describe(io, row);
      if (page.nextCursor !== null) io.stdout.write(`more: --cursor ${page.nextCursor}\n`);
      return EXIT_OK;
    });
  },
};

export const exportCommand: CommandCode = {
  options: { ...FILTER_OPTIONS },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    if (!positionals[1]) throw new UsageError('Give the file to write.');
    const filter = filterFrom(values);
    const file = resolve(positionals[1]);
    return withOrgReader(org, io, async (reader) => {
      const timeline = timelineOf(reader);
      const { exported } = await answerOf(exportTimeline(timeline, filter, async () => file));
      noteUnsearched(io, timeline, filter.text);
      io.stdout.write(`exported ${exported} events to ${file}\n`);
      return EXIT_OK;
    });
  },
};

export const importCommand: CommandCode = {
  options: { json: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    if (!positionals[1]) throw new UsageError('Give the JSON Lines file to import.');
    const file = resolve(positionals[1]);
    const summary = await withOrgContext(org, io, values, (context) =>
      answerOf(importTimeline(context.engine.timeline, async () => file)),
    );
    if (values.json) printJson(io, summary);
    else {
      io.stdout.write(`imported ${summary.imported} events\n`);
      for (const skip of summary.skipped) io.stdout.write(`skipped line ${skip.line}: ${skip.reason}\n`);
    }
    return EXIT_OK;
  },
};
