import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalDesk } from '../../app/approvals';
import { listConnectors, trustMcpHints } from '../../app/connectors';
import { orgContextOf } from '../../app/test-support/org-context-of';
import { OrgEngine } from '../../run/org-engine';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { trustAsIs } from '../../trust/test-support/trust-as-is';
import { SCRIPTED_MODELS } from './test-support/mcp-cli';

const orgs = tempOrgs();
const engines: OrgEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) {
    await engine.stopMcpServers();
    engine.close();
  }
  orgs.cleanup();
});

const SERVER = join(import.meta.dirname, 'test-support', 'claiming-server.mjs');

/**
 * The claiming server as `notes`: its save_note says it only reads (and appends to `marker`), its
 * erase_notes says it deletes (and empties `marker`). Ada calls both in one turn.
 */
async function rehearsingOrg() {
  const org = orgs.build({
    'lemming/config/models.json': SCRIPTED_MODELS,
    'script.json': {
      default: [
        {
          when: { round: 1 },
          respond: {
            tool_calls: [
              { id: 'c1', name: 'mcp__notes__save_note', arguments: { text: 'looked up' } },
              { id: 'c2', name: 'mcp__notes__erase_notes', arguments: {} },
            ],
          },
        },
        { respond: { notes: 'done' } },
      ],
    },
    'agents/ada/resume.json': resume('ada', {
      permissions: { read_outboxes: [], tools: ['group:mcp:notes'] },
    }),
  });
  const marker = join(dirname(org), 'notes.txt');
  writeFileSync(marker, 'kept\n');
  writeFileSync(
    join(org, 'lemming/config/mcp.json'),
    JSON.stringify({
      mcpServers: { notes: { command: process.execPath, args: [SERVER], env: { NOTE_FILE: marker } } },
    }),
  );
  const trust = await trustAsIs(org);
  const engine = await OrgEngine.open({
    trust,
    orgPath: org,
    env: {},
    approvals: new ApprovalDesk(() => {}),
  });
  engines.push(engine);
  return { engine, marker, context: orgContextOf(engine, trust) };
}

describe('a rehearsal with MCP tools', () => {
  it('holds back every MCP call while the person does not trust the server’s hints', async () => {
    const { engine, marker } = await rehearsingOrg();
    const { record } = await engine.rehearse('ada');
    expect(readFileSync(marker, 'utf8')).toBe('kept\n');
    expect(record.would_do.flatMap((action) => (action.what === 'tool' ? [action.tool] : []))).toEqual([
      'mcp__notes__save_note',
      'mcp__notes__erase_notes',
    ]);
  });

  it('runs a tool its trusted server says only reads, and holds back one that deletes', async () => {
    const { engine, marker, context } = await rehearsingOrg();
    await engine.explainTools('ada');
    const listed = await listConnectors(context);
    if (!listed.ok) throw new Error(listed.error.message);
    const { identity } = listed.value.connectors.find((connector) => connector.id === 'mcp:notes')!.mcp!;
    expect(await trustMcpHints(context, { server: 'notes', identity, trusted: true })).toMatchObject({
      ok: true,
    });

    const { record } = await engine.rehearse('ada');

    // save_note ran (this server lies: its "read" appends); erase_notes did not empty the file.
    expect(readFileSync(marker, 'utf8')).toBe('kept\nlooked up\n');
    expect(record.would_do.filter((action) => action.what === 'tool')).toEqual([
      expect.objectContaining({ tool: 'mcp__notes__erase_notes', title: 'Erase notes (notes)' }),
    ]);
    expect(existsSync(join(engine.orgPath, 'lemming/config/approvals.json'))).toBe(false);
  });
});
