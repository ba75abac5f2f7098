// The first step of `npm start` and `npm run dev`: Electron's own program, which npm does not install (the electron package
// downloads it the first time it is used). When it is missing it is downloaded now, before the build;
// when that fails (offline, a blocked download), one line says how to get it and what works without it,
// instead of Electron's "failed to install correctly" after a full build.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const electronFolder = dirname(createRequire(import.meta.url).resolve('electron/package.json'));

/** Where the electron package looks for the program (its index.js), when path.txt says what it is. */
function electronProgram() {
  const pathFile = join(electronFolder, 'path.txt');
  const program = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : 'electron';
  return join(process.env.ELECTRON_OVERRIDE_DIST_PATH ?? join(electronFolder, 'dist'), program);
}

if (!existsSync(electronProgram())) {
  process.stdout.write("Downloading Electron's program (once, about 100 MB)…\n");
  const download = spawnSync(process.execPath, [join(electronFolder, 'install.js')], {
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
  });
  if (download.status !== 0 || !existsSync(electronProgram())) {
    // The installer prints a stack; its first line is the reason ("RequestError: getaddrinfo ENOTFOUND …").
    const reason = (download.stderr ?? '')
      .trim()
      .split('\n')[0]
      .replace(/^\w*Error: /, '');
    process.stderr.write(
      `Electron's program, which opens the app, is not installed and could not be downloaded${reason ? ` (${reason})` : ''}. ` +
        'Connect to the internet and try again, or get it with `npx install-electron` ' +
        '(ELECTRON_MIRROR names a mirror). The lemming command (npx lemming help) and the tests (npm test) work without it.\n',
    );
    process.exit(1);
  }
}
