import { createHash } from 'node:crypto';
import { lstatSync, readFileSync } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Result } from '../api/result';
import { writeFileAtomic } from '../files/atomic-write';
import { editJsonText } from '../files/json-edit';
import { newAgentIdentity } from './agent-identity';
import { TOOL_FOLDERS, type AgentDefinition } from './agent-definition';
import { agentPaths, inOrg } from './org-layout';
import { checkResumeText } from './resume-file';

/**
 * Gives an agent the newer copy's definition: its resume (keeping this org's credit caps, the person's
 * budget) and, when they differ, its skills/ and api-tools/ folders. Nothing else in its folder is
 * touched: its memory, outbox, workspace, logs and identity stay byte for byte, and so do its credits
 * and history, which live in the timeline.
 */
export async function applyAgentDefinition(
  orgPath: string,
  current: AgentDefinition,
  source: { orgPath: string; definition: AgentDefinition },
): Promise<Result<void, string>> {
  const resumeFile = agentPaths(current.folder).resume;
  const credits = current.raw.credits;
  const edited = editJsonText(
    source.definition.resumeText,
    credits === undefined ? [{ path: ['credits'], remove: true }] : [{ path: ['credits'], value: credits }],
  );
  if (!edited.ok) return { ok: false, error: `${resumeFile}: ${edited.error.message}` };
  const checked = checkResumeText(edited.value, resumeFile);
  if (!checked.ok)
    return { ok: false, error: `${resumeFile} would not be valid: ${checked.error[0]?.message ?? ''}` };
  const copied = await replaceToolFiles(orgPath, current, source);
  if (!copied.ok) return copied;
  if (edited.value !== current.resumeText) await writeFileAtomic(inOrg(orgPath, resumeFile), edited.value);
  return { ok: true, value: undefined };
}

/** Adds an agent only the newer copy has: its resume as written there, and its tool files. */
export async function addAgentDefinition(
  orgPath: string,
  source: { orgPath: string; definition: AgentDefinition },
): Promise<Result<void, string>> {
  const { name } = source.definition;
  const paths = agentPaths(name);
  if (await stat(inOrg(orgPath, paths.root)).catch(() => null))
    return { ok: false, error: `${paths.root} is already there; rename or remove it first.` };
  await mkdir(inOrg(orgPath, paths.workspace), { recursive: true });
  await newAgentIdentity(orgPath, name);
  const empty: AgentDefinition = { ...source.definition, folder: name, toolFiles: {} };
  const copied = await replaceToolFiles(orgPath, empty, source);
  if (!copied.ok) return copied;
  await writeFileAtomic(inOrg(orgPath, paths.resume), source.definition.resumeText);
  return { ok: true, value: undefined };
}

async function replaceToolFiles(
  orgPath: string,
  current: AgentDefinition,
  source: { orgPath: string; definition: AgentDefinition },
): Promise<Result<void, string>> {
  const from = inOrg(source.orgPath, agentPaths(source.definition.folder).root);
  const to = inOrg(orgPath, agentPaths(current.folder).root);
  for (const folder of TOOL_FOLDERS) {
    const inFolder = (files: Record<string, string>) =>
      Object.entries(files)
        .filter(([path]) => path.startsWith(`${folder}/`))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const theirs = inFolder(source.definition.toolFiles);
    if (JSON.stringify(inFolder(current.toolFiles)) === JSON.stringify(theirs)) continue;
    const files: [string, Buffer][] = [];
    for (const [path, hash] of theirs) {
      const read = readRegularFile(join(from, path));
      if (read === null || createHash('sha256').update(read).digest('hex') !== hash)
        return {
          ok: false,
          error: `${path} in the newer copy changed since it was compared; nothing of it was changed.`,
        };
      files.push([path, read]);
    }
    await rm(join(to, folder), { recursive: true, force: true });
    for (const [path, data] of files) {
      await mkdir(dirname(join(to, path)), { recursive: true });
      await writeFileAtomic(join(to, path), data);
    }
  }
  return { ok: true, value: undefined };
}

/** A file's bytes when it is still a plain file (never through a link), else null. */
function readRegularFile(path: string): Buffer | null {
  const stats = lstatSync(path, { throwIfNoEntry: false });
  return stats?.isFile() ? readFileSync(path) : null;
}
