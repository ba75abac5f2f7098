import { HumanImportance } from '../../api/credit-schemas';
import { sendMessage } from '../../app/org';
import { answerOf, secretsFileOption, withOrgContext } from '../org-context';
import { messageText } from '../../run/prompt';
import { discoverAgents } from '../../org/discover';
import { CliFailure, EXIT_OK, printJson, UsageError } from '../cli-io';
import { stringOption, type Command } from '../command';
import { MessageStore, type Inbox } from '../../messages/message-store';
import { readableSenders } from '../../run/org-engine';
import { orgFolder } from '../org-arg';
import { openTimelineToRead } from '../read-only-org';

export const sendCommand: Command = {
  name: 'send',
  summary: 'Send a message from the human to the org (agents that read "human" see it).',
  usage: 'send <org> <text> [--importance normal|high|critical] [--to AGENT] [--json] [--secrets-file PATH]',
  options: {
    importance: { type: 'string' },
    to: { type: 'string' },
    json: { type: 'boolean' },
    ...secretsFileOption,
  },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const text = positionals.slice(1).join(' ').trim();
    if (!text) throw new UsageError('Give the message text after the org folder.');
    const importance = HumanImportance.safeParse(stringOption(values, 'importance') ?? 'normal');
    if (!importance.success) throw new UsageError('--importance must be normal, high or critical.');
    const target = stringOption(values, 'to') ?? null;
    const entry = await withOrgContext(org, io, values, (context) =>
      answerOf(sendMessage(context, { text, importance: importance.data, target })),
    );
    if (values.json) printJson(io, entry);
    else io.stdout.write(`sent ${entry.id} at tick ${entry.tick}\n`);
    return EXIT_OK;
  },
};

export const inboxCommand: Command = {
  name: 'inbox',
  summary: 'Show what an agent will be shown on its next turn: new messages, then earlier ones.',
  usage: 'inbox <org> <agent> [--json]',
  options: { json: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const name = positionals[1];
    if (!name) throw new UsageError('Give the agent whose inbox to show.');
    const agent = (await discoverAgents(org)).find(
      (candidate) => candidate.valid && candidate.resume.name === name,
    );
    if (!agent || !agent.valid) throw new CliFailure(`There is no agent named "${name}" in ${org}.`);
    // Read-only: what the timeline holds (outbox files written since the last run are taken in by the next one).
    const { timeline, note } = openTimelineToRead(org);
    if (note) io.stderr.write(`note: ${note}\n`);
    let inbox: Inbox = { fresh: [], earlier: [], cursorAfter: 0, moreWaiting: false };
    if (timeline) {
      try {
        const store = new MessageStore(timeline.db);
        inbox = store.inbox(name, readableSenders(agent.resume), store.latestSeq());
      } finally {
        timeline.close();
      }
    }
    if (values.json) {
      const entries = (messages: typeof inbox.fresh) =>
        messages.map((message) => ({
          seq: message.seq,
          file: message.file,
          entry: JSON.parse(message.json) as unknown,
        }));
      printJson(io, {
        agent: name,
        fresh: entries(inbox.fresh),
        earlier: entries(inbox.earlier),
        moreWaiting: inbox.moreWaiting,
      });
      return EXIT_OK;
    }
    const line = (message: (typeof inbox.fresh)[number]) => {
      const importance = (JSON.parse(message.json) as { payload?: { importance?: unknown } }).payload
        ?.importance;
      return `  ${importance === 'high' || importance === 'critical' ? '! ' : ''}[tick ${message.tick ?? '?'}] ${message.sender} (${message.kind ?? 'message'}): ${messageText(message)}\n`;
    };
    io.stdout.write(`New for ${name} (${inbox.fresh.length}${inbox.moreWaiting ? ', more waiting' : ''}):\n`);
    for (const message of inbox.fresh) io.stdout.write(line(message));
    if (inbox.earlier.length > 0) {
      io.stdout.write('Earlier:\n');
      for (const message of inbox.earlier) io.stdout.write(line(message));
    }
    return EXIT_OK;
  },
};
