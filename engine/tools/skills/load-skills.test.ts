import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadSkills, MAX_SKILL_FILE_BYTES } from './load-skills';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function org(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'lemming-skills-'));
  made.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const skill = (name: string, extra = '') =>
  `---\nname: ${name}\ndescription: The ${name} skill.\n${extra}---\nSteps for ${name}.\n`;

describe("loading an agent's skills", () => {
  it('reads skills/*/SKILL.md in folder order and nothing deeper or elsewhere', async () => {
    const root = org({
      'agents/writer/skills/b-outline/SKILL.md': skill('b-outline'),
      'agents/writer/skills/a-edit/SKILL.md': skill(
        'a-edit',
        'command-dispatch: tool\ncommand-tool: file_write\n',
      ),
      'agents/writer/skills/a-edit/examples/deeper/SKILL.md': skill('deeper'),
      'agents/writer/skills/README.md': 'not a skill',
      'agents/writer/workspace/skills/planted/SKILL.md': skill('planted'),
      'agents/other/skills/theirs/SKILL.md': skill('theirs'),
    });
    const loaded = await loadSkills(root, 'writer');
    expect(loaded.problems).toEqual([]);
    expect(loaded.skills.map((found) => [found.name, found.file])).toEqual([
      ['a-edit', 'agents/writer/skills/a-edit/SKILL.md'],
      ['b-outline', 'agents/writer/skills/b-outline/SKILL.md'],
    ]);
    expect(loaded.skills[0]!.dispatch).toEqual({ tool: 'file_write', argMode: 'object' });
  });

  it('an agent without a skills folder has no skills and no problems', async () => {
    expect(await loadSkills(org({ 'agents/writer/resume.json': '{}' }), 'writer')).toEqual({
      skills: [],
      problems: [],
    });
  });

  it('leaves out broken skills with their problems and keeps the rest', async () => {
    const root = org({
      'agents/writer/skills/good/SKILL.md': skill('good'),
      'agents/writer/skills/broken/SKILL.md': '---\nname: broken\n---\n',
      'agents/writer/skills/empty-folder/notes.txt': 'no SKILL.md here',
      'agents/writer/skills/huge/SKILL.md': `${skill('huge')}${'x'.repeat(MAX_SKILL_FILE_BYTES)}`,
    });
    const loaded = await loadSkills(root, 'writer');
    expect(loaded.skills.map((found) => found.name)).toEqual(['good']);
    expect(loaded.problems).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'agents/writer/skills/broken/SKILL.md',
        field: 'description',
      }),
      expect.objectContaining({
        severity: 'warning',
        file: 'agents/writer/skills/empty-folder/SKILL.md',
        message: 'skipped: the folder has no SKILL.md',
      }),
      expect.objectContaining({
        severity: 'error',
        file: 'agents/writer/skills/huge/SKILL.md',
        message: expect.stringMatching(/bytes; at most 262144 are read/),
      }),
    ]);
  });

  it('refuses a second skill with a taken name', async () => {
    const root = org({
      'agents/writer/skills/one/SKILL.md': skill('same'),
      'agents/writer/skills/two/SKILL.md': skill('same'),
    });
    const loaded = await loadSkills(root, 'writer');
    expect(loaded.skills.map((found) => found.folder)).toEqual(['one']);
    expect(loaded.problems).toContainEqual({
      severity: 'error',
      file: 'agents/writer/skills/two/SKILL.md',
      field: 'name',
      message: 'the name "same" is already used by agents/writer/skills/one; this skill is left out',
    });
  });

  it.runIf(process.platform !== 'win32')('does not follow links to folders or files outside', async () => {
    const root = org({
      'agents/writer/skills/real/SKILL.md': skill('real'),
      'outside/secret/SKILL.md': skill('secret'),
      'outside/notes.md': skill('notes'),
    });
    symlinkSync(join(root, 'outside', 'secret'), join(root, 'agents/writer/skills/linked'));
    mkdirSync(join(root, 'agents/writer/skills/file-link'));
    symlinkSync(join(root, 'outside', 'notes.md'), join(root, 'agents/writer/skills/file-link/SKILL.md'));
    const loaded = await loadSkills(root, 'writer');
    expect(loaded.skills.map((found) => found.name)).toEqual(['real']);
    expect(loaded.problems).toEqual([
      expect.objectContaining({
        severity: 'error',
        file: 'agents/writer/skills/file-link/SKILL.md',
        message: 'SKILL.md is a link; it must be a real file',
      }),
      expect.objectContaining({
        severity: 'warning',
        file: 'agents/writer/skills/linked/SKILL.md',
        message: expect.stringMatching(/is a link; a skill must be a real folder/),
      }),
    ]);
  });
});
