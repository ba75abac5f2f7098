import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { OrgTrust } from '../../api/trust-schemas';
import { TEMPLATES, tempOrgs } from '../../run/test-support/temp-org';
import { filesUnder } from '../../../test/test-support/files-under';
import { runCli } from '../test-support/run-cli';

const orgs = tempOrgs();
afterEach(() => orgs.cleanup());

const GALLERY = ['research-desk', 'content-pipeline', 'inbox-triage', 'code-review', 'personal-ops'];

/** The files of a folder, relative to it and in order: two copies of one org list the same. */
const filesOf = (folder: string) =>
  filesUnder(folder)
    .map((file) => relative(folder, file))
    .sort();

describe('lemming init --template', () => {
  it('lists the templates with what each agent does', async () => {
    const listed = await runCli(['init', '--list-templates']);
    expect(listed.code).toBe(0);
    const lines = listed.stdout.split('\n');
    expect(lines.filter((line) => /^\S/.test(line)).map((line) => line.split(' ')[0])).toEqual([
      ...GALLERY,
      'Create',
    ]);
    expect(listed.stdout).toContain('content-pipeline  Content pipeline: ');
    expect(listed.stdout).toContain('    Fact-checker: Checks every claim');
  });

  it.each(GALLERY)('creates %s: the template’s files, which pass validate --strict', async (name) => {
    const folder = join(orgs.build({}), '..', 'new-org');
    const created = await runCli(['init', folder, '--template', name]);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toContain(`created an org from the template “${name}” in ${folder}`);
    expect(filesOf(folder)).toEqual(filesOf(join(TEMPLATES, name, 'org')));
    expect(readFileSync(join(folder, 'agents', 'human', 'resume.json'), 'utf8')).toBe(
      readFileSync(join(TEMPLATES, name, 'org', 'agents', 'human', 'resume.json'), 'utf8'),
    );
    const validated = await runCli(['validate', folder, '--strict']);
    expect(validated, validated.stdout).toMatchObject({ code: 0 });
    expect(validated.stdout).toContain('no errors');
  });

  it('leaves trusting it to the person: the research desk reaches the web and says so; the others need no trust', async () => {
    for (const name of GALLERY) {
      const folder = join(orgs.build({}), '..', name);
      const created = await runCli(['init', folder, '--template', name]);
      const trust = JSON.parse((await runCli(['trust', folder, '--json'])).stdout) as OrgTrust;
      expect(trust.state, name).toBe(name === 'research-desk' ? 'untrusted' : 'not_needed');
      expect(created.stdout.includes('It runs nothing until you trust it'), name).toBe(
        name === 'research-desk',
      );
    }
    const desk = join(orgs.build({}), '..', 'desk');
    await runCli(['init', desk, '--template', 'research-desk']);
    const refused = await runCli(['run', desk, '--ticks', '1']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('scout');
  });

  it('refuses an unknown template, naming the ones there are, and a folder that holds files', async () => {
    const folder = join(orgs.build({}), '..', 'x');
    const unknown = await runCli(['init', folder, '--template', 'nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(
      'There is no template “nope”. Choose one of: research-desk, content-pipeline',
    );
    const full = orgs.build({ 'notes.txt': 'mine' });
    const refused = await runCli(['init', full, '--template', 'code-review']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('is not empty; nothing was written');
    expect(readdirSync(full)).toEqual(['notes.txt']);
    const mixed = await runCli(['init', folder, '--template', 'code-review', '--name', 'Mine']);
    expect(mixed.code).toBe(2);
  });
});
