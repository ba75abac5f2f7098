import { useId, useState, type FormEvent } from 'react';
import type { RunPhase, RunState } from '../../../../engine/api';
import { Badge, type BadgeTone } from '../../components/Badge';
import { useDefaultSeconds, useRunState, useRunStore } from '../../stores/run-store';
import { mayRun, useTrustStore } from '../../stores/trust-store';
import { RunReadinessNote } from './RunReadinessNote';
import { WaitingForYouButton } from '../../shared/WaitingQueue';
import './run.css';

const PHASE_WORDS: Record<RunPhase, { text: string; tone: BadgeTone }> = {
  idle: { text: 'Not running', tone: 'neutral' },
  running: { text: 'Running', tone: 'ok' },
  pausing: { text: 'Pausing after this tick…', tone: 'warn' },
  paused: { text: 'Paused', tone: 'warn' },
  stepping: { text: 'Running one tick…', tone: 'info' },
  stopping: { text: 'Stopping after this tick…', tone: 'warn' },
};

const END_WORDS = {
  stopped: 'Stopped',
  tick_limit: 'Finished the ticks asked for',
  max_turns: 'Reached the org’s last tick',
  error: 'Stopped by an error',
} as const;

/** Start, pause/resume, step and stop, with the tick and the run's progress; always on screen while an org is open. */
export function RunControls() {
  const run = useRunState();
  const trust = useTrustStore((store) => store.trust);
  const trusted = trust !== null && mayRun(trust);

  return (
    <section className="run-controls" aria-label="Run controls" data-run-phase={run?.phase ?? 'unknown'}>
      {run ? <RunBar run={run} trusted={trusted} /> : <span className="muted">Reading the run state…</span>}
      {run && !trusted && <NotTrustedNote />}
      {run && trusted && <RunReadinessNote />}
    </section>
  );
}

/** Until the person trusts the org as it is now, Start and Step wait, and the bar says why. */
function NotTrustedNote() {
  const review = useTrustStore((store) => store.review);
  return (
    <p className="run-not-trusted" role="status">
      <Badge tone="warn">Not trusted yet</Badge>
      <span>Nothing in this org runs until you trust it: no program starts and nothing is sent.</span>
      <button type="button" onClick={review}>
        Review trust…
      </button>
    </p>
  );
}

function RunBar({ run, trusted }: { run: RunState; trusted: boolean }) {
  const { pause, resume, step, stop, sending } = useRunStore();
  const active = run.phase !== 'idle';
  if (!active && run.heldElsewhere) return <HeldElsewhere run={run} holder={run.heldElsewhere} />;
  const settling = run.phase === 'pausing' || run.phase === 'stopping' || run.phase === 'stepping';
  const phase = PHASE_WORDS[run.phase];

  return (
    <>
      {active ? null : <StartForm run={run} disabled={sending || !trusted} />}
      {run.phase === 'running' && (
        <button type="button" onClick={() => void pause()} disabled={sending}>
          Pause
        </button>
      )}
      {run.phase === 'paused' && (
        <button
          type="button"
          className="primary"
          onClick={() => void resume()}
          disabled={sending || !trusted}
        >
          Resume
        </button>
      )}
      <button
        type="button"
        onClick={() => void step()}
        disabled={sending || !trusted || (run.phase !== 'idle' && run.phase !== 'paused')}
        title="Run exactly one tick, then wait"
      >
        Step one tick
      </button>
      {active && (
        <button type="button" onClick={() => void stop()} disabled={sending || run.phase === 'stopping'}>
          Stop
        </button>
      )}
      <span className="run-status">
        <Badge tone={phase.tone}>{phase.text}</Badge>
        <span data-testid="current-tick">
          {run.tickInProgress !== null
            ? `Tick ${run.tickInProgress}`
            : run.nextTick !== null
              ? `Next tick ${run.nextTick}`
              : 'Tick unknown'}
        </span>
        <RunProgress run={run} />
        <WaitingForYouButton />
        {!active && !settling && run.ended && (
          <span className="muted" title={run.ended.message}>
            {END_WORDS[run.ended.reason]}
            {run.ended.atTick !== null ? ` at tick ${run.ended.atTick}` : ''}
          </span>
        )}
      </span>
    </>
  );
}

