// Runs an org for some ticks and prints "COMMITTED <seq>" after each commit, so a test that kills this
// process can tell which events were committed before the kill.
import { OrgEngine } from '../org-engine';
import { trustAsIs } from '../../trust/test-support/trust-as-is';

const [orgPath, ticks] = process.argv.slice(2);
const engine = await OrgEngine.open({
  trust: await trustAsIs(orgPath!),
  orgPath: orgPath!,
  env: {},
  onCommit: (commit) => process.stdout.write(`COMMITTED ${commit.lastSeq}\n`),
});
for (let index = 0; index < Number(ticks); index += 1) await engine.runTick();
engine.close();
process.stdout.write('DONE\n');
