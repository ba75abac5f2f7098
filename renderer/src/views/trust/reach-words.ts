import type { ReachItem, ReachKind } from '../../../../engine/api';

/** One thing the org could do, with every reason it names it (a secret two models use is one line). */
export interface ReachLine {
  kind: ReachKind;
  subject: string;
  because: string[];
  /** Where the org says so: `file (field)`, shown under Advanced. */
  where: string[];
}

/** Items of the same kind and subject become one line, in the order first met. */
export function reachLines(items: readonly ReachItem[]): ReachLine[] {
  const lines = new Map<string, ReachLine>();
  for (const item of items) {
    const key = `${item.kind}\u0000${item.subject}`;
    const line = lines.get(key) ?? { kind: item.kind, subject: item.subject, because: [], where: [] };
    if (!line.because.includes(item.because)) line.because.push(item.because);
    line.where.push(item.field ? `${item.file} (${item.field})` : item.file);
    lines.set(key, line);
  }
  return [...lines.values()];
}

/** The screen's sections, in the order a person should read them. */
export const REACH_SECTIONS: { kinds: ReachKind[]; title: string; explanation: string }[] = [
  {
    kinds: ['program'],
    title: 'Programs it would start',
    explanation:
      'Each program runs on this computer with your rights: it can read and change your files and use the internet.',
  },
  {
    kinds: ['address'],
    title: 'Places on the internet or your network it would contact',
    explanation: 'What its agents write, and the secrets you let it use, may be sent to these places.',
  },
  {
    kinds: ['shell', 'web'],
    title: 'Agents that could run any command or reach any address',
    explanation: 'These agents do what their model decides, within the limits this org sets for them.',
  },
];

/**
 * Why the org names it, and for an address where that is: `for the MCP server “files”`, `on the internet,
 * for the model “gpt”`. Null for an agent's free hand: its reason is the line itself.
 */
export function becauseWords(line: Pick<ReachLine, 'kind' | 'subject' | 'because'>): string | null {
  if (line.kind === 'shell' || line.kind === 'web') return null;
  const reasons = line.because.join(', ');
  const place = line.kind === 'address' ? placeOf(line.subject) : null;
  return place ? `on ${place}, for ${reasons}` : `for ${reasons}`;
}

/** Where an address (or a bare host) is, for a person who does not read host names: this computer, your network or the internet. */
export function placeOf(address: string): 'this computer' | 'your network' | 'the internet' | null {
  let host: string;
  try {
    host = new URL(address.includes('://') ? address : `http://${address}`).hostname
      .replace(/^\[|\]$/g, '')
      .toLowerCase();
  } catch {
    return null;
  }
  if (host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host))
    return 'this computer';
  if (
    /^10\./.test(host) ||
    /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host) ||
    /^169\.254\./.test(host) ||
    /^f[cd][0-9a-f]{2}:/.test(host) ||
    /^fe80:/.test(host) ||
    host.endsWith('.local') ||
    (!host.includes('.') && !host.includes(':'))
  )
    return 'your network';
  return 'the internet';
}

/** The kinds of the "What changed" lists, in words. */
export const KIND_WORDS: Record<ReachKind, string> = {
  program: 'Program',
  address: 'Address',
  secret: 'Secret',
  environment: 'Environment variable',
  shell: 'Runs commands',
  web: 'Reaches addresses',
};
