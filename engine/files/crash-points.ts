/**
 * Named places where a fault-injection test may kill this process, to prove that a kill at that very
 * moment loses nothing: `LEMMING_CRASH_AT=<point>` (or `<point>#<n>` for its n-th passage) makes the
 * process SIGKILL itself there. `LEMMING_REJECT_AT=<point>` instead leaves a promise rejected there
 * that nothing handles, to prove the process-wide last resort ends the run cleanly. Without the
 * variables a crash point costs two comparisons.
 */
const target = parseTarget(process.env.LEMMING_CRASH_AT);
const rejectTarget = parseTarget(process.env.LEMMING_REJECT_AT);
let passages = 0;
let rejectPassages = 0;

export function crashPoint(point: string): void {
  if (rejectTarget !== null && point === rejectTarget.point) {
    rejectPassages += 1;
    if (rejectPassages === rejectTarget.passage)
      void Promise.reject(new Error(`a fault injected at ${point}`));
  }
  if (target === null || point !== target.point) return;
  passages += 1;
  if (passages === target.passage) process.kill(process.pid, 'SIGKILL');
}

function parseTarget(value: string | undefined): { point: string; passage: number } | null {
  if (!value) return null;
  const [point, passage] = value.split('#');
  return { point: point!, passage: passage === undefined ? 1 : Number(passage) };
}
