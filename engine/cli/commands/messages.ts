import { HumanImportance, SendMessageInput } from '../../api/credit-schemas';
import type { InboxMessage } from '../../api/status-schemas';
import { agentInbox } from '../../app/agent-inbox';
import { sendMessage } from '../../app/org';
import { answerOf, secretsFileOption, withOrgContext, withOrgReader } from '../org-context';
import { EXIT_OK, printJson, UsageError } from '../cli-io';
import { stringOption, type CommandCode } from '../command';
import { orgFolder } from '../org-arg';

export const sendCommand: CommandCode = {
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
    const input = SendMessageInput.safeParse({
      text,
      importance: importance.data,
      target: stringOption(values, 'to') ?? null,
    });
    if (!input.success) throw new UsageError(input.error.issues.map((issue) => issue.message).join(' '));
    const entry = await withOrgContext(org, io, values, (context) =>
      answerOf(sendMessage(context, input.data)),
    );
    if (values.json) printJson(io, entry);
    else io.stdout.write(`sent ${entry.id} at tick ${entry.tick}\n`);
    return EXIT_OK;
  },
};

export const inboxCommand: CommandCode = {
  options: { json: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const name = positionals[1];
    if (!name) throw new UsageError('Give the agent whose inbox to show.');
    const inbox = await withOrgReader(org, io, (reader) => answerOf(agentInbox(reader, name)));
    if (values.json) {
      printJson(io, inbox);
      return EXIT_OK;
    }
    const line = (message: InboxMessage) =>
      `  ${message.importance === 'high' || message.importance === 'critical' ? '! ' : ''}[tick ${message.tick ?? '?'}] ${message.sender} (${message.kind ?? 'message'}): ${message.text}\n`;
    io.stdout.write(`New for ${name} (${inbox.fresh.length}${inbox.moreWaiting ? ', more waiting' : ''}):\n`);
    for (const message of inbox.fresh) io.stdout.write(line(message));
    if (inbox.earlier.length > 0) {
      io.stdout.write('Earlier:\n');
      for (const message of inbox.earlier) io.stdout.write(line(message));
    }
    return EXIT_OK;
  },
};
