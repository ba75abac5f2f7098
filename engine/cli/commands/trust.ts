import { AcceptTrustInput, type OrgTrust } from '../../api/trust-schemas';
import { acceptTrust, revokeTrust, trustState, type TrustContext } from '../../app/trust';
import { mayRun } from '../../trust/org-trust';
import { changeLines, reachLines, trustHeadline } from '../../trust/trust-words';
import { EXIT_OK, printJson, UsageError, type CliIo } from '../cli-io';
import type { CommandCode } from '../command';
import { orgFolder } from '../org-arg';
import { answerOf, cliTrustStore } from '../org-context';

const names = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];

function printTrust(io: CliIo, trust: OrgTrust, org: string): void {
  const lines = [trustHeadline(trust), ...changeLines(trust), ...reachLines(trust, { where: true })];
  if (!mayRun(trust))
    lines.push(
      '',
      'If you trust what it would run, trust it as it is now:',
      `  lemming trust ${JSON.stringify(org)} --yes [--grant SECRET]... [--env VARIABLE]...`,
      'Trusting grants no secret or variable by itself: name each one it may use with --grant or --env.',
    );
  io.stdout.write(`${lines.join('\n')}\n`);
}

/**
 * `lemming trust <org>`: everything the org would start, contact and name, in words, with what changed
 * since it was trusted; `--yes` trusts it as it is now (granting only the secrets and variables named
 * with --grant and --env), `--revoke` takes trust back.
 */
export const trustCommand: CommandCode = {
  options: {
    yes: { type: 'boolean' },
    revoke: { type: 'boolean' },
    grant: { type: 'string', multiple: true },
    env: { type: 'string', multiple: true },
    json: { type: 'boolean' },
  },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    const secrets = names(values.grant);
    const environment = names(values.env);
    if (values.yes && values.revoke) throw new UsageError('Give --yes or --revoke, not both.');
    if (!values.yes && (secrets.length > 0 || environment.length > 0))
      throw new UsageError('--grant and --env are given with --yes, when you trust the org.');
    const context: TrustContext = { orgPath: org, trust: cliTrustStore(io) };
    let trust = await answerOf(trustState(context));
    if (values.yes) {
      const input = AcceptTrustInput.safeParse({ fingerprint: trust.fingerprint, secrets, environment });
      if (!input.success)
        throw new UsageError(
          input.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; '),
        );
      trust = await answerOf(acceptTrust(context, input.data));
    } else if (values.revoke) trust = await answerOf(revokeTrust(context));
    if (values.json) printJson(io, trust);
    else printTrust(io, trust, org);
    return EXIT_OK;
  },
};
