import { describe, expect, it } from 'vitest';
import {
  badgeCount,
  budgetWarningsOf,
  noticesBetween,
  noticesToShow,
  waitingForSignIn,
  type Attention,
} from './attention';
import { DEFAULT_DESKTOP_SETTINGS } from './desktop-settings';

const quiet: Attention = {
  org: '/orgs/acme',
  approvals: [],
  agents: [
    { name: 'clerk', state: 'ready', stateReason: 'Waiting for its next turn.' },
    { name: 'writer', state: 'running', stateReason: 'Taking its turn.' },
  ],
  run: { phase: 'running', ended: null },
  signIn: [],
  budgetWarnings: [],
};

const withApproval = (...ids: string[]): Attention => ({
  ...quiet,
  approvals: ids.map((id) => ({ id, agent: 'clerk', tool: 'Echo Tool' })),
});

describe('notices between two readings of an org', () => {
  it('tells of an approval once, when it starts waiting', () => {
    const first = noticesBetween(quiet, withApproval('a1'));
    expect(first).toEqual([
      {
        kind: 'approval',
        title: 'Waiting for your answer',
        body: 'clerk asks before it uses Echo Tool.',
        place: { view: 'org' },
        approvalId: 'a1',
      },
    ]);
    expect(noticesBetween(withApproval('a1'), withApproval('a1'))).toEqual([]);
    expect(noticesBetween(withApproval('a1'), withApproval('a1', 'a2', 'a3'))[0]?.body).toBe(
      '2 tool calls wait for your yes or no.',
    );
  });

  it('tells of an agent that starts failing once, not at every tick it keeps failing', () => {
    const failing: Attention = {
      ...quiet,
      agents: [{ name: 'clerk', state: 'failing', stateReason: 'Its model server did not answer.' }],
    };
    expect(noticesBetween(quiet, failing)).toEqual([
      {
        kind: 'failing',
        title: 'clerk is failing',
        body: 'Its model server did not answer.',
        place: { view: 'agent', agent: 'clerk' },
      },
    ]);
    let reading = failing;
    for (let tick = 0; tick < 10; tick++) {
      expect(noticesBetween(reading, failing)).toEqual([]);
      reading = failing;
    }
  });

  it('tells of an agent out of credits', () => {
    const broke: Attention = {
      ...quiet,
      agents: [{ name: 'writer', state: 'out_of_credits', stateReason: 'No credits left.' }],
    };
    expect(noticesBetween(quiet, broke).map((notice) => [notice.kind, notice.title])).toEqual([
      ['credits', 'writer is out of credits'],
    ]);
  });

  it('tells of an agent paused over its budget, and of a budget 80 % spent once a day or month', () => {
    const paused: Attention = {
      ...quiet,
      agents: [{ name: 'writer', state: 'over_budget', stateReason: 'Paused: writer is over its budget.' }],
    };
    expect(noticesBetween(quiet, paused)).toEqual([
      {
        kind: 'credits',
        title: 'writer is paused: over budget',
        body: 'Paused: writer is over its budget.',
        place: { view: 'agent', agent: 'writer' },
      },
    ]);
    const standing = {
      scope: 'org' as const,
      agent: null,
      budget: 'daily_credits' as const,
      period: '2026-11-28',
      measure: 'credits' as const,
      limit: 10,
      spent: 8,
      warned: true,
      paused: false,
      pausedWords: null,
      words: '10 credits a day',
      cannotSee: [],
    };
    const balance = (agent: string) => ({
      agent,
      balance: 5,
      maxCredits: null,
      softCap: null,
      outOfCredits: false,
      unpriced: null,
      budgets: [standing],
      overBudget: null,
    });
    const warned: Attention = {
      ...quiet,
      budgetWarnings: budgetWarningsOf([balance('clerk'), balance('writer')]),
    };
    expect(noticesBetween(quiet, warned)).toEqual([
      {
        kind: 'credits',
        title: 'The org has spent most of its budget',
        body: "8 of the org's budget of 10 credits a day is spent.",
        place: { view: 'org' },
      },
    ]);
    expect(noticesBetween(warned, warned)).toEqual([]);
    const nextDay = budgetWarningsOf([
      { ...balance('clerk'), budgets: [{ ...standing, period: '2026-11-29' }] },
    ]);
    expect(noticesBetween(warned, { ...quiet, budgetWarnings: nextDay })).toHaveLength(1);
  });

  it('tells of a run that ended, with its reason, once', () => {
    const ended: Attention = {
      ...quiet,
      run: {
        phase: 'idle',
        ended: { reason: 'tick_limit', message: 'Ran the 5 ticks asked for.', atTick: 5 },
      },
    };
    expect(noticesBetween(quiet, ended)).toEqual([
      {
        kind: 'run_ended',
        title: 'The run ended',
        body: 'Ran the 5 ticks asked for.',
        place: { view: 'org' },
      },
    ]);
    expect(noticesBetween(ended, ended)).toEqual([]);
    const failed: Attention = {
      ...quiet,
      run: { phase: 'idle', ended: { reason: 'error', message: 'The timeline is damaged.', atTick: 3 } },
    };
    expect(noticesBetween(quiet, failed)[0]?.title).toBe('The run stopped because of an error');
  });

  it('says nothing about an org just opened or switched to: what it holds is not news', () => {
    const other = { ...withApproval('a1'), org: '/orgs/other' };
    expect(noticesBetween(quiet, other)).toEqual([]);
    expect(noticesBetween({ ...quiet, org: null }, withApproval('a1'))).toEqual([]);
  });

  it('shows only the kinds switched on, and none while the window is in front of the person', () => {
    const notices = noticesBetween(quiet, {
      ...withApproval('a1'),
      agents: [{ name: 'clerk', state: 'failing', stateReason: 'x' }],
    });
    expect(noticesToShow(notices, DEFAULT_DESKTOP_SETTINGS, false)).toHaveLength(2);
    expect(noticesToShow(notices, DEFAULT_DESKTOP_SETTINGS, true)).toEqual([]);
    const noFailures = {
      ...DEFAULT_DESKTOP_SETTINGS,
      notify: { ...DEFAULT_DESKTOP_SETTINGS.notify, failing: false },
    };
    expect(noticesToShow(notices, noFailures, false).map((notice) => notice.kind)).toEqual(['approval']);
  });

  it('counts on the badge what waits for the person', () => {
    expect(badgeCount(quiet)).toBe(0);
    expect(badgeCount(withApproval('a1', 'a2'))).toBe(2);
    expect(badgeCount({ ...withApproval('a1'), signIn: ['github'] })).toBe(2);
  });
});

