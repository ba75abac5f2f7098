import { turnDetail } from '../../app/turn-inspector';
import type { TurnDetail, TurnStep } from '../../api/inspector-schemas';
import { CliFailure, EXIT_OK, printJson, UsageError } from '../cli-io';
import type { CommandCode } from '../command';
import { orgFolder } from '../org-arg';
import { withOrgReader } from '../org-context';

export const turnCommand: CommandCode = {
  options: { json: { type: 'boolean' } },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const agent = positionals[1];
    const tick = Number(positionals[2]);
    if (!agent || !Number.isInteger(tick)) throw new UsageError('Give the agent and the tick of the turn.');
    // Read-only: it never needs the run lock, and works on an org copied from another machine.
    await withOrgReader(org, io, async ({ timeline }) => {
      if (!timeline) throw new CliFailure(`${org} has no timeline yet.`);
      const found = turnDetail(timeline, agent, tick);
      if (!found.ok) throw new CliFailure(found.error.message);
      if (values.json) printJson(io, found.value);
      else io.stdout.write(formatTurn(found.value));
    });
    return EXIT_OK;
  },
};

function formatTurn(turn: TurnDetail): string {
  const lines = [
    `${turn.agent} at tick ${turn.tick}: ${turn.status ?? 'not finished'}` +
      `${turn.durationMs === null ? '' : ` in ${turn.durationMs} ms`}, ${turn.totals.credits} credits`,
    'prompt:',
    ...turn.prompt.map((message) => `  [${message.role}, ${message.part}] ${firstLine(message.content)}`),
    'steps:',
    ...turn.steps.map((step) => `  ${stepLine(step)}`),
  ];
  return `${lines.join('\n')}\n`;
}

function stepLine(step: TurnStep): string {
  switch (step.type) {
    case 'model_call': {
      const { call } = step;
      return `model call ${call.round ?? '?'} (${call.model}): ${call.latencyMs ?? '?'} ms, ${call.inputTokens ?? 0} in, ${call.outputTokens ?? 0} out, ${call.cost ?? 0} credits${call.error ? `, failed: ${call.error}` : ''}`;
    }
    case 'tool_call': {
      const { call } = step;
      const outcome = call.startedBeforeStop
        ? 'started before the app stopped; whether it finished is not known'
        : call.success === null
          ? 'no result'
          : call.success
            ? `ok: ${firstLine(call.output ?? '')}`
            : `error: ${call.error}`;
      return `tool ${call.tool} ${call.args} -> ${outcome}`;
    }
    case 'memory_update':
      return `memory ${step.op} ${step.key}`;
    case 'message':
      return `sent ${step.messageKind} to ${step.to.length ? step.to.join(', ') : 'everyone'}: ${firstLine(step.text)}`;
    case 'credit':
      return `charged ${-step.amount} credits for ${step.reason}`;
    case 'other':
      return `${step.kind}${step.text ? `: ${firstLine(step.text)}` : ''}`;
  }
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]!;
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}
