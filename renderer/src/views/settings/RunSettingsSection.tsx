import { useEffect, useId, useState, type FormEvent } from 'react';
import { attempt } from '../../components/activity-store';
import { toast } from '../../components/toast-store';
import { lemming } from '../../lemming';

/** How fast ticks follow each other and where a run ends, kept in org_config.json where LeMMing reads them. */
export function RunSettingsSection() {
  const headingId = useId();
  const [seconds, setSeconds] = useState('');
  const [maxTurns, setMaxTurns] = useState('');
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    let live = true;
    void lemming()
      .settings.get()
      .then((result) => {
        if (!live) return;
        if (!result.ok) return void toast.error('Could not read the run settings', result.error);
        setSeconds(String(result.value.run.tickIntervalSeconds));
        setMaxTurns(result.value.run.maxTurns === null ? '' : String(result.value.run.maxTurns));
        setLoaded(true);
      });
    return () => {
      live = false;
    };
  }, []);

  const secondsValue = Number(seconds);
  const maxValue = maxTurns.trim() === '' ? null : Number(maxTurns);
  const valid =
    Number.isFinite(secondsValue) &&
    secondsValue > 0 &&
    (maxValue === null || (Number.isInteger(maxValue) && maxValue >= 1));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!valid) return;
    const saved = await attempt('Saving run settings…', 'Could not save the run settings', () =>
      lemming().settings.update({ tickIntervalSeconds: secondsValue, maxTurns: maxValue }),
    );
    if (saved) toast.success('Run settings saved');
  };

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h3 id={headingId}>Running</h3>
      <form className="field-grid" onSubmit={(event) => void submit(event)}>
        <label>
          Seconds between ticks
          <input
            type="number"
            min={0}
            step="any"
            value={seconds}
            onChange={(event) => setSeconds(event.target.value)}
            disabled={!loaded}
            aria-invalid={loaded && !valid}
          />
        </label>
        <label>
          Last tick (empty for no end)
          <input
            type="number"
            min={1}
            step={1}
            value={maxTurns}
            onChange={(event) => setMaxTurns(event.target.value)}
            disabled={!loaded}
          />
        </label>
        <div>
          <button type="submit" disabled={!loaded || !valid}>
            Save run settings
          </button>
        </div>
      </form>
    </section>
  );
}
