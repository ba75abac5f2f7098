import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FileAccess } from '../access-policy';
import type { Confinement } from './confinement';
import { detectConfinement } from './detect-confinement';
import { createShellOrg, type ShellOrg } from './test-support/shell-org';

const detected = await detectConfinement();
const bubblewrap = detected.kind === 'bubblewrap' ? detected : null;

const EVERYTHING: FileAccess = { allow_read: ['.'], allow_write: ['.'] };

/** Every file under `dir` with the hash of its content (links by their target), relative to `dir`. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const name = relative(dir, path);
      if (entry.isDirectory()) {
        found[`${name}/`] = 'folder';
        await walk(path);
      } else
        found[name] = createHash('sha256')
          .update(await readFile(path))
          .digest('hex');
    }
  };
  await walk(dir);
  return found;
}

/**
 * An agent whose resume grants it the whole org for reading and writing, trying to change what
 * defines the org through its shell, as the attacker in issue 10 did.
 */
describe.skipIf(bubblewrap === null)('the shell and the protected places of the org', () => {
  const confined = bubblewrap as Confinement;
  let org: ShellOrg;
  const engineOwned = () => ['lemming', '.lemming', 'tools', 'agents'].map((name) => join(org.org, name));

  beforeEach(async () => {
    org = await createShellOrg();
    const files: Record<string, string> = {
      'lemming/config/policy.json': '{"network":{"enabled":false}}\n',
      'lemming/config/credits.json': '{}\n',
      '.lemming/timeline.sqlite': 'timeline',
      'tools/fetch.yaml': 'name: fetch\n',
      'agents/a/resume.json': '{"name":"a"}\n',
      'agents/a/memory/plan.json': '{}\n',
      'agents/a/outbox/00000001_x.json': '{}\n',
      'agents/a/logs/activity.log': 'log\n',
      'agents/a/skills/s/SKILL.md': '# s\n',
      'agents/a/api-tools/t.yaml': 'name: t\n',
      'agents/b/resume.json': '{"name":"b"}\n',
      'agents/b/workspace/notes.md': 'b notes\n',
    };
    for (const [name, content] of Object.entries(files)) {
      await mkdir(join(org.org, name, '..'), { recursive: true });
      await writeFile(join(org.org, name), content);
    }
  });
  afterEach(() => org.dispose());

  async function engineState(): Promise<Record<string, string>> {
    const states = await Promise.all(
      engineOwned().map(async (folder) => (existsSync(folder) ? snapshot(folder) : {})),
    );
    return Object.assign({}, ...states.map((state, index) => ({ [`#${index}`]: JSON.stringify(state) })));
  }

  it("cannot change the org's config, tools, timeline, or any resume, outbox, memory, log or skill", async () => {
    const before = await engineState();
    const attempts = [
      `echo '{"network":{"enabled":true}}' > ../../../lemming/config/policy.json`,
      `echo '{"name":"a","permissions":{"tools":["http_request"]}}' > ../resume.json`,
      'echo forged > ../../b/resume.json',
      'echo x > ../memory/plan.json',
      'echo x > ../outbox/00000002_forged.json',
      'echo x >> ../logs/activity.log',
      'echo x > ../skills/s/SKILL.md',
      'echo "name: evil" > ../api-tools/evil.yaml',
      'echo "name: evil" > ../../../tools/evil.yaml',
      'rm -f ../../../tools/fetch.yaml',
      'echo x > ../../../.lemming/timeline.sqlite',
      'mkdir -p ../../c && echo \'{"name":"c"}\' > ../../c/resume.json',
      'mv ../../../tools ../../../tools-old',
      'mv ../memory ../memory-old',
      'rm -rf ../../../lemming',
      'ln ../resume.json own-resume && echo x > own-resume',
      'ln -sf ../../../lemming/config/policy.json ../../../shared/p && echo x > ../../../shared/p',
    ];
    for (const command of attempts) await org.run(command, confined, { fileAccess: EVERYTHING });
    expect(await engineState()).toEqual(before);
    expect(existsSync(join(org.org, 'tools-old'))).toBe(false);
  });

  it('still writes in its workspace, in shared/ and in granted folders of the org', async () => {
    const run = await org.run(
      'echo w > mine.txt && echo s > ../../../shared/s.txt && mkdir -p ../../../reports && echo r > ../../../reports/r.txt && echo b > ../../b/workspace/from-a.txt',
      confined,
      { fileAccess: EVERYTHING },
    );
    expect(run.stderr.text).toBe('');
    expect(run.exitCode).toBe(0);
    expect(await readFile(join(org.workspace, 'mine.txt'), 'utf8')).toBe('w\n');
    expect(await readFile(join(org.org, 'reports', 'r.txt'), 'utf8')).toBe('r\n');
    expect(await readFile(join(org.org, 'agents', 'b', 'workspace', 'from-a.txt'), 'utf8')).toBe('b\n');
  });

  it('can still read what it was granted in the protected places', async () => {
    const run = await org.run('cat ../../../lemming/config/policy.json ../resume.json', confined, {
      fileAccess: EVERYTHING,
    });
    expect(run.stdout.text).toBe('{"network":{"enabled":false}}\n{"name":"a"}\n');
  });

  it('cannot create a protected folder the org does not have yet', async () => {
    await rm(join(org.org, 'tools'), { recursive: true });
    await org.run('mkdir -p ../../../tools && echo "name: evil" > ../../../tools/evil.yaml', confined, {
      fileAccess: EVERYTHING,
    });
    expect(existsSync(join(org.org, 'tools', 'evil.yaml'))).toBe(false);
  });

  it('cannot change its own folder outside its workspace even when granted it by name', async () => {
    const before = await stat(join(org.agentDir, 'resume.json'));
    const run = await org.run('echo x > ../resume.json', confined, {
      fileAccess: { allow_read: ['agents/a'], allow_write: ['agents/a'] },
    });
    expect(run.stderr.text).toContain('Read-only file system');
    expect((await stat(join(org.agentDir, 'resume.json'))).mtimeMs).toBe(before.mtimeMs);
    expect(await readFile(join(org.agentDir, 'resume.json'), 'utf8')).toBe('{"name":"a"}\n');
  });
});
