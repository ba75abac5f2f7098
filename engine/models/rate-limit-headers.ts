/**
 * What a hosted API says of its rate limits on every answer: `x-ratelimit-remaining-<budget>` with
 * `x-ratelimit-reset-<budget>` (OpenAI, Groq, Together, OpenRouter without a budget name) and
 * Anthropic's `anthropic-ratelimit-<budget>-remaining` / `-reset`. Read as the budget closest to empty
 * and when it is full again.
 */
export interface RateLimitBudget {
  /** The lowest remaining count of any budget the answer names; null when it names none. */
  remaining: number | null;
  /** Milliseconds until that budget resets; null when not said or unreadable. */
  resetMs: number | null;
}

type Headers = Record<string, string | string[] | undefined>;

const BUDGET_HEADER =
  /^(?:x-ratelimit-remaining(?:-(?<openai>[a-z0-9-]+))?|anthropic-ratelimit-(?<anthropic>[a-z0-9-]+)-remaining)$/;

export function rateLimitBudget(headers: Headers, nowMs: number): RateLimitBudget {
  let lowest: RateLimitBudget = { remaining: null, resetMs: null };
  for (const [name, raw] of Object.entries(headers)) {
    const match = BUDGET_HEADER.exec(name.toLowerCase());
    const value = first(raw)?.trim();
    if (!match || !value || !/^\d+$/.test(value)) continue;
    const remaining = Number(value);
    const { openai, anthropic } = match.groups ?? {};
    const resetHeader =
      anthropic !== undefined
        ? `anthropic-ratelimit-${anthropic}-reset`
        : openai !== undefined
          ? `x-ratelimit-reset-${openai}`
          : 'x-ratelimit-reset';
    const resetMs = parseReset(first(headers[resetHeader]), nowMs);
    const lower = lowest.remaining === null || remaining < lowest.remaining;
    const laterOfEmpty = remaining === lowest.remaining && (resetMs ?? 0) > (lowest.resetMs ?? 0);
    if (lower || laterOfEmpty) lowest = { remaining, resetMs };
  }
  return lowest;
}

const DURATION_PART = /(\d+(?:\.\d+)?)(ms|h|m|s)/g;
const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1 };

/**
 * A reset as APIs write it: a Go duration ("1s", "6m0s", "20ms"), seconds ("12"), a Unix time in
 * seconds or milliseconds (OpenRouter), or an RFC 3339 date (Anthropic).
 */
export function parseReset(value: string | undefined, nowMs: number): number | null {
  const text = value?.trim();
  if (!text) return null;
  if (/^\d+(\.\d+)?$/.test(text)) {
    const number = Number(text);
    if (number > 1e12) return Math.max(0, number - nowMs);
    if (number > 1e9) return Math.max(0, number * 1000 - nowMs);
    return Math.round(number * 1000);
  }
  if (/^(\d+(\.\d+)?(ms|h|m|s))+$/.test(text)) {
    let total = 0;
    for (const [, amount, unit] of text.matchAll(DURATION_PART)) total += Number(amount) * UNIT_MS[unit!]!;
    return Math.round(total);
  }
  const date = Date.parse(text);
  return Number.isNaN(date) ? null : Math.max(0, date - nowMs);
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
