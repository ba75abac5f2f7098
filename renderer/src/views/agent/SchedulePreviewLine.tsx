import { useCallback } from 'react';
import { lemming } from '../../lemming';
import { useDebouncedCall } from './use-debounced-call';

/** "Runs on ticks 1, 3, 5, …" for the schedule being typed, or why it cannot run. */
export function SchedulePreviewLine({ every, offset }: { every: number | null; offset: number | null }) {
  const valid = every !== null && every >= 1 && offset !== null;
  const key = valid ? `${every}:${offset}` : '';
  const call = useCallback(async (asked: string) => {
    if (!asked) return null;
    const [runEvery, phase] = asked.split(':').map(Number) as [number, number];
    return lemming().agent.schedulePreview({
      schedule: { run_every_n_ticks: runEvery, phase_offset: phase },
      count: 8,
    });
  }, []);
  const answer = useDebouncedCall(key, call);

  if (!valid)
    return (
      <p className="schedule-preview path-refused" role="alert">
        Runs every … ticks must be a whole number of at least 1, and the phase offset a whole number.
      </p>
    );
  if (!answer || answer.key !== key || !answer.value)
    return <p className="schedule-preview muted">Working out the ticks…</p>;
  if (!answer.value.ok)
    return (
      <p className="schedule-preview path-refused" role="alert">
        {answer.value.error.message}
      </p>
    );
  const { ticks, fromTick } = answer.value.value;
  return (
    <p className="schedule-preview" aria-live="polite" data-testid="schedule-preview">
      From tick {fromTick}, runs on ticks {ticks.join(', ')}, …
    </p>
  );
}
