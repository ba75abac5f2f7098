// Takes an org's run lock, prints HELD, and keeps it until killed: a stand-in for a run in another process.
import { OrgRunLock } from '../org-lock';

const taken = OrgRunLock.take(process.argv[2]!, { program: 'hold-lock test' });
process.stdout.write(taken.ok ? 'HELD\n' : `REFUSED ${taken.error.message}\n`);
// The timer holds the lock object: once nothing refers to it, a garbage collection would close its connection and free the lock.
setInterval(() => taken, 60_000);
