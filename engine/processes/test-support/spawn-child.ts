import { startProgram } from '../program-spawner';

/**
 * A process that starts `/bin/sh -c <script>` through the spawner helper and prints what its listeners
 * heard, one line each, for tests that fail the helper's channel under it.
 */
const [script = 'exit 0'] = process.argv.slice(2);
startProgram(
  { file: '/bin/sh', args: ['-c', script], cwd: '/', env: { PATH: process.env.PATH } },
  {
    stdout: (chunk) => process.stdout.write(`stdout: ${chunk.toString()}`),
    stderr: () => undefined,
    error: (error) => process.stdout.write(`error: ${error.code} ${error.message}\n`),
    close: (code) => process.stdout.write(`close: ${code}\n`),
  },
);
