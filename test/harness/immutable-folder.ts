import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Makes a path immutable (`+i`: not even root writes through it) or writable again (`-i`). */
export function chattr(flag: '+i' | '-i', path: string): void {
  execFileSync('chattr', [flag, path], { stdio: 'ignore' });
}

/** Whether `chattr +i` makes a folder unwritable here (Linux, root, a file system that keeps the flag). */
export function canMakeImmutable(): boolean {
  const folder = mkdtempSync(join(tmpdir(), 'lemming-chattr-'));
  try {
    chattr('+i', folder);
    try {
      writeFileSync(join(folder, 'probe'), '');
      return false;
    } catch {
      return true;
    } finally {
      chattr('-i', folder);
    }
  } catch {
    return false;
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
