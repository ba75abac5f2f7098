import { isIPv4 } from 'node:net';
import type { Result } from '../api/result';

/**
 * One `allowed_hosts` entry. `exact` matches one host; `subdomains` (written `*.example.com`)
 * matches any name under the host at any depth, but never the host itself nor `evilexample.com`.
 * `port: null` matches every port.
 */
export interface HostPattern {
  text: string;
  kind: 'exact' | 'subdomains';
  /** Normalised like a URL host: lowercase ASCII (IDN as punycode), no trailing dot, IPv6 without brackets. */
  host: string;
  port: number | null;
}

/** A pattern, or what is wrong with the entry (to follow its quoted text). */
export type HostPatternParse = Result<HostPattern, string>;

export interface HostPatternIssue {
  index: number;
  pattern: string;
  message: string;
}

export type HostPatternsParse = Result<HostPattern[], HostPatternIssue[]>;

const LABEL = /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/;
const MAX_HOST_LENGTH = 253;
const PORT = /^\d{1,5}$/;

/** A URL's hostname in the form patterns are stored in. */
export function normalizeHost(hostname: string): string {
  const unbracketed = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  const lower = unbracketed.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}

export function parseHostPattern(raw: string): HostPatternParse {
  const text = raw.trim();
  if (text === '') return { ok: false, error: 'is empty; write a host such as api.example.com' };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text))
    return {
      ok: false,
      error: 'write only the host (such as api.example.com), without a scheme like https://',
    };
  if (/[/?#@\\\s]/.test(text))
    return {
      ok: false,
      error: 'must be a host name or IP address, optionally with :port, and nothing else',
    };
  if (text === '*' || text === '*.')
    return {
      ok: false,
      error: "'*' would allow every host; list the hosts, or use *.example.com for the subdomains of one",
    };

  const split = splitPort(text);
  if (!split.ok) return split;
  const { hostText, port } = split.value;
  const subdomains = hostText.startsWith('*.');
  const namePart = subdomains ? hostText.slice(2) : hostText;
  if (namePart.includes('*'))
    return { ok: false, error: "'*' may only be the whole first label, as in *.example.com" };

  const normalized = normalizePatternHost(namePart);
  if (!normalized.ok) return normalized;
  const { host, isIp } = normalized.value;
  if (subdomains && isIp) return { ok: false, error: 'a wildcard applies to names, not to IP addresses' };
  if (subdomains && !host.includes('.'))
    return { ok: false, error: `*.${host} is too broad; name a domain such as *.example.${host}` };
  return { ok: true, value: { text: raw, kind: subdomains ? 'subdomains' : 'exact', host, port } };
}

/** Parses a whole list, reporting every bad entry with its position. */
export function parseHostPatterns(texts: readonly string[]): HostPatternsParse {
  const patterns: HostPattern[] = [];
  const issues: HostPatternIssue[] = [];
  texts.forEach((text, index) => {
    const parsed = parseHostPattern(text);
    if (parsed.ok) patterns.push(parsed.value);
    else issues.push({ index, pattern: text, message: parsed.error });
  });
  return issues.length > 0 ? { ok: false, error: issues } : { ok: true, value: patterns };
}

export function describeHostPatternIssues(field: string, issues: readonly HostPatternIssue[]): string {
  return issues
    .map((issue) => `${field}[${issue.index}] ${JSON.stringify(issue.pattern)}: ${issue.message}`)
    .join('; ');
}

/** `host` must already be normalised (normalizeHost). */
export function matchesHostPattern(pattern: HostPattern, host: string, port: number): boolean {
  if (pattern.port !== null && pattern.port !== port) return false;
  return pattern.kind === 'exact' ? host === pattern.host : host.endsWith(`.${pattern.host}`);
}

export function matchesAnyHostPattern(patterns: readonly HostPattern[], host: string, port: number): boolean {
  return patterns.some((pattern) => matchesHostPattern(pattern, host, port));
}

function splitPort(text: string): Result<{ hostText: string; port: number | null }, string> {
  let hostText = text;
  let portText: string | null = null;
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return { ok: false, error: "an IPv6 address opened with '[' needs a closing ']'" };
    hostText = text.slice(0, close + 1);
    const rest = text.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':'))
        return { ok: false, error: "only ':port' may follow an IPv6 address in brackets" };
      portText = rest.slice(1);
    }
  } else {
    const colons = text.split(':').length - 1;
    if (colons > 1) return { ok: false, error: 'write IPv6 addresses in brackets, as in [2001:db8::1]' };
    if (colons === 1) [hostText, portText] = text.split(':') as [string, string];
  }
  if (portText === null) return { ok: true, value: { hostText, port: null } };
  const port = Number(portText);
  if (!PORT.test(portText) || port < 1 || port > 65535)
    return { ok: false, error: `port ${JSON.stringify(portText)} must be a number from 1 to 65535` };
  return { ok: true, value: { hostText, port } };
}

/** Normalises through the WHATWG URL parser, the same one request URLs go through. */
function normalizePatternHost(hostText: string): Result<{ host: string; isIp: boolean }, string> {
  const written = hostText.endsWith('.') ? hostText.slice(0, -1) : hostText;
  let parsed: string;
  try {
    parsed = new URL(`http://${written}/`).hostname;
  } catch {
    return { ok: false, error: 'is not a valid host name or IP address' };
  }
  if (parsed.startsWith('[')) return { ok: true, value: { host: normalizeHost(parsed), isIp: true } };
  if (isIPv4(parsed)) {
    if (parsed !== written)
      return {
        ok: false,
        error: `is a non-canonical spelling of the IP address ${parsed}; write ${parsed}`,
      };
    return { ok: true, value: { host: parsed, isIp: true } };
  }
  const host = normalizeHost(parsed);
  if (host.length > MAX_HOST_LENGTH)
    return { ok: false, error: `is longer than ${MAX_HOST_LENGTH} characters` };
  if (!host.split('.').every((label) => LABEL.test(label)))
    return {
      ok: false,
      error: 'is not a valid host name (labels of letters, digits, "-" and "_", separated by single dots)',
    };
  return { ok: true, value: { host, isIp: false } };
}
