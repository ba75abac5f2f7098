import { useEffect, useId, useState, type FormEvent } from 'react';
import { CATCH_UP_WORDS, CatchUp, type IpcError } from '../../../../engine/api';
import { useActivity } from '../../components/activity-store';
import { toast } from '../../components/toast-store';
import { ProblemList } from '../../components/ProblemList';
import { serverState } from '../../server-state/instance';
import { placeProblems } from '../../server-state/write';
import { GlossaryLink } from '../../components/Glossary';

/** The longest pause between ticks the engine accepts: one day. */
const MAX_SECONDS = 86_400;

type Field = 'seconds' | 'lastTick';

/** What is wrong with each field as typed, in words; null when it is fine. */
function fieldProblems(seconds: string, lastTick: string): Record<Field, string | null> {
  const secondsValue = Number(seconds);
  const lastValue = Number(lastTick);
  return {
    seconds:
      seconds.trim() === '' || !Number.isFinite(secondsValue)
        ? 'Enter a number of seconds, for example 5.'
        : secondsValue <= 0
          ? 'Enter a number above 0: ticks need a pause between them.'
          : secondsValue > MAX_SECONDS
            ? `Enter at most ${MAX_SECONDS.toLocaleString()} seconds (one day).`
            : null,
    lastTick:
      lastTick.trim() === '' || (Number.isInteger(lastValue) && lastValue >= 1)
        ? null
        : 'Enter a whole tick number, 1 or more, or leave it empty for no end.',
  };
}

/** The field a refusal from the engine is about, from the field names it quotes. */
function fieldOf(path: string): Field | null {
  if (/tickIntervalSeconds|base_turn_seconds/.test(path)) return 'seconds';
  if (/maxTurns|max_turns/.test(path)) return 'lastTick';
  return null;
}

/** How fast ticks follow each other and where a run ends, kept in org_config.json where LeMMing reads them. */
export function RunSettingsSection() {
  const headingId = useId();
  const secondsId = useId();
  const lastTickId = useId();
  const [seconds, setSeconds] = useState('');
  const [maxTurns, setMaxTurns] = useState('');
  const [catchUp, setCatchUp] = useState<CatchUp>('next_slot');
  const [loaded, setLoaded] = useState(false);
  const [refusal, setRefusal] = useState<IpcError | null>(null);

  useEffect(() => {
    let live = true;
    void serverState()
      .read('settings.get', {})
      .then((result) => {
        if (!live) return;
        if (!result.ok) return void setRefusal(result.error);
        setSeconds(String(result.value.run.tickIntervalSeconds));
        setMaxTurns(result.value.run.maxTurns === null ? '' : String(result.value.run.maxTurns));
        setCatchUp(result.value.run.catchUp);
        setLoaded(true);
      });
    return () => {
      live = false;
    };
  }, []);

  const typed = fieldProblems(seconds, maxTurns);
  const placed = placeProblems(refusal, fieldOf);
  const refusedAt = (field: Field) => placed.byField[field]?.[0] ?? null;
  const problems: Record<Field, string | null> = {
    seconds: loaded ? (typed.seconds ?? refusedAt('seconds')) : null,
    lastTick: loaded ? (typed.lastTick ?? refusedAt('lastTick')) : null,
  };
  const valid = typed.seconds === null && typed.lastTick === null;
  const otherIssues = placed.elsewhere;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    const activity = useActivity.getState();
    const id = activity.begin('Saving run settings…');
    const secondsValue = Number(seconds);
    const result = await serverState().write('settings.update', {
      tickIntervalSeconds: secondsValue,
      maxTurns: maxTurns.trim() === '' ? null : Number(maxTurns),
      catchUp,
    });
    activity.end(id, result.ok);
    if (!result.ok) return void setRefusal(result.error);
    setRefusal(null);
    toast.success('Run settings saved');
  };

  const edit = (field: Field, value: string) => {
    (field === 'seconds' ? setSeconds : setMaxTurns)(value);
    if (refusal) setRefusal(null);
  };

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h3 id={headingId}>Running</h3>
      <p className="muted">
        A <GlossaryLink term="tick" /> is one round in which every agent due to act takes its turn. These
        values are what the run bar offers when you start a run.
      </p>
      <form className="field-grid" onSubmit={(event) => void submit(event)} noValidate>
        <div className="settings-field">
          <label htmlFor={secondsId}>Seconds between ticks</label>
          <input
            id={secondsId}
            type="number"
            min={0}
            step="any"
            value={seconds}
            onChange={(event) => edit('seconds', event.target.value)}
            disabled={!loaded}
            aria-invalid={problems.seconds !== null}
            aria-describedby={problems.seconds ? `${secondsId}-problem` : undefined}
          />
          {problems.seconds && (
            <span id={`${secondsId}-problem`} className="settings-field-problem">
              {problems.seconds}
            </span>
          )}
        </div>
        <div className="settings-field">
          <label htmlFor={lastTickId}>Last tick (empty for no end)</label>
          <input
            id={lastTickId}
            type="number"
            min={1}
            step={1}
            value={maxTurns}
            onChange={(event) => edit('lastTick', event.target.value)}
            disabled={!loaded}
            aria-invalid={problems.lastTick !== null}
            aria-describedby={problems.lastTick ? `${lastTickId}-problem` : undefined}
          />
          {problems.lastTick && (
            <span id={`${lastTickId}-problem`} className="settings-field-problem">
              {problems.lastTick}
            </span>
          )}
        </div>
        <fieldset className="settings-field settings-choices">
          <legend>When ticks were missed (the app was closed or the computer asleep)</legend>
          {CatchUp.options.map((choice) => (
            <label key={choice}>
              <input
                type="radio"
                name={`${headingId}-catch-up`}
                value={choice}
                checked={catchUp === choice}
                onChange={() => setCatchUp(choice)}
                disabled={!loaded}
              />{' '}
              {CATCH_UP_WORDS[choice]}
            </label>
          ))}
        </fieldset>
        <div>
          <button type="submit" disabled={!loaded || !valid}>
            Save run settings
          </button>
        </div>
      </form>
      {refusal && (otherIssues.length > 0 || !loaded || refusal.issues === undefined) && (
        <div className="settings-refusal" role="alert">
          <p>
            {loaded ? 'The run settings were not saved.' : 'The run settings could not be read.'}{' '}
            {refusal.fix ?? 'The org’s settings file may have been edited by hand; check it and try again.'}
          </p>
          <details>
            <summary>Advanced</summary>
            <p>{refusal.message}</p>
            <ProblemList problems={refusal.issues ?? []} />
          </details>
        </div>
      )}
    </section>
  );
}