describe('an MCP server that needs the person to sign in', () => {
  it('is told once, with its name, and a click opens its card in the Tool Store', () => {
    const waiting = { ...quiet, signIn: ['github'] };
    expect(noticesBetween(quiet, waiting)).toEqual([
      {
        kind: 'sign_in',
        title: 'Your org needs you to sign in to github',
        body: 'Agents cannot use the tools of github until you sign in. Open its card in the Tool Store to sign in.',
        place: { view: 'tools', server: 'github' },
      },
    ]);
    expect(noticesBetween(waiting, waiting)).toEqual([]);
  });

  it('keeps waiting across its restarts until it runs, then may ask again', () => {
    let waiting = waitingForSignIn([], [{ name: 'github', status: 'needs_sign_in' }]);
    expect(waiting).toEqual(['github']);
    for (const status of ['stopped', 'starting', 'needs_sign_in', 'failed'] as const) {
      waiting = waitingForSignIn(waiting, [{ name: 'github', status }]);
      expect(waiting).toEqual(['github']);
    }
    waiting = waitingForSignIn(waiting, [{ name: 'github', status: 'running' }]);
    expect(waiting).toEqual([]);
    expect(waitingForSignIn(waiting, [{ name: 'github', status: 'needs_sign_in' }])).toEqual(['github']);
  });

  it('stops waiting when it is turned off or removed', () => {
    expect(waitingForSignIn(['github'], [{ name: 'github', status: 'disabled' }])).toEqual([]);
    expect(waitingForSignIn(['github', 'linear'], [{ name: 'linear', status: 'needs_sign_in' }])).toEqual([
      'linear',
    ]);
  });
});
