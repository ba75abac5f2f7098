import { useQuery } from '../../server-state/use-query';

/** The ticks are asked for once the user stops typing for this long. */
const TYPING_PAUSE_MS = 250;

/** "Runs on ticks 1, 3, 5, …" for the schedule being typed, or why it cannot run. */
export function SchedulePreviewLine({ every, offset }: { every: number | null; offset: number | null }) {
  const valid = every !== null && every >= 1 && offset !== null;
  const { result } = useQuery(
    'agent.schedulePreview',
    valid ? { schedule: { run_every_n_ticks: every, phase_offset: offset }, count: 8 } : null,
    { delayMs: TYPING_PAUSE_MS },
  );

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
