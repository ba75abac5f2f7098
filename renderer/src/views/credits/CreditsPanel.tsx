import { useId, useState, type FormEvent } from 'react';
import { GlossaryLink } from '../../components/Glossary';
import {
  isHumanOperator,
  type BudgetStanding,
  type CreditBalance,
  type CreditHistoryEntry,
  type UnpricedUse,
} from '../../../../engine/api';
import { Badge } from '../../components/Badge';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { useQuery } from '../../server-state/use-query';
import { write } from '../../server-state/write';
import { resumeOverBudget } from '../../shared/resume-over-budget';
import { CreditChart, formatCredits } from './CreditChart';
import './credits.css';
import { ErrorAlert } from '../../components/ErrorAlert';

/** How much of each agent's ledger the chart draws: the newest entries. */
const HISTORY_WINDOW = 200;

/** Every agent's balance and its history over time, refreshed as the run goes, with a top-up form. */
export function CreditsPanel() {
  const { result } = useQuery('credits.balances', {});
  const everyone = result?.ok ? result.value : null;
  const error = result && !result.ok ? result.error : null;
  // The human operator sends messages and never spends: it has no budget to show or top up.
  const balances = everyone?.filter((row) => !isHumanOperator(row.agent)) ?? null;
  const headingId = useId();

  return (
    <section className="panel credits" aria-labelledby={headingId}>
      <h2 id={headingId}>Credits</h2>
      <p className="muted small">
        What each agent has left to spend on its model. <GlossaryLink term="credits" />: how they work.
      </p>
      {error && <ErrorAlert error={error} title="Could not read the credits." />}
      {balances === null && !error && <p className="muted">Reading balances…</p>}
      {balances?.length === 0 && (
        <EmptyState title="No agents to pay yet">
          <p>Agents appear here once the org has some; each starts with the credits its resume grants.</p>
        </EmptyState>
      )}
      <DepartmentSpendList />
      {balances && balances.length > 0 && (
        <>
          <ul className="credit-list" aria-label="Credit balances">
            {balances.map((row) => (
              <CreditRow key={row.agent} row={row} />
            ))}
          </ul>
          <TopUpForm agents={balances.map((row) => row.agent)} />
        </>
      )}
    </section>
  );
}

/** One line per department: what its agents spent today and this month. */
function DepartmentSpendList() {
  const { result } = useQuery('departments.spend', {});
  const rows = result?.ok ? result.value : [];
  if (rows.length === 0) return null;
  return (
    <ul className="department-spend" aria-label="Spent by department">
      {rows.map((row) => (
        <li key={row.department} aria-label={row.department}>
          <span className="agent-name">{row.department}</span>
          <span>
            {formatCredits(row.spentToday)} credits today · {formatCredits(row.spentThisMonth)} this month
          </span>
          <span className="muted small">
            {row.agents.length > 0 ? row.agents.join(', ') : 'no agents yet'}
          </span>
        </li>
      ))}
    </ul>
  );
}

function CreditRow({ row }: { row: CreditBalance }) {
  const { result } = useQuery('credits.history', { agent: row.agent, limit: HISTORY_WINDOW });
  // Newest first from main; a chart draws oldest first.
  const entries = result?.ok ? [...result.value.entries].reverse() : [];
  return (
    <li className="credit-row" aria-label={row.agent} data-agent={row.agent}>
      <div className="credit-heading">
        <span className="agent-name">{row.agent}</span>
        <span className="credit-balance" data-testid="balance">
          {row.balance === null ? 'Not started' : `${formatCredits(row.balance)} credits`}
        </span>
        {row.outOfCredits && <Badge tone="bad">Out of credits</Badge>}
        {row.overBudget && <Badge tone="bad">Paused: over budget</Badge>}
      </div>
      {row.overBudget && <OverBudget agent={row.agent} words={row.overBudget} />}
      {row.unpriced && <UnpricedLine use={row.unpriced} />}
      {row.budgets.length > 0 && <BudgetLines budgets={row.budgets} />}
      {row.maxCredits !== null && (
        <div className="muted small">
          Started with {formatCredits(row.maxCredits)}
          {row.softCap !== null && !row.budgets.some((budget) => budget.budget === 'soft_cap')
            ? ` · soft cap ${formatCredits(row.softCap)} (you are told when it has spent that much)`
            : ''}
        </div>
      )}
      <CreditChart agent={row.agent} entries={entries} budget={row.maxCredits} />
      {entries.length > 0 && <RecentEntries entries={entries} />}
    </li>
  );
}

/** Paused over a budget: why, and the one click that lets it go on. */
function OverBudget({ agent, words }: { agent: string; words: string }) {
  return (
    <div className="over-budget small" role="status">
      <span>{words}</span>
      <button type="button" onClick={() => void resumeOverBudget(agent)}>
        Resume {agent}
      </button>
    </div>
  );
}

