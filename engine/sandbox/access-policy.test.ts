import { describe, expect, it } from 'vitest';
import {
  accessKindOf,
  createAccessPolicy,
  type AccessHook,
  type AccessRequest,
  type FileAccess,
} from './access-policy';
import { MemoryAgentFilesystem } from './memory-agent-filesystem';
import { protectedFromAgents } from './protected-places';
import { agentLayout } from './sandbox-layout';

const layout = agentLayout('/org', '/org/agents/a');
const WS = '/org/agents/a/workspace';

function orgFs(): MemoryAgentFilesystem {
  return new MemoryAgentFilesystem({
    [`${WS}/notes.md`]: 'n',
    '/org/shared/readme.md': 'r',
    '/org/shared/reports/q1.md': 'q',
    '/org/agents/b/workspace/draft.md': 'd',
    '/org/lemming/config/models.json': '{}',
    '/disk2/shared-data/x.md': 'x',
    '/elsewhere/secret.txt': 's',
  });
}

function policy(fileAccess?: FileAccess, fs = orgFs(), hook?: AccessHook) {
  return createAccessPolicy({ layout, fileAccess, fs, hook });
}

async function allowed(
  p: ReturnType<typeof policy>,
  action: 'read' | 'write',
  path: string,
): Promise<boolean> {
  return (await p.checkAccess(action, path)).allowed;
}

describe('file_access from the resume', () => {
  it('without file_access, reads and writes the workspace and shared/, and nothing else', async () => {
    const p = policy(undefined);
    for (const action of ['read', 'write'] as const) {
      expect(await allowed(p, action, `${WS}/notes.md`)).toBe(true);
      expect(await allowed(p, action, WS)).toBe(true);
      expect(await allowed(p, action, '/org/shared/readme.md')).toBe(true);
      expect(await allowed(p, action, '/org/agents/b/workspace/draft.md')).toBe(false);
      expect(await allowed(p, action, '/org/agents/a/resume.json')).toBe(false);
      expect(await allowed(p, action, '/org')).toBe(false);
    }
  });

  it('an empty list allows nothing of its kind, and says so', async () => {
    const p = policy({ allow_read: [] });
    expect(await p.checkAccess('read', `${WS}/notes.md`)).toEqual({
      allowed: false,
      code: 'outside',
      reason: 'is outside the folders you may read (your resume allows no folders for reading)',
    });
    expect(await allowed(p, 'write', `${WS}/notes.md`)).toBe(true);
  });

  it('a list narrows: only what it names, the workspace included only when named', async () => {
    const p = policy({ allow_read: ['shared/reports'], allow_write: ['shared/reports'] });
    expect(await allowed(p, 'read', '/org/shared/reports/q1.md')).toBe(true);
    expect(await allowed(p, 'write', '/org/shared/reports/new/q2.md')).toBe(true);
    expect(await allowed(p, 'read', '/org/shared/readme.md')).toBe(false);
    expect(await allowed(p, 'write', `${WS}/notes.md`)).toBe(false);
  });

  it('a list extends: another agent’s folder, by a path relative to the org or absolute', async () => {
    const p = policy({ allow_read: ['agents/a/workspace', 'shared', '/org/agents/b/workspace'] });
    expect(await allowed(p, 'read', '/org/agents/b/workspace/draft.md')).toBe(true);
    expect(await allowed(p, 'read', `${WS}/notes.md`)).toBe(true);
    expect(await allowed(p, 'write', '/org/agents/b/workspace/draft.md')).toBe(false);
  });

  it('grants reading and writing separately: writing somewhere does not allow reading it', async () => {
    const p = policy({ allow_read: [], allow_write: ['shared/outbox'] });
    expect(await allowed(p, 'write', '/org/shared/outbox/report.md')).toBe(true);
    expect(await allowed(p, 'read', '/org/shared/outbox/report.md')).toBe(false);
  });

  it('may grant a single file', async () => {
    const p = policy({ allow_read: ['shared/readme.md'] });
    expect(await allowed(p, 'read', '/org/shared/readme.md')).toBe(true);
    expect(await allowed(p, 'read', '/org/shared/reports/q1.md')).toBe(false);
  });

  it('names what the agent may use when it refuses', async () => {
    const p = policy({ allow_write: ['shared/reports', 'agents/a/workspace'] });
    expect(await p.checkAccess('write', '/org/shared/readme.md')).toEqual({
      allowed: false,
      code: 'outside',
      reason: 'is outside the folders you may write to (shared/reports, agents/a/workspace)',
    });
  });
});

