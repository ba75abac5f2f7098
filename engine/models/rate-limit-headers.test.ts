import { describe, expect, it } from 'vitest';
import { parseReset, rateLimitBudget } from './rate-limit-headers';

const NOW = Date.parse('2026-11-28T00:00:00Z');

describe('the rate-limit budget an answer reports', () => {
  it("reads OpenAI's budgets as the one closest to empty, with its reset", () => {
    expect(
      rateLimitBudget(
        {
          'x-ratelimit-remaining-requests': '59',
          'x-ratelimit-reset-requests': '1s',
          'x-ratelimit-remaining-tokens': '0',
          'x-ratelimit-reset-tokens': '6m0s',
        },
        NOW,
      ),
    ).toEqual({ remaining: 0, resetMs: 360_000 });
  });

  it("reads Anthropic's budgets and their RFC 3339 resets", () => {
    expect(
      rateLimitBudget(
        {
          'anthropic-ratelimit-requests-remaining': '3',
          'anthropic-ratelimit-requests-reset': '2026-11-28T00:00:05Z',
        },
        NOW,
      ),
    ).toEqual({ remaining: 3, resetMs: 5000 });
  });

  it("reads a budget without a name, its reset a Unix time in milliseconds (OpenRouter's)", () => {
    expect(
      rateLimitBudget({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(NOW + 1500) }, NOW),
    ).toEqual({ remaining: 0, resetMs: 1500 });
  });

  it('says nothing when the answer names no budget, or names one unreadably', () => {
    expect(rateLimitBudget({ 'content-type': 'application/json' }, NOW)).toEqual({
      remaining: null,
      resetMs: null,
    });
    expect(rateLimitBudget({ 'x-ratelimit-remaining-requests': 'lots' }, NOW).remaining).toBeNull();
  });
});

describe('a reset as APIs write it', () => {
  it.each([
    ['20ms', 20],
    ['1s', 1000],
    ['6m0s', 360_000],
    ['1h2m3.5s', 3_723_500],
    ['12', 12_000],
    [String(NOW / 1000 + 7), 7000],
  ])('%s is %i ms away', (text, ms) => {
    expect(parseReset(text, NOW)).toBe(ms);
  });

  it('is unknown when it cannot be read', () => {
    expect(parseReset('soon', NOW)).toBeNull();
    expect(parseReset(undefined, NOW)).toBeNull();
  });
});
