// `npm run dev`: the Vite dev server for the renderer (hot reload), esbuild watching main and preload,
// and Electron restarted whenever main or preload is rebuilt.
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'vite';

const require = createRequire(import.meta.url);
const electronBinary = require('electron');

const server = await createServer({ configFile: 'vite.config.ts' });
await server.listen();
const devServerUrl = server.resolvedUrls?.local[0] ?? 'http://localhost:5173/';

const bundler = spawn(process.execPath, ['scripts/build-electron-bundles.mjs', '--watch'], {
  stdio: 'inherit',
});
let electron = null;
let restartTimer = null;
const restart = () => {
  clearTimeout(restartTimer);
  restartTimer = setTimeout(() => {
    electron?.kill();
    electron = spawn(electronBinary, ['.'], {
      stdio: 'inherit',
      env: { ...process.env, LEMMING_DEV_SERVER_URL: devServerUrl },
    });
  }, 300);
};
watch('out/main', restart);
watch('out/preload', restart);
restart();
process.on('SIGINT', () => {
  electron?.kill();
  bundler.kill();
  void server.close().then(() => process.exit(0));
});
