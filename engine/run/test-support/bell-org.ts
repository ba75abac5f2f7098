import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { REPO_ROOT, resume, type tempOrgs } from './temp-org';

const CHILD = join(REPO_ROOT, 'engine', 'run', 'test-support', 'crash-child.ts');
const BELL = join(REPO_ROOT, 'engine', 'run', 'test-support', 'counting-mcp-server.mjs');

/**
 * An org whose agent ada makes `calls` in the first round of every turn (a scripted model), then
 * stops; its resume grants `tools`.
 */
export function callingOrg(
  orgs: ReturnType<typeof tempOrgs>,
  calls: { id: string; name: string; arguments: Record<string, unknown> }[],
  tools: string[],
): string {
  return orgs.build({
    'lemming/config/models.json': {
      scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
    },
    'script.json': {
      default: [
        { when: { round: 1 }, respond: { tool_calls: calls } },
        { respond: { outbox_entries: [], notes: 'done' } },
      ],
    },
    'agents/ada/resume.json': resume('ada', { permissions: { read_outboxes: [], tools } }),
  });
}

/**
 * An org whose agent ada rings a bell in the first round of every turn: `ring_bell` of the MCP server
 * `bell` (counting-mcp-server.mjs), a tool that may change things. The ring that makes the count
 * `hangAt` never answers. `rings()` says how many times the bell rang.
 */
export function bellOrg(orgs: ReturnType<typeof tempOrgs>, hangAt: number) {
  const org = callingOrg(
    orgs,
    [{ id: 'c1', name: 'mcp__bell__ring_bell', arguments: { room: 'hall' } }],
    ['group:mcp:bell'],
  );
  const counter = join(dirname(org), 'rings.txt');
  writeFileSync(
    join(org, 'lemming/config/mcp.json'),
    JSON.stringify({
      mcpServers: {
        bell: {
          command: process.execPath,
          args: [BELL],
          env: { COUNT_FILE: counter, HANG_AT: String(hangAt) },
        },
      },
    }),
  );
  const rings = () =>
    existsSync(counter) ? readFileSync(counter, 'utf8').split('\n').filter(Boolean).length : 0;
  return { org, rings };
}

/**
 * Runs `ticks` ticks of `org` in a child process (crash-child.ts); `killWhen`, checked every 20 ms,
 * kills it with SIGKILL. `finished` says whether it ran them all.
 */
export function runTicksInChild(
  org: string,
  ticks: number,
  killWhen: (() => boolean) | null,
): Promise<{ finished: boolean }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CHILD, org, String(ticks)], {
      cwd: REPO_ROOT,
      env: { ...process.env, LEMMING_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'lemming-config-')) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    const watch = killWhen && setInterval(() => killWhen() && child.kill('SIGKILL'), 20);
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      if (watch) clearInterval(watch);
      if (code !== 0 && signal !== 'SIGKILL') return reject(new Error(`child failed (${code}): ${stderr}`));
      resolve({ finished: stdout.split('\n').includes('DONE') });
    });
  });
}
