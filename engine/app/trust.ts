import { fail, ok, type IpcResult } from '../api/result';
import type { AcceptTrustInput, GrantInput, OrgTrust } from '../api/trust-schemas';
import { mayRun, orgKeyOf, orgTrust, reachChanges } from '../trust/org-trust';
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

/**
 * Secrets a server the person added asks them for (VS Code's inputs), named for that server, are the
 * org's as the ones stored for it are: granted at once, so the value the person gives is usable. A name
 * the store already holds is not this server's value (another org's, perhaps): the person grants that
 * one themselves, or not.
 */
export async function grantAskedSecrets(
  context: TrustContext & { secrets: { store: { has(name: string): Promise<boolean> } } },
  names: readonly string[],
): Promise<IpcResult<null>> {
  const fresh: string[] = [];
  for (const name of names) if (!(await context.secrets.store.has(name))) fresh.push(name);
  return grantStoredSecrets(context, fresh);
}

/** Which files a change the person makes may touch: their paths relative to the org, or a rule. */
export type ChangedFiles = readonly string[] | ((file: string) => boolean);

/** Every agent's resume (a change to an agent's tools, a new agent). */
export const AGENT_RESUMES = (file: string): boolean => /^agents\/[^/]+\/resume\.json$/.test(file);

/**
 * Runs a change the person makes through the app or the CLI (a model added, a REST API saved, MCP
 * servers imported, an agent's tools changed) and keeps the org trusted across it: when the org was
 * trusted as it was, or needed no trust, just before, what it can run and reach after the change is
 * recorded as trusted, for the person made the change. Never trusts what someone else wrote: an org
 * that was not trusted (or changed since) stays as it was, and so does one in which anything outside
 * `files` moved meanwhile or a file can no longer be read.
 */
export async function keepingTrust<T>(
  context: TrustContext,
  files: ChangedFiles,
  change: () => Promise<IpcResult<T>>,
): Promise<IpcResult<T>> {
  const before = await orgTrust(context.orgPath, context.trust);
  const result = await change();
  if (!result.ok || !mayRun(before)) return result;
  const after = await orgTrust(context.orgPath, context.trust);
  if (after.state === 'trusted' || after.state === 'not_needed') return result;
  const touched = typeof files === 'function' ? files : (file: string) => files.includes(file);
  const { added, removed } = reachChanges(before.reach.items, after.reach.items);
  const unreadableBefore = new Set(before.reach.unreadable.map((file) => JSON.stringify(file)));
  const onlyThisChange =
    [...added, ...removed].every((item) => touched(item.file)) &&
    after.reach.unreadable.every((file) => unreadableBefore.has(JSON.stringify(file)));
  if (onlyThisChange) await context.trust.trust(after.orgPath, after.fingerprint, after.reach);
  return result;
}

/**
 * An org this app or `lemming init` just created is trusted by its creator: what it can run and reach
 * is recorded as trusted when every item of it comes from a file the creation wrote (`created`, relative
 * to the org); a folder that already held files naming programs, addresses or secrets is left to be
 * trusted by the person, on the trust screen.
 */
export async function trustCreatedOrg(
  context: TrustContext,
  created: readonly string[] | 'all',
): Promise<void> {
  const now = await orgTrust(context.orgPath, context.trust);
  const ours = (file: string) => created === 'all' || created.includes(file);
  if (now.reach.unreadable.length > 0 || !now.reach.items.every((item) => ours(item.file))) return;
  await context.trust.trust(now.orgPath, now.fingerprint, now.reach);
}
