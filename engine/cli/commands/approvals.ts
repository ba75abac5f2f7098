import type { ApprovalRequest } from '../../api/approval-schemas';
import { ApprovalDesk, answerApproval, pendingApprovals } from '../../app/approvals';
import { EXIT_OK, printJson, UsageError, type CliIo } from '../cli-io';
import { secretsFileOption, answerOf, withOrgContext } from '../org-context';
import type { CommandCode } from '../command';
import { orgFolder } from '../org-arg';

function describe(request: ApprovalRequest): string {
  const what = request.form
    ? `the tool server ${request.form.server} asks you to fill in a form while it runs ${request.title ?? request.tool}`
    : `asks to run ${request.title ?? request.tool} ${JSON.stringify(request.args)}`;
  return `${request.id}  ${request.agent} ${what}\n  since ${request.asked_at} (tick ${request.tick}); why it asks: ${request.reason}\n`;
}

function printRequests(io: CliIo, requests: readonly ApprovalRequest[], org: string): void {
  if (requests.length === 0) {
    io.stdout.write('Nothing waits for you.\n');
    return;
  }
  for (const request of requests) io.stdout.write(describe(request));
  io.stdout.write(
    `Answer with: lemming approvals ${org} approve ID [--always], or lemming approvals ${org} deny ID [REASON]. The turn goes on at the next tick.\n`,
  );
}

/**
 * `lemming approvals <org>`: what waits for the person, oldest first (turns parked on an approval,
 * by an unattended run or the app); `approve ID` / `deny ID [REASON]` answers one, and the next
 * `lemming tick` or `run` (or the app's next tick) resumes its turn.
 */
export const approvalsCommand: CommandCode = {
  options: { json: { type: 'boolean' }, always: { type: 'boolean' }, ...secretsFileOption },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const [action, id, ...reasonWords] = positionals.slice(1);
    if (action !== undefined && action !== 'approve' && action !== 'deny')
      throw new UsageError(`"${action}" is not an answer: use approve ID or deny ID [REASON].`);
    if (action && !id)
      throw new UsageError(`Give the ID of the request to ${action} (lemming approvals ${org} lists them).`);
    if (values.always && action !== 'approve') throw new UsageError('--always goes with approve.');
    await withOrgContext(org, io, values, async (context) => {
      const desk = new ApprovalDesk(() => undefined);
      desk.attach(context.engine.parked);
      if (!action) {
        const { requests } = await answerOf(Promise.resolve(pendingApprovals(desk)));
        if (values.json) printJson(io, { requests });
        else printRequests(io, requests, org);
        return;
      }
      const reason = reasonWords.join(' ').trim();
      await answerOf(
        answerApproval(desk, {
          id: id!,
          answer: action === 'deny' ? 'deny' : values.always ? 'approve_always' : 'approve_once',
          ...(reason ? { reason } : {}),
        }),
      );
      if (values.json) printJson(io, { answered: id });
      else
        io.stdout.write(`${action === 'deny' ? 'Denied' : 'Approved'}: its turn goes on at the next tick.\n`);
    });
    return EXIT_OK;
  },
};
