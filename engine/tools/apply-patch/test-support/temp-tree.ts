import { mkdtemp, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** A temp folder filled with `files` (relative path → bytes as a latin1/UTF-8 string or Buffer). */
export async function makeTree(files: Record<string, string | Buffer>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'apply-patch-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

export const removeTree = (root: string) => rm(root, { recursive: true, force: true });

/** Every folder and file under `root` (hidden ones included) with the exact bytes of each file. */
export async function snapshotTree(root: string): Promise<Record<string, string>> {
  const snapshot: Record<string, string> = {};
  const walk = async (folder: string, prefix: string) => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const relative = prefix + entry.name;
      if (entry.isDirectory()) {
        snapshot[`${relative}/`] = 'folder';
        await walk(join(folder, entry.name), `${relative}/`);
      } else snapshot[relative] = (await readFile(join(folder, entry.name))).toString('hex');
    }
  };
  await walk(root, '');
  return snapshot;
}

export const hex = (text: string) => Buffer.from(text, 'utf8').toString('hex');

export const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