/** Another program runs the org: this window watches its timeline, and its own run controls wait. */
function HeldElsewhere({ run, holder }: { run: RunState; holder: NonNullable<RunState['heldElsewhere']> }) {
  const since = holder.since ? new Date(holder.since).toLocaleTimeString() : null;
  return (
    <span className="run-status" role="status" data-testid="run-held-elsewhere">
      <Badge tone="info">Run by another program</Badge>
      <span>
        This org is being run by another program{since ? ` since ${since}` : ''}. You can watch what it does
        here; you can run it yourself once it stops.
      </span>
      <span data-testid="current-tick">
        {run.nextTick !== null ? `Next tick ${run.nextTick}` : 'Tick unknown'}
      </span>
      <details className="run-held-details">
        <summary>Advanced</summary>
        {holder.program}
        {holder.pid ? `, process ${holder.pid} on ${holder.host}` : ''}
        {holder.since ? `, since ${holder.since}` : ''}
      </details>
    </span>
  );
}

function RunProgress({ run }: { run: RunState }) {
  const words =
    run.tickLimit !== null
      ? `${run.ticksRun} of ${run.tickLimit} ticks done`
      : `${run.ticksRun} tick${run.ticksRun === 1 ? '' : 's'} done`;
  return (
    <span className="run-progress">
      {run.tickLimit !== null && (
        <progress
          value={Math.min(run.ticksRun, run.tickLimit)}
          max={run.tickLimit}
          aria-label="Run progress"
        />
      )}
      <span data-testid="ticks-done">{words}</span>
    </span>
  );
}

function StartForm({ run, disabled }: { run: RunState; disabled: boolean }) {
  const start = useRunStore((store) => store.start);
  const defaultSeconds = useDefaultSeconds();
  const ticksId = useId();
  const intervalId = useId();
  const [ticks, setTicks] = useState('10');
  // Until the user types a value, the field shows (and Start sends) Settings → "Seconds between ticks".
  const [typedSeconds, setSeconds] = useState<string | null>(null);
  const seconds = typedSeconds ?? String(defaultSeconds ?? run.intervalMs / 1000);

  const ticksValue = ticks.trim() === '' ? null : Number(ticks);
  const secondsValue = Number(seconds);
  const ticksValid = ticksValue === null || (Number.isInteger(ticksValue) && ticksValue > 0);
  const secondsValid = seconds.trim() !== '' && Number.isFinite(secondsValue) && secondsValue >= 0;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!ticksValid || !secondsValid) return;
    void start(ticksValue, Math.round(secondsValue * 1000));
  };

  return (
    <form className="start-form" onSubmit={submit} aria-label="Start a run">
      <button type="submit" className="primary" disabled={disabled || !ticksValid || !secondsValid}>
        Start
      </button>
      <label htmlFor={ticksId}>Ticks to run</label>
      <input
        id={ticksId}
        type="number"
        min={1}
        step={1}
        inputMode="numeric"
        value={ticks}
        onChange={(event) => setTicks(event.target.value)}
        aria-invalid={!ticksValid}
        aria-describedby={`${ticksId}-hint`}
        className="narrow"
      />
      <span id={`${ticksId}-hint`} className="visually-hidden">
        How many ticks to run; leave empty to run until you stop it.
      </span>
      <label htmlFor={intervalId}>Seconds between ticks</label>
      <input
        id={intervalId}
        type="number"
        min={0}
        step="any"
        value={seconds}
        onChange={(event) => setSeconds(event.target.value)}
        aria-invalid={!secondsValid}
        className="narrow"
      />
    </form>
  );
}
