/**
 * Named places where a fault-injection test may kill this process, to prove that a kill at that very
 * moment loses nothing: `LEMMING_CRASH_AT=<point>` (or `<point>#<n>` for its n-th passage) makes the
 * process SIGKILL itself there. Without the variable a crash point costs one comparison.
 */
const target = parseTarget(process.env.LEMMING_CRASH_AT);
let passages = 0;

export function crashPoint(point: string): void {
  if (target === null || point !== target.point) return;
  passages += 1;
  if (passages === target.passage) process.kill(process.pid, 'SIGKILL');
}

function parseTarget(value: string | undefined): { point: string; passage: number } | null {
  if (!value) return null;
  const [point, passage] = value.split('#');
  return { point: point!, passage: passage === undefined ? 1 : Number(passage) };
}