/** A model without prices: what it cost is not known, so its use is shown in tokens, never as 0. */
function UnpricedLine({ use }: { use: UnpricedUse }) {
  return (
    <div className="muted small" data-testid="unpriced">
      <Badge tone="warn">Unpriced</Badge> Its model {use.model} has no prices, so what it costs is not known:{' '}
      {use.calls} {use.calls === 1 ? 'call' : 'calls'}, {use.inputTokens.toLocaleString()} tokens in,{' '}
      {use.outputTokens.toLocaleString()} tokens out.
    </div>
  );
}

const PERIOD_WORDS = { daily: 'today', monthly: 'this month' } as const;

function BudgetLines({ budgets }: { budgets: BudgetStanding[] }) {
  return (
    <ul className="budget-lines small" aria-label="Budgets">
      {budgets.map((budget) => (
        <li key={`${budget.scope}:${budget.budget}`}>
          {budget.budget === 'soft_cap'
            ? 'Soft cap'
            : `${budget.scope === 'org' ? 'The org’s budget' : 'Budget'} ${budget.words}`}
          : {formatCredits(budget.spent)} of {formatCredits(budget.limit)} spent{' '}
          {budget.budget === 'soft_cap'
            ? 'since it was last given credits'
            : PERIOD_WORDS[budget.budget.startsWith('daily') ? 'daily' : 'monthly']}
          {budget.warned && !budget.paused && (
            <>
              {' '}
              <Badge tone="warn">{budget.budget === 'soft_cap' ? 'Soft cap reached' : '80 % spent'}</Badge>
            </>
          )}
          {budget.cannotSee.length > 0 && (
            <span className="muted">
              {' '}
              · cannot see {budget.cannotSee.join(', ')} (unpriced: no prices for their model)
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

const KIND_WORDS: Record<CreditHistoryEntry['kind'], string> = {
  grant: 'Granted',
  top_up: 'Top-up',
  turn: 'Turn',
  model_call: 'Model call',
  tool: 'Tool',
  adjustment: 'Adjustment',
  external_adjustment: 'Changed by hand in the credits file',
};

function RecentEntries({ entries }: { entries: CreditHistoryEntry[] }) {
  const newest = entries.slice(-8).reverse();
  return (
    <details className="credit-entries">
      <summary>Recent changes</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">Tick</th>
            <th scope="col">What</th>
            <th scope="col">Change</th>
            <th scope="col">Balance</th>
          </tr>
        </thead>
        <tbody>
          {newest.map((entry) => (
            <tr key={entry.id} title={entry.reason}>
              <td>{entry.tick ?? '–'}</td>
              <td>{KIND_WORDS[entry.kind]}</td>
              <td>{`${entry.amount > 0 ? '+' : ''}${formatCredits(entry.amount)}`}</td>
              <td>{formatCredits(entry.balance)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

function TopUpForm({ agents }: { agents: string[] }) {
  const [agent, setAgent] = useState(agents[0] ?? '');
  const [amount, setAmount] = useState('50');
  const [confirming, setConfirming] = useState(false);
  const chosen = agents.includes(agent) ? agent : (agents[0] ?? '');
  const value = Number(amount);
  const valid = amount.trim() !== '' && Number.isFinite(value) && value > 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (valid && chosen) setConfirming(true);
  };

  const confirm = async () => {
    setConfirming(false);
    await write(
      'credits.topUp',
      { agent: chosen, amount: value },
      {
        progress: 'Adding credits…',
        failure: `Could not top up ${chosen}`,
        success: (done) => ({
          title: `Added ${formatCredits(value)} credits to ${done.agent}`,
          detail: `Balance now ${formatCredits(done.balance)}.`,
        }),
      },
    );
  };

  return (
    <form className="top-up" onSubmit={submit} aria-label="Top up credits">
      <label>
        Agent
        <select value={chosen} onChange={(event) => setAgent(event.target.value)}>
          {agents.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Credits to add
        <input
          type="number"
          min={0}
          step="any"
          value={amount}
          onChange={(event) => setAmount(event.target.value)}
          aria-invalid={!valid}
          className="narrow"
        />
      </label>
      <button type="submit" disabled={!valid || !chosen}>
        Top up…
      </button>
      <ConfirmDialog
        open={confirming}
        title={`Add ${valid ? formatCredits(value) : ''} credits to ${chosen}?`}
        confirmLabel="Add credits"
        onConfirm={() => void confirm()}
        onCancel={() => setConfirming(false)}
      >
        <p>The credits go into {chosen}’s ledger as a top-up; its next turns can spend them.</p>
      </ConfirmDialog>
    </form>
  );
}
