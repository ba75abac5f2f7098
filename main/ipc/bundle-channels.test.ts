import { cpSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXAMPLE_ORG, ipcHarnesses, valueOf } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
afterEach(() => harnesses.cleanup());

describe('bundle channels', () => {
  it('export the open org to the file picked, and import a department beside its agents, untrusted', async () => {
    const harness = await harnesses.create();
    const source = harness.copy(EXAMPLE_ORG);
    writeFileSync(
      join(source, 'departments/manager.json'),
      JSON.stringify({ name: 'manager', description: 'd' }),
    );
    valueOf(await harness.dispatch('org.open', { path: source }));
    const preview = valueOf<{ departments: string[] }>(await harness.dispatch('bundle.preview', {}));
    expect(preview.departments).toEqual(['content_team', 'manager', 'research']);
    const bundle = join(harness.tempDir(), 'managers.lemming.zip');
    harness.setExportFile(bundle);
    const exported = valueOf<{ path: string; files: number }>(
      await harness.dispatch('bundle.export', { department: 'manager' }),
    );
    expect(exported).toMatchObject({ path: bundle, files: 3 });

    const target = join(harness.tempDir(), 'target');
    cpSync(EXAMPLE_ORG, target, { recursive: true });
    rmSync(join(target, 'agents/manager'), { recursive: true });
    rmSync(join(target, 'agents/manager_cli'), { recursive: true });
    valueOf(await harness.dispatch('org.open', { path: target }));
    await harness.trustOpenOrg();
    harness.setImportFile(bundle);
    const imported = valueOf<{ written: string[] }>(await harness.dispatch('bundle.import', { into: true }));

    expect(imported.written).toEqual([
      'agents/manager/resume.json',
      'agents/manager_cli/resume.json',
      'departments/manager.json',
    ]);
    expect(valueOf<{ state: string }>(await harness.dispatch('trust.state', {})).state).toBe('untrusted');
    expect(
      valueOf<{ origin: { manifest: { scope: unknown } } }>(await harness.dispatch('bundle.origin', {}))
        .origin.manifest.scope,
    ).toEqual({ kind: 'department', name: 'manager' });

    const mine = readFileSync(join(target, 'agents/manager/resume.json'));
    const again = await harness.dispatch('bundle.import', { into: true });
    expect(again).toMatchObject({
      ok: false,
      error: {
        code: 'already_exists',
        issues: [
          { path: 'agents/manager', message: 'already in the org' },
          { path: 'agents/manager_cli', message: 'already in the org' },
          { path: 'departments/manager.json', message: 'already in the org' },
        ],
      },
    });
    expect(readFileSync(join(target, 'agents/manager/resume.json')).equals(mine)).toBe(true);
  });
});
