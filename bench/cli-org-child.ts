// Runs an org with our engine for some warm-up ticks, then measured ticks, and prints one JSON line:
// the wall and CPU time of the measured ticks. The CPU is the whole process tree's (the engine, the
// program-spawner helper and the model programs it reaped), read from /proc (Linux).
// lemming-side-by-side.bench.ts compiles this file and runs it in its own Node process, as the CLI runs.
import { readdirSync, readFileSync } from 'node:fs';
import { OrgEngine } from '../engine/run/org-engine';
import { trustAsIs } from '../engine/trust/test-support/trust-as-is';

const [orgPath, warmUpTicks, measuredTicks] = process.argv.slice(2);

/** utime, stime, cutime, cstime (clock ticks) and the parent pid of a process, or null once it is gone. */
function processTimes(pid: number | 'self'): { ticks: number; ppid: number } | null {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\) /, '')
      .split(' ');
    // After the command name: state, ppid, …, utime at index 11, stime 12, cutime 13, cstime 14.
    return {
      ppid: Number(fields[1]),
      ticks: Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return null;
  }
}

/** CPU of this process, its reaped children and its live descendants with theirs, in ms (100 Hz ticks). */
function treeCpuMs(): number {
  const parents = new Map<number, number[]>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const times = processTimes(Number(name));
    if (times) parents.set(times.ppid, [...(parents.get(times.ppid) ?? []), Number(name)]);
  }
  let ticks = processTimes('self')!.ticks;
  const stack = [...(parents.get(process.pid) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    ticks += processTimes(pid)?.ticks ?? 0;
    stack.push(...(parents.get(pid) ?? []));
  }
  return ticks * 10;
}

const engine = await OrgEngine.open({
  trust: await trustAsIs(orgPath!),
  orgPath: orgPath!,
  env: process.env,
});
try {
  for (let tick = 0; tick < Number(warmUpTicks); tick += 1) await engine.runTick();
  const cpuBefore = treeCpuMs();
  const engineCpuBefore = process.cpuUsage();
  const began = performance.now();
  for (let tick = 0; tick < Number(measuredTicks); tick += 1) await engine.runTick();
  const wallMs = performance.now() - began;
  const engineCpu = process.cpuUsage(engineCpuBefore);
  const engineCpuMs = (engineCpu.user + engineCpu.system) / 1000;
  process.stdout.write(`${JSON.stringify({ wallMs, cpuMs: treeCpuMs() - cpuBefore, engineCpuMs })}\n`);
} finally {
  engine.close();
}
