// Compiles the program starter (native/program-spawn, a Node-API addon) into out/native on Linux, where
// Node's child_process forks and posix_spawn does not; elsewhere Node's own spawn is as cheap and nothing
// is built. Node-API is one binary interface for Node and Electron alike, so the file needs no rebuild for
// the app. Without a C compiler the engine starts programs with Node's spawn (slower, same behaviour); on
// CI a failed build fails, so the tests always run the starter the installers ship.
// Runs on `npm ci`/`npm install` (the `prepare` script) and in `npm run build`.
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

if (process.platform !== 'linux') process.exit(0);

const outDir = 'out/native';
const headers = dirname(createRequire(import.meta.url).resolve('node-api-headers/include/node_api.h'));
mkdirSync(outDir, { recursive: true });
const compiler = process.env.CC ?? 'cc';
const compiled = spawnSync(
  compiler,
  [
    '-O2',
    '-std=gnu11',
    '-Wall',
    '-Wextra',
    '-Wno-unused-parameter',
    '-shared',
    '-fPIC',
    '-fvisibility=hidden',
    '-pthread',
    '-I',
    headers,
    'native/program-spawn/program_spawn.c',
    '-o',
    join(outDir, 'program-spawn.node'),
  ],
  { stdio: 'inherit' },
);
if (compiled.status !== 0) {
  const why = compiled.error
    ? `${compiler}: ${compiled.error.message}`
    : `${compiler} exited ${compiled.status}`;
  process.stderr.write(
    `build-native: the program starter was not built (${why}); the engine will start programs with Node's spawn, which costs more CPU per program.\n`,
  );
  process.exit(process.env.CI ? 1 : 0);
}
