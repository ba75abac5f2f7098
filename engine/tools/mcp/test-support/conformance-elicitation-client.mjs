// The conformance suite's client for its elicitation scenario: it appends the scenario server's URL.
// An org whose MCP server is that URL (network on, that loopback host allowed), trusted as it is, and
// the scenario's tool called with `lemming call --accept-forms`, as a person would at the command line.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const url = process.argv.at(-1);
const home = mkdtempSync(join(tmpdir(), 'lemming-conformance-'));
const org = join(home, 'org');
const write = (path, value) => {
  mkdirSync(join(org, path, '..'), { recursive: true });
  writeFileSync(join(org, path), JSON.stringify(value));
};
write('agents/ada/resume.json', {
  name: 'ada',
  title: 'Ada',
  short_description: 'calls the scenario tool',
  instructions: 'none',
  model: { key: 'none' },
  permissions: { read_outboxes: [], tools: ['group:mcp:scenario'] },
  schedule: { run_every_n_ticks: 1, phase_offset: 0 },
});
write('lemming/config/mcp.json', { mcpServers: { scenario: { url } } });
write('lemming/config/policy.json', { network: { enabled: true, private_hosts: [new URL(url).host] } });
const env = { PATH: process.env.PATH ?? '', LEMMING_CONFIG_DIR: join(home, 'config') };
const lemming = (...args) =>
  execFileSync(process.execPath, [join(import.meta.dirname, '../../../../bin/lemming.mjs'), ...args], {
    env,
    stdio: ['ignore', 'pipe', 'inherit'],
  }).toString();
lemming('trust', org, '--yes');
process.stdout.write(
  lemming('call', org, 'ada', 'mcp__scenario__test_client_elicitation_defaults', '{}', '--accept-forms'),
);
