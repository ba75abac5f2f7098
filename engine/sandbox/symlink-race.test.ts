import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentSandbox, type SandboxResult } from './agent-sandbox';
import { isWithin } from './sandbox-layout';
import {
  CANARY,
  diskWorld,
  portableDiskWorld,
  seedOrg,
  type SandboxWorld,
} from './test-support/sandbox-world';

/**
 * Another process swaps a folder and a file in the workspace for links to outside, as fast as it can,
 * with atomic renames, while the agent reads, writes and lists through them.
 */
const SWAPPER = `
const fs = require('node:fs');
const [workspace, outside, durationMs] = process.argv.slice(1);
const folder = workspace + '/racedir';
const file = workspace + '/racefile.txt';
// The agent may make a new racedir in the moment it is missing; that one is thrown away.
const place = (from, to) => {
  for (;;) {
    try {
      fs.rmSync(to, { recursive: true, force: true });
      return fs.renameSync(from, to);
    } catch (error) {
      if (error.code !== 'EISDIR' && error.code !== 'ENOTEMPTY' && error.code !== 'EEXIST') throw error;
    }
  }
};
const stop = Date.now() + Number(durationMs);
let swaps = 0;
while (Date.now() < stop) {
  fs.renameSync(folder, folder + '.real');
  fs.symlinkSync(outside + '/dir', folder + '.link');
  place(folder + '.link', folder);
  fs.symlinkSync(outside + '/secret.txt', file + '.link');
  fs.renameSync(file + '.link', file);
  place(folder + '.real', folder);
  fs.writeFileSync(file + '.new', 'inside');
  fs.renameSync(file + '.new', file);
  swaps += 1;
}
process.stdout.write(String(swaps));
`;

const RACE_MS = 1500;

describe.skipIf(process.platform === 'win32').each([
  {
    factory: diskWorld,
    operations: ['read', 'write', 'list', 'stat', 'delete', 'mkdir'],
    strayTempFiles: false,
  },
  // Without /proc a delete or a new folder can still land in a swapped-in folder, and a write can leave
  // an empty temp file there (the race DiskAgentFilesystem documents), so those are all that is allowed.
  { factory: portableDiskWorld, operations: ['read', 'write', 'list', 'stat'], strayTempFiles: true },
])(
  'a link swapped in by a racing process on the $factory.name',
  ({ factory, operations, strayTempFiles }) => {
    let world: SandboxWorld;

    beforeEach(async () => {
      world = await factory.create();
      await seedOrg(world);
      await world.writeFile(join(world.workspace, 'racedir', 'secret.txt'), 'inside');
      await world.writeFile(join(world.workspace, 'racefile.txt'), 'inside');
    });

    afterEach(async () => {
      await world.dispose();
    });

    it('never lets outside content out or the agent change anything outside', async () => {
      const before = await outsideTree(world);
      const sandbox = new AgentSandbox({ orgPath: world.org, agentDir: world.agentDir, fs: world.fs });
      const swapper = spawn(process.execPath, [
        '-e',
        SWAPPER,
        world.workspace,
        world.outside,
        String(RACE_MS),
      ]);
      let swaps = '';
      swapper.stdout.on('data', (chunk: Buffer) => (swaps += chunk.toString()));
      let problems = '';
      swapper.stderr.on('data', (chunk: Buffer) => (problems += chunk.toString()));
      const finished = new Promise<number | null>((resolve) => swapper.on('exit', resolve));
      let running = true;
      void finished.then(() => (running = false));

      const outcomes = { succeeded: 0, refused: 0 };
      while (running) {
        const results: SandboxResult[] = await Promise.all(
          operations.flatMap((operation) => attempts(sandbox, operation)),
        );
        for (const result of results) {
          expect(JSON.stringify(result)).not.toContain(CANARY);
          if (result.ok) outcomes.succeeded += 1;
          else outcomes.refused += 1;
        }
      }

      expect(await finished, problems).toBe(0);
      expect(Number(swaps)).toBeGreaterThan(0);
      // Both sides of the race happened: operations ran while the real folder was there and while a link was.
      expect(outcomes.succeeded).toBeGreaterThan(0);
      expect(outcomes.refused).toBeGreaterThan(0);
      const after = await outsideTree(world);
      const allowed = Object.entries(after).filter(
        ([path, entry]) =>
          !(strayTempFiles && /\/\.lemming-[0-9a-f]{12}\.tmp$/.test(path) && entry === 'file:'),
      );
      expect(Object.fromEntries(allowed)).toEqual(before);
    });
  },
);

function attempts(sandbox: AgentSandbox, operation: string): Promise<SandboxResult>[] {
  switch (operation) {
    case 'read':
      return [sandbox.read('racedir/secret.txt'), sandbox.read('racefile.txt')];
    case 'write':
      return [sandbox.write('racedir/new.txt', 'agent text'), sandbox.write('racefile.txt', 'agent text')];
    case 'list':
      return [sandbox.list('racedir')];
    case 'stat':
      return [sandbox.stat('racedir/secret.txt')];
    case 'delete':
      return [sandbox.delete('racedir/secret.txt')];
    case 'mkdir':
      return [sandbox.mkdir('racedir/made')];
    default:
      throw new Error(`unknown operation ${operation}`);
  }
}

async function outsideTree(world: SandboxWorld): Promise<Record<string, string>> {
  const tree = await world.tree();
  return Object.fromEntries(Object.entries(tree).filter(([path]) => !isWithin(world.org, path)));
}
