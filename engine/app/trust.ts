import { fail, ok, type IpcResult } from '../api/result';
import type { AcceptTrustInput, GrantInput, OrgTrust } from '../api/trust-schemas';
import { orgKeyOf, orgTrust } from '../trust/org-trust';
import type { TrustStore } from '../trust/trust-store';

/** The org and the person's trust record it is judged against: the app's session and the CLI's both give it. */
export interface TrustContext {
  readonly orgPath: string;
  readonly trust: TrustStore;
}

/** Whether the org may run, what it would run and reach, and what changed since it was trusted. */
export async function trustState(context: TrustContext): Promise<IpcResult<OrgTrust>> {
  return ok(await orgTrust(context.orgPath, context.trust));
}

/**
 * The person trusts the org exactly as they were shown it: when what it can run or reach moved since
 * (the fingerprint differs), nothing is recorded and they are shown the new list.
 */
export async function acceptTrust(
  context: TrustContext,
  input: AcceptTrustInput,
): Promise<IpcResult<OrgTrust>> {
  const now = await orgTrust(context.orgPath, context.trust);
  if (now.fingerprint !== input.fingerprint)
    return fail(
      'refused',
      'What this org can run or reach changed while you were looking at it; nothing was trusted.',
      undefined,
      'Look at the new list and choose again.',
    );
  const recorded = await context.trust.trust(now.orgPath, now.fingerprint, now.reach, {
    secrets: input.secrets,
    environment: input.environment,
  });
  if (!recorded.ok) return fail('refused', recorded.error);
  return ok(await orgTrust(context.orgPath, context.trust));
}

export async function revokeTrust(context: TrustContext): Promise<IpcResult<OrgTrust>> {
  const revoked = await context.trust.revoke(orgKeyOf(context.orgPath));
  if (!revoked.ok) return fail('refused', revoked.error);
  return ok(await orgTrust(context.orgPath, context.trust));
}

export async function grantToOrg(context: TrustContext, input: GrantInput): Promise<IpcResult<OrgTrust>> {
  const kind = input.kind === 'secret' ? 'secrets' : 'environment';
  const changed = await context.trust.grant(orgKeyOf(context.orgPath), kind, input.name, input.granted);
  if (!changed.ok) return fail('refused', changed.error);
  return ok(await orgTrust(context.orgPath, context.trust));
}

/**
 * Secrets the person stored for this org (a model's key, a REST API's key, a connector's secret, an
 * imported MCP server's values) are granted to it at once: they chose them for this org.
 */
export async function grantStoredSecrets(
  context: TrustContext,
  names: readonly string[],
): Promise<IpcResult<null>> {
  for (const name of new Set(names)) {
    const granted = await context.trust.grant(orgKeyOf(context.orgPath), 'secrets', name, true);
    if (!granted.ok)
      return fail(
        'refused',
        `${name} was saved, but this org may not use it yet: ${granted.error}`,
        undefined,
        `Allow ${name} for this org in Settings → Secrets.`,
      );
  }
  return ok(null);
}
