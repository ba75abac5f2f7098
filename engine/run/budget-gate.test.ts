import { describe, expect, it } from 'vitest';
import type { KnownEventFields } from '../api/timeline-events';
import { BudgetGate } from './budget-gate';
import type { Standing } from './budget-standing';

function standing(overrides: Partial<Standing> = {}): Standing {
  return {
    scope: 'agent',
    agent: 'a',
    budget: 'daily_credits',
    period: { key: '2026-11-28', start: '2026-11-27T23:00:00.000Z' },
    measure: 'credits',
    budgetMicro: 1_000_000,
    limitMicro: 1_000_000,
    spentMicro: 0,
    warned: false,
    paused: false,
    ...overrides,
  };
}

function ask(gate: BudgetGate, worstCaseMicro: number, spent = { creditsMicro: 0, moneyMicro: 0 }) {
  const records: KnownEventFields[] = [];
  const refusal = gate.beforeModelCall(worstCaseMicro, spent, (fields) => records.push(fields));
  return { refusal, kinds: records.map((record) => record.kind) };
}

describe('the budget gate before a model call', () => {
  it('lets a call whose worst case ends exactly at the limit be made', () => {
    const gate = new BudgetGate('a', [standing({ spentMicro: 600_000 })], 0);
    expect(ask(gate, 400_000).refusal).toBeNull();
  });

  it('pauses before a call whose worst case is one micro-credit over the limit', () => {
    const gate = new BudgetGate('a', [standing({ spentMicro: 600_000 })], 0);
    const { refusal, kinds } = ask(gate, 400_001);
    expect(kinds).toEqual(['budget_paused']);
    expect(refusal).toMatch(
      /^Paused: a is over its budget of 1 credit a day\. It goes on when you resume it/,
    );
    // Paused: later calls of the turn are refused without another record.
    const again = ask(gate, 0);
    expect(again.kinds).toEqual([]);
    expect(again.refusal).toMatch(/^Paused: a is over its budget/);
  });

  it("counts the turn's own spending and leaves room for its charge in a credits budget, not in a money one", () => {
    const credits = new BudgetGate('a', [standing({ spentMicro: 500_000 })], 100_000);
    expect(ask(credits, 300_000, { creditsMicro: 100_000, moneyMicro: 100_000 }).refusal).toBeNull();
    expect(ask(credits, 300_001, { creditsMicro: 100_000, moneyMicro: 100_000 }).kinds).toEqual([
      'budget_paused',
    ]);
    const money = new BudgetGate(
      'a',
      [standing({ measure: 'money', budget: 'daily_money', spentMicro: 500_000 })],
      100_000,
    );
    expect(ask(money, 400_000, { creditsMicro: 300_000, moneyMicro: 100_000 }).refusal).toBeNull();
  });

  it('warns once when 80 % is spent, not at one micro-credit less', () => {
    expect(ask(new BudgetGate('a', [standing({ spentMicro: 799_999 })], 0), 0).kinds).toEqual([]);
    const gate = new BudgetGate('a', [standing({ spentMicro: 800_000 })], 0);
    expect(ask(gate, 0).kinds).toEqual(['budget_warning']);
    expect(ask(gate, 0).kinds).toEqual([]);
    expect(ask(new BudgetGate('a', [standing({ spentMicro: 900_000, warned: true })], 0), 0).kinds).toEqual(
      [],
    );
  });

  it('an org budget already paused refuses at once, in words that name the org', () => {
    const gate = new BudgetGate(
      'a',
      [standing({ scope: 'org', agent: null, paused: true, budget: 'monthly_credits' })],
      0,
    );
    expect(ask(gate, 0)).toEqual({
      refusal:
        'Paused: the org is over its budget of 1 credit a month. It goes on when you resume it, or when the month ends.',
      kinds: [],
    });
  });
});