describe('grants that lead outside the org', () => {
  it('refuses entries outside the org, relative or absolute, with the reason', async () => {
    const p = policy({ allow_read: ['/elsewhere', '../elsewhere', 'shared/../../elsewhere', ''] });
    expect(await allowed(p, 'read', '/elsewhere/secret.txt')).toBe(false);
    const grants = await p.resolveGrants('read');
    expect(grants.map((grant) => (grant.ok ? 'ok' : grant.error.reason))).toEqual([
      "'/elsewhere' leads outside the organization folder (to /elsewhere); an agent can only be given folders inside its organization",
      "'../elsewhere' leads outside the organization folder (to /elsewhere); an agent can only be given folders inside its organization",
      "'shared/../../elsewhere' leads outside the organization folder (to /elsewhere); an agent can only be given folders inside its organization",
      'The path is blank: give a folder inside the org folder, for example shared/reports',
    ]);
  });

  it('refuses an entry that has become a link, at each check (a grant is pinned to the folder it names)', async () => {
    const fs = orgFs();
    const p = policy({ allow_read: ['shared/exports'] }, fs);
    await fs.ensureDir('/org/shared/exports');
    fs.addFile('/org/shared/exports/a.md', 'a');
    expect(await allowed(p, 'read', '/org/shared/exports/a.md')).toBe(true);

    fs.rename('/org/shared/exports', '/org/shared/exports-old');
    fs.symlink('/elsewhere', '/org/shared/exports');
    expect(await allowed(p, 'read', '/elsewhere/secret.txt')).toBe(false);
    const [grant] = await p.resolveGrants('read');
    expect(grant).toMatchObject({
      ok: false,
      error: {
        reason:
          "'shared/exports' is a symbolic link (to '/elsewhere'); a grant must name a real folder, so grant the folder it leads to instead",
      },
    });
  });

  it('keeps the default folders where the user linked them, and grants entries inside them', async () => {
    const fs = new MemoryAgentFilesystem({ [`${WS}/notes.md`]: 'n', '/disk2/shared-data/x.md': 'x' });
    fs.symlink('/disk2/shared-data', '/org/shared');
    expect(await allowed(policy(undefined, fs), 'read', '/disk2/shared-data/x.md')).toBe(true);
    expect(await allowed(policy({ allow_read: ['shared'] }, fs), 'read', '/disk2/shared-data/x.md')).toBe(
      true,
    );
    expect(await allowed(policy({ allow_read: ['/disk2'] }, fs), 'read', '/disk2/shared-data/x.md')).toBe(
      false,
    );
  });
});

describe('checkAccess', () => {
  it('says when a path inside a granted folder leads out through a link', async () => {
    const decision = await policy().checkAccess('read', '/elsewhere/secret.txt', {
      lexicalPath: `${WS}/link/secret.txt`,
    });
    expect(decision).toEqual({
      allowed: false,
      code: 'symlink_escape',
      reason:
        'leads through a symbolic link to a place outside the folders you may read (your workspace, shared/)',
    });
  });

  it('counts write, delete and move as writing; read, list and search as reading', () => {
    expect(
      ['read', 'list', 'search', 'write', 'delete', 'move'].map((a) => accessKindOf(a as never)),
    ).toEqual(['read', 'read', 'read', 'write', 'write', 'write']);
  });

  it('asks the hook only about paths the folders allow, with the whole request', async () => {
    const asked: AccessRequest[] = [];
    const p = policy(undefined, orgFs(), (request) => {
      asked.push(request);
      return { allowed: true };
    });
    await p.checkAccess('write', '/org/agents/b/workspace/draft.md');
    const decision = await p.checkAccess('move', `${WS}/b.md`, {
      requestedPath: 'b.md',
      tool: 'apply_patch',
      fromPath: `${WS}/a.md`,
    });
    expect(decision).toEqual({ allowed: true, root: WS, grant: 'your workspace' });
    expect(asked).toEqual([
      {
        action: 'move',
        path: `${WS}/b.md`,
        requestedPath: 'b.md',
        tool: 'apply_patch',
        fromPath: `${WS}/a.md`,
        orgPath: '/org',
        workspacePath: WS,
      },
    ]);
  });

  it('lets the hook refuse with its reason, and treats a hook that throws as a refusal', async () => {
    const refusing = policy(undefined, orgFs(), () => ({
      allowed: false,
      reason: 'the user locked shared/',
    }));
    expect(await refusing.checkAccess('write', '/org/shared/readme.md')).toEqual({
      allowed: false,
      code: 'denied',
      reason: 'was refused by the access check: the user locked shared/',
    });
    const throwing = policy(undefined, orgFs(), async () => {
      throw new Error('hook crashed');
    });
    expect(await throwing.checkAccess('read', '/org/shared/readme.md')).toEqual({
      allowed: false,
      code: 'denied',
      reason: 'was refused by the access check: the check failed (hook crashed)',
    });
  });
});

describe('what no grant can open for writing', () => {
  const org = '/org';
  const cases: [string, boolean][] = [
    ['/org/agents/ada/workspace/notes.md', true],
    ['/org/agents/ada/workspace', true],
    ['/org/shared/plan.md', true],
    ['/org/reports/q1.md', true],
    ['/org/agents/ada/resume.json', false],
    ['/org/agents/bob/resume.json', false],
    ['/org/agents/new_agent/resume.json', false],
    ['/org/agents/bob/outbox/00000001_x.json', false],
    ['/org/agents/ada/memory/plan.json', false],
    ['/org/agents/ada/logs/activity.log', false],
    ['/org/agents/ada/skills/x/SKILL.md', false],
    ['/org/agents/ada/api-tools/t.yaml', false],
    ['/org/agents', false],
    ['/org/lemming/config/credits.json', false],
    ['/org/.lemming/timeline.sqlite', false],
    ['/org/tools/fetch.yaml', false],
    ['/org/toolset/notes.md', true],
  ];
  for (const [path, writable] of cases) {
    it(`${path} is ${writable ? 'writable' : 'protected'}`, () => {
      expect(protectedFromAgents(org, path) === null).toBe(writable);
    });
  }
});
