import { useCallback } from 'react';
import { ok } from '../../../../engine/api/result';
import { lemming } from '../../lemming';
import { useLemmingQuery } from '../../use-lemming-query';

/** The ticks are asked for once the user stops typing for this long. */
const TYPING_PAUSE_MS = 250;

/** "Runs on ticks 1, 3, 5, …" for the schedule being typed, or why it cannot run. */
export function SchedulePreviewLine({ every, offset }: { every: number | null; offset: number | null }) {
  const valid = every !== null && every >= 1 && offset !== null;
  const key = valid ? `${every}:${offset}` : '';
  const ask = useCallback(async () => {
    if (!key) return ok(null);
    const [runEvery, phase] = key.split(':').map(Number) as [number, number];
    return lemming().agent.schedulePreview({
      schedule: { run_every_n_ticks: runEvery, phase_offset: phase },
      count: 8,
    });
  }, [key]);
  const { result } = useLemmingQuery(key, ask, { delayMs: TYPING_PAUSE_MS });

  if (!valid)
    return (
      <p className="schedule-preview path-refused" role="alert">
        Runs every … ticks must be a whole number of at least 1, and the phase offset a whole number.
      </p>
    );
  if (!result || (result.ok && !result.value))
    return <p className="schedule-preview muted">Working out the ticks…</p>;
  if (!result.ok)
    return (
      <p className="schedule-preview path-refused" role="alert">
        {result.error.message}
      </p>
    );
  const { ticks, fromTick } = result.value!;
  return (
    <p className="schedule-preview" aria-live="polite" data-testid="schedule-preview">
      From tick {fromTick}, runs on ticks {ticks.join(', ')}, …
    </p>
  );
}
