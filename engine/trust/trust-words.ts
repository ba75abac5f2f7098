import type { OrgTrust, ReachItem, ReachKind } from '../api/trust-schemas';

/** Each kind of reach as a heading a person reads, in the order they are listed. */
export const REACH_HEADINGS: Record<ReachKind, string> = {
  program: 'Programs it would start on this computer, with your rights',
  address: 'Addresses it would contact',
  secret: 'Stored secrets it names',
  environment: 'Environment variables it would read',
  shell: 'Agents that may run any command their model writes',
  web: 'Agents that may send web requests to any address their model chooses',
};

/** The first line: what state the org is in, in words. */
export function trustHeadline(trust: OrgTrust): string {
  switch (trust.state) {
    case 'not_needed':
      return `${trust.orgPath} needs no trust: it starts no program, contacts no address and names no secret.`;
    case 'trusted':
      return `${trust.orgPath} is trusted${trust.trustedAt ? ` (since ${trust.trustedAt})` : ''}: it may run.`;
    case 'untrusted':
      return `${trust.orgPath} is not trusted yet, so nothing in it runs until you trust it.`;
    case 'changed':
      return `${trust.orgPath} changed since you trusted it${trust.trustedAt ? ` on ${trust.trustedAt}` : ''}, so nothing in it runs until you trust it again.`;
  }
}

/**
 * Everything the org would run or reach, grouped by kind, each thing once with why (and, for a secret
 * or variable, whether it is granted to this org), then the files that could not be read. Lines, for the
 * terminal and for a refusal's message.
 */
export function reachLines(trust: OrgTrust, options: { where?: boolean } = {}): string[] {
  const lines: string[] = [];
  for (const kind of Object.keys(REACH_HEADINGS) as ReachKind[]) {
    const items = trust.reach.items.filter((item) => item.kind === kind);
    if (items.length === 0) continue;
    lines.push(`${REACH_HEADINGS[kind]}:`);
    for (const [subject, reasons] of bySubject(items)) {
      const granted = grantWords(trust, kind, subject);
      lines.push(`  ${subject}${granted}`);
      for (const item of reasons)
        lines.push(`      for ${item.because}${options.where ? ` (${whereOf(item)})` : ''}`);
    }
  }
  if (trust.reach.unreadable.length > 0) {
    lines.push('Files it could not read (what they name may run once they can be read):');
    for (const file of trust.reach.unreadable) lines.push(`  ${file.file}: ${file.message}`);
  }
  return lines;
}

/** What was added and removed since the person trusted the org; empty unless its state is `changed`. */
export function changeLines(trust: OrgTrust): string[] {
  if (!trust.changes) return [];
  const lines = ['What changed since you trusted it:'];
  for (const item of trust.changes.added) lines.push(`  + ${describeItem(item)}`);
  for (const item of trust.changes.removed) lines.push(`  - ${describeItem(item)}`);
  if (trust.changes.added.length === 0 && trust.changes.removed.length === 0)
    lines.push('  a file it needs cannot be read now, or could not be then');
  return lines;
}

/** A refusal's message: why nothing runs, and everything that would. */
export function notTrustedMessage(trust: OrgTrust): string {
  return [trustHeadline(trust), ...changeLines(trust), ...reachLines(trust)].join('\n');
}

/** How to trust the org, from the command line and in the app. */
export const trustFix = (orgPath: string): string =>
  `if you trust what it would run, trust it: lemming trust ${JSON.stringify(orgPath)} --yes (in the app: Trust)`;

function bySubject(items: readonly ReachItem[]): Map<string, ReachItem[]> {
  const grouped = new Map<string, ReachItem[]>();
  for (const item of items) grouped.set(item.subject, [...(grouped.get(item.subject) ?? []), item]);
  return grouped;
}

function grantWords(trust: OrgTrust, kind: ReachKind, subject: string): string {
  if (kind === 'secret')
    return trust.grants.secrets.includes(subject) ? '  (granted to this org)' : '  (not granted to this org)';
  if (kind === 'environment')
    return trust.grants.environment.includes(subject)
      ? '  (granted to this org)'
      : '  (not granted to this org)';
  return '';
}

const KIND_WORDS: Record<ReachKind, string> = {
  program: 'program',
  address: 'address',
  secret: 'secret',
  environment: 'environment variable',
  shell: 'agent with the shell',
  web: 'agent with web requests',
};

/** One thing the org can run or reach, in a line: `program npx server, for the MCP server “files” (lemming/config/mcp.json, …)`. */
export function describeItem(item: ReachItem): string {
  return `${KIND_WORDS[item.kind]} ${item.subject}, for ${item.because} (${whereOf(item)})`;
}

const whereOf = (item: ReachItem): string => (item.field ? `${item.file}, ${item.field}` : item.file);
