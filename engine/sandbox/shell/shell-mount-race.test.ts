import { spawn, spawnSync } from 'node:child_process';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileAccess } from '../access-policy';
import type { Confinement } from './confinement';
import { detectConfinement } from './detect-confinement';
import { runShellCommand } from './run-shell-command';
import { shellPlaces } from './shell-places';
import { createShellOrg, type ShellOrg } from './test-support/shell-org';

const detected = await detectConfinement();
const hasPython = spawnSync('python3', ['-c', 'import ctypes; ctypes.CDLL(None).renameat2']).status === 0;
const skipReason =
  detected.kind !== 'bubblewrap'
    ? `bubblewrap cannot run here (${detected.kind === 'none' ? detected.reason : detected.kind})`
    : !detected.bindsOpenPlaces
      ? 'bwrap here mounts granted folders by path (older than 0.8, or out/native built before it could pass them)'
      : !hasPython
        ? 'python3 with a libc that has renameat2 is not installed'
        : null;

const WRITES = 200;
const PARALLEL_WRITERS = 2;
const ATTACK_SECONDS = 90;

/**
 * Swaps two names in one atomic step (renameat2 with RENAME_EXCHANGE) over and over, until killed or
 * until the time given is up; prints how many swaps it made.
 */
const SWAPPER = `
import ctypes, os, signal, sys, time
libc = ctypes.CDLL(None, use_errno=True)
first, second, seconds = sys.argv[1].encode(), sys.argv[2].encode(), float(sys.argv[3])
AT_FDCWD, RENAME_EXCHANGE = -100, 2
swaps = 0
def report(*_):
    print(swaps, flush=True)
    sys.exit(0)
signal.signal(signal.SIGTERM, report)
deadline = time.monotonic() + seconds
while time.monotonic() < deadline:
    if libc.renameat2(AT_FDCWD, first, AT_FDCWD, second, RENAME_EXCHANGE) != 0:
        sys.exit('renameat2: ' + os.strerror(ctypes.get_errno()))
    swaps += 1
report()
`;

/**
 * The attack of issue 25: one agent, which may write in shared/, swaps shared/data with a link to a
 * folder outside the org, again and again, while another agent granted shared/data writes there through
 * its shell. Bound by name, bubblewrap mounted whatever shared/data was at that moment, and some writes
 * landed outside the org.
 */
describe.skipIf(skipReason !== null)(
  `the shell's folders under a swapping attacker${skipReason === null ? '' : ` (skipped: ${skipReason})`}`,
  () => {
    const confined = detected as Confinement;
    const grantedData: FileAccess = {
      allow_read: ['agents/a/workspace', 'shared/data'],
      allow_write: ['agents/a/workspace', 'shared/data'],
    };
    let org: ShellOrg;
    let outside: string;
    beforeAll(async () => {
      org = await createShellOrg();
      outside = join(org.root, 'outside-folder');
      await mkdir(outside);
      await mkdir(join(org.shared, 'data'));
      await symlink(outside, join(org.shared, 'decoy'));
    });
    afterAll(() => org.dispose());

    it(`lets none of ${WRITES} shell writes land outside the org while shared/data is swapped with a link`, async () => {
      const attacker = spawn(
        'python3',
        ['-c', SWAPPER, join(org.shared, 'data'), join(org.shared, 'decoy'), String(ATTACK_SECONDS)],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let said = '';
      attacker.stdout.on('data', (chunk: Buffer) => (said += chunk.toString()));
      attacker.stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
      const attackerDone = new Promise<number | null>((resolve) => attacker.on('exit', resolve));

      const outcomes = { ran: 0, refused: 0 };
      let next = 0;
      const writer = async () => {
        while (next < WRITES) {
          const index = next++;
          const places = await shellPlaces(org.sandbox(grantedData));
          if (!places.ok) {
            outcomes.refused++;
            continue;
          }
          const run = await runShellCommand({
            command: `echo ${index} > ${join(org.shared, 'data', `write-${index}.txt`)}`,
            confinement: confined,
            places: places.value,
            timeoutMs: 20_000,
            maxOutputBytes: 4096,
            stopAfterBytes: 65_536,
          });
          if (run.ok) outcomes.ran++;
          else outcomes.refused++;
        }
      };
      try {
        await Promise.all(Array.from({ length: PARALLEL_WRITERS }, writer));
      } finally {
        attacker.kill('SIGTERM');
      }
      expect(await attackerDone, said).toBe(0);
      const swaps = Number(said.trim());

      const landedOutside = await readdir(outside);
      const realData = (await readdir(org.shared, { withFileTypes: true })).find((entry) =>
        entry.isDirectory(),
      );
      const landedInside = realData ? await readdir(join(org.shared, realData.name)) : [];
      expect(swaps, 'the attacker swapped the folder and the link').toBeGreaterThan(WRITES);
      expect(outcomes.ran + outcomes.refused).toBe(WRITES);
      expect(landedOutside, `${JSON.stringify(outcomes)}, ${landedInside.length} inside`).toEqual([]);
      expect(landedInside.length, 'some writes went through').toBeGreaterThan(0);
    }, 120_000);
  },
);
