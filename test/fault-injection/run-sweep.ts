// The whole fault-injection sweep (`npm run sweep:faults`): every write-related system call of one tick of the
// sweep org fails in turn, with EIO and with ENOSPC; after each, clean runs must recover with nothing lost or
// doubled. Options: --errors EIO,ENOSPC  --syscalls write,openat,…  --concurrency N  --json FILE
// --first-tick (fault an org's very first tick, its timeline created, instead of its second)
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import {
  hasStrace,
  SweepWorld,
  sweepFaults,
  WRITE_SYSCALLS,
  type FaultError,
  type FaultOutcome,
} from './fault-sweep';

const { values } = parseArgs({
  options: {
    errors: { type: 'string', default: 'EIO,ENOSPC' },
    syscalls: { type: 'string', default: WRITE_SYSCALLS.join(',') },
    concurrency: { type: 'string', default: '2' },
    json: { type: 'string' },
    'first-tick': { type: 'boolean', default: false },
  },
});

if (!hasStrace()) {
  console.log('sweep:faults skipped: it needs strace on Linux (apt-get install strace).');
  process.exit(0);
}

const started = Date.now();
const world = await SweepWorld.create(values['first-tick'] ? 0 : 1);
try {
  const { calls, reference } = await world.enumerate();
  if (reference.code !== 0) throw new Error(`the fault-free run under strace failed: ${reference.stderr}`);
  const wanted = new Set(values.syscalls.split(','));
  const faults = sweepFaults(
    Object.fromEntries(Object.entries(calls).filter(([name]) => wanted.has(name))),
    values.errors.split(',') as FaultError[],
  );
  console.log(
    `one tick makes ${Object.entries(calls)
      .map(([name, numbers]) => `${name} ×${numbers.length}`)
      .join(', ')}: ${faults.length} faulted runs`,
  );
  const outcomes: FaultOutcome[] = [];
  let next = 0;
  const workers = Array.from({ length: Number(values.concurrency) }, async (_, slot) => {
    while (next < faults.length) {
      const fault = faults[next++]!;
      const outcome = await world.runCase(fault, slot);
      outcomes.push(outcome);
      const label = `${fault.syscall}#${fault.nth} ${fault.error}`;
      if (outcome.problems.length > 0) console.log(`FAIL ${label}: ${outcome.problems.join('; ')}`);
      if (outcomes.length % 25 === 0) console.log(`${outcomes.length}/${faults.length} runs`);
    }
  });
  await Promise.all(workers);
  const failed = outcomes.filter((outcome) => outcome.problems.length > 0);
  const hit = outcomes.filter((outcome) => outcome.injected.length > 0);
  const hitWrites = outcomes.filter((outcome) => outcome.hitAWrite);
  const stackTraces = outcomes.filter((outcome) => outcome.problems.some((p) => p.includes('stack trace')));
  const hangs = outcomes.filter((outcome) => outcome.problems.some((p) => p.includes('hung')));
  const lostOrDoubled = outcomes.filter((outcome) =>
    outcome.problems.some((p) => / lost|twice|still owed/.test(p)),
  );
  const faultedFailures = outcomes.filter((outcome) => outcome.faulted.code !== 0);
  console.log(
    [
      `${outcomes.length} faulted runs in ${Math.round((Date.now() - started) / 1000)} s`,
      `${hit.length} hit a call (the others' call number did not come in that run), ${hitWrites.length} a write-related one (the rest only read-only opens of another thread)`,
      `${faultedFailures.length} faulted runs exited non-zero (one plain line)`,
      `${stackTraces.length} stack traces, ${hangs.length} hangs, ${lostOrDoubled.length} with lost or doubled turns`,
      `${failed.length} with any problem`,
    ].join('\n'),
  );
  // What the faulted runs said, each distinct line once (the org's folder and file ids left out).
  const said = new Map<string, number>();
  for (const outcome of outcomes)
    for (const line of outcome.faulted.stderr.split('\n').filter(Boolean)) {
      const shape = line
        .replace(/\/tmp\/lemming-fault-sweep-\w+\/org-\d+/g, '<org>')
        .replace(/[0-9a-f]{32}/g, '<id>');
      said.set(shape, (said.get(shape) ?? 0) + 1);
    }
  console.log('what the faulted runs said on stderr:');
  for (const [line, count] of [...said].sort((a, b) => b[1] - a[1])) console.log(`  ${count} × ${line}`);
  if (values.json) writeFileSync(values.json, `${JSON.stringify(outcomes, null, 2)}\n`);
  process.exitCode = failed.length > 0 ? 1 : 0;
} finally {
  await world.close();
}
