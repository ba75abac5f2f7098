// The installers workflow's smoke test of the menu, a notification and the tray on each OS: starts the
// packaged app (its executable in LEMMING_PACKAGED_APP) with --smoke-test, which exercises them through
// Electron and writes a report (main/desktop/smoke-test.ts), then prints the report and fails unless it passed.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const app = process.env.LEMMING_PACKAGED_APP;
if (!app) throw new Error('LEMMING_PACKAGED_APP names no packaged app');
const home = mkdtempSync(join(tmpdir(), 'lemming-smoke-'));
const report = join(home, 'smoke-report.json');
// The unpacked Linux app has no setuid sandbox helper, and CI runners forbid user namespaces.
const args = [`--smoke-test=${report}`, ...(process.platform === 'linux' ? ['--no-sandbox'] : [])];
const env = { ...process.env, HOME: home, USERPROFILE: home, XDG_CONFIG_HOME: join(home, '.config') };
const ran = spawnSync(app, args, { env, stdio: 'inherit', timeout: 120_000 });
if (ran.error) throw ran.error;
if (!existsSync(report)) {
  console.error(`The app wrote no smoke report (exit ${ran.status}, signal ${ran.signal}).`);
  process.exit(1);
}
const found = JSON.parse(readFileSync(report, 'utf8'));
console.log(JSON.stringify(found, null, 2));
process.exit(found.passed ? 0 : 1);
