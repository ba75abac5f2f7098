import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OrgEngine } from '../../run/org-engine';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { trustAsIs } from '../../trust/test-support/trust-as-is';
import { lemming, trustOrg } from './test-support/mcp-cli';
import { referenceServers } from './test-support/reference-servers';
import { until } from '../../../test/test-support/until';

const orgs = tempOrgs();
const engines: OrgEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) {
    await engine.stopMcpServers();
    engine.close();
  }
  orgs.cleanup();
});

const ONLY_HER_WORKSPACE = { allow_read: ['agents/ada/workspace'], allow_write: ['agents/ada/workspace'] };

/**
 * An org whose agent ada may use file_read and the reference filesystem server, started with `folder`;
 * she may read only her own workspace unless `fileAccess` says otherwise (null: the default grants).
 */
function orgWithFileServer(folder: (org: string) => string, fileAccess: object | null = ONLY_HER_WORKSPACE) {
  const org = orgs.build({
    'agents/ada/resume.json': resume('ada', {
      permissions: {
        read_outboxes: [],
        tools: ['file_read', 'group:mcp:files'],
        ...(fileAccess ? { file_access: fileAccess } : {}),
      },
    }),
    'agents/ada/workspace/mine.txt': 'ada’s own',
    'agents/bob/resume.json': resume('bob'),
    'agents/bob/workspace/secret.txt': 'bob’s private notes',
    'shared/note.txt': 'for everyone',
  });
  const mcpFile = join(org, 'lemming/config/mcp.json');
  mkdirSync(dirname(mcpFile), { recursive: true });
  writeFileSync(mcpFile, JSON.stringify({ mcpServers: { files: referenceServers.filesystem(folder(org)) } }));
  return org;
}

describe('MCP servers that work on files', () => {
  it(
    'offer the org’s shared folder as their roots, so a server given the org cannot read another agent’s workspace',
    { timeout: 60_000 },
    async () => {
      const org = orgWithFileServer((org) => org);
      const engine = await OrgEngine.open({ trust: await trustAsIs(org), orgPath: org });
      engines.push(engine);
      const bobs = join(org, 'agents/bob/workspace/secret.txt');
      expect(await engine.callTool('ada', 'file_read', { path: bobs })).toMatchObject({ success: false });
      // The server applies the roots it is offered as it starts (its own doing, after it answers).
      const shared = realpathSync(join(org, 'shared'));
      await until(
        async () => {
          const allowed = await engine.callTool('ada', 'mcp__files__list_allowed_directories', {});
          return String(allowed.output).trim().endsWith(`\n${shared}`);
        },
        'the server to take the roots it was offered',
        { everyMs: 50 },
      );
      const throughServer = await engine.callTool('ada', 'mcp__files__read_text_file', { path: bobs });
      expect(throughServer).toMatchObject({ success: false });
      expect(JSON.stringify(throughServer)).not.toContain('bob’s private notes');
      expect(
        await engine.callTool('ada', 'mcp__files__read_text_file', { path: join(org, 'shared/note.txt') }),
      ).toMatchObject({ success: true, output: 'for everyone' });
    },
  );

  it(
    'say on the card, in plain words, which folders a server reaches past the agents’ own',
    { timeout: 60_000 },
    async () => {
      const org = await trustOrg(orgWithFileServer((org) => org));
      const listed = await lemming(['connectors', org]);
      expect(listed.stdout).toContain(
        `Agents using this server can read everything under ${realpathSync(org)}, more than they are given (ada): it was started with that folder; LeMMing asks it to keep to ${realpathSync(join(org, 'shared'))}, but cannot make it.`,
      );

      // Given only shared/, which ada may read by default: nothing past her grants.
      const sharedOnly = await trustOrg(orgWithFileServer((org) => join(org, 'shared'), null));
      const card = await lemming(['connectors', sharedOnly]);
      expect(card.stdout).toContain('tool mcp__files__read_text_file');
      expect(card.stdout).not.toContain('Agents using this server can read everything under');
    },
  );

  it(
    'never offer a server more than it was given: one started with a folder inside shared/ keeps to it',
    { timeout: 60_000 },
    async () => {
      const org = orgWithFileServer((org) => join(org, 'shared', 'notes'), null);
      mkdirSync(join(org, 'shared', 'notes'));
      writeFileSync(join(org, 'shared', 'notes', 'plan.md'), 'the plan');
      await trustOrg(org);
      const inside = await lemming([
        'call',
        org,
        'ada',
        'mcp__files__read_text_file',
        JSON.stringify({ path: join(org, 'shared/notes/plan.md') }),
      ]);
      expect(inside.stdout).toContain('the plan');
      const beside = await lemming([
        'call',
        org,
        'ada',
        'mcp__files__read_text_file',
        JSON.stringify({ path: join(org, 'shared/note.txt') }),
      ]);
      expect(beside.stdout).not.toContain('for everyone');
    },
  );
});
