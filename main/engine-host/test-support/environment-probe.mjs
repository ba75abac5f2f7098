// Reports the thread's process.env to whoever started it: for the test that the engine thread is
// started with a minimal base of main's environment (engineWorkerOptions), as main starts it.
import { parentPort } from 'node:worker_threads';

parentPort.postMessage({ type: 'environment', env: { ...process.env } });
