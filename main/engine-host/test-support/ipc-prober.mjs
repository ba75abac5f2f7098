// Plays the renderer from another thread: asks main over a message port, again and again, and
// measures each round trip until told to stop, then reports them all.
import { setTimeout as sleep } from 'node:timers/promises';
import { parentPort, workerData } from 'node:worker_threads';

const { port, intervalMs } = workerData;
const roundTrips = [];
let stopping = false;
parentPort.on('message', () => {
  stopping = true;
});
parentPort.postMessage({ started: true });
while (!stopping) {
  const started = performance.now();
  const answered = new Promise((resolve) => port.once('message', resolve));
  port.postMessage({ channel: 'app.info', input: {} });
  const answer = await answered;
  if (!answer.ok) throw new Error(`app.info failed: ${JSON.stringify(answer)}`);
  roundTrips.push(performance.now() - started);
  await sleep(intervalMs);
}
parentPort.postMessage({ roundTrips });
