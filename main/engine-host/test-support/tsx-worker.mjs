// Starts a worker thread from TypeScript source, as tests need it (the app starts the bundled file).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
