// Appends events to a timeline, says so, and dies by SIGKILL before anything else runs: no close, so
// no search catch-up. The test that spawns it reopens the file as a crashed engine would leave it.
import { openTimeline } from '../timeline-store';

const [file, ...words] = process.argv.slice(2);
const opened = openTimeline(file!);
if (!opened.ok) throw new Error(opened.error.message);
opened.timeline.appendMany(words.map((word) => ({ kind: 'message', agent: 'ada', text: word })));
process.stdout.write('APPENDED\n');
process.kill(process.pid, 'SIGKILL');
