import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { DEFAULT_DESKTOP_SETTINGS, DESKTOP_SETTINGS_FILE, desktopSettingsIn } from './desktop-settings';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

it('keeps the choices of a settings file written before a kind of notification existed, the new kind on', async () => {
  const userData = mkdtempSync(join(tmpdir(), 'lemming-desktop-settings-'));
  made.push(userData);
  writeFileSync(
    join(userData, DESKTOP_SETTINGS_FILE),
    JSON.stringify({
      notify: { approval: true, failing: false, run_ended: true, credits: true },
      keepRunningInBackground: true,
      developerTools: false,
    }),
  );
  const settings = await desktopSettingsIn(userData).read();
  expect(settings).toEqual({
    ...DEFAULT_DESKTOP_SETTINGS,
    notify: { ...DEFAULT_DESKTOP_SETTINGS.notify, failing: false },
    keepRunningInBackground: true,
  });
});
