import { chmod, cp, lstat, mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { z } from 'zod';
import { fail, ok, type IpcResult } from '../api/result';
import {
  TemplateMetadata,
  TemplateName,
  type TemplateCard,
  type TemplateGallery,
} from '../api/template-schemas';
import { discoverAgents } from '../org/discover';
import type { Resume } from '../org/resume-schema';
import { HUMAN_OPERATOR } from '../api/human-operator';
import { readOrgReach } from '../trust/org-reach';
import { compareCodePoints, nextFiringTicks } from '../org/schedule';
import { FIRST_TICK } from '../org/tick-file';
import { permissionEdges } from './org-graph';
import { SYSTEM_FILES } from './init-org';

/**
 * The shipped templates (docs/ARCHITECTURE.md, “Templates”): a folder holding `gallery.json` (the
 * names, in the order the gallery shows them) and, per template, `<name>/template.json` (its title and
 * purpose) beside `<name>/org/`, the org as LeMMing lays it out.
 */
export const GALLERY_FILE = 'gallery.json';
const METADATA_FILE = 'template.json';
const ORG_FOLDER = 'org';

const GalleryList = z.array(z.string(), { error: `${GALLERY_FILE} must be a list of template names` });

/** A template opened for reading: its own words, and the org folder to copy (never written to). */
export interface OpenedTemplate {
  name: string;
  metadata: TemplateMetadata;
  orgFolder: string;
}

/** The names gallery.json lists, in its order (each checked when it is opened); what is wrong with the file otherwise. */
export async function templateNames(templatesFolder: string): Promise<IpcResult<string[]>> {
  const file = join(templatesFolder, GALLERY_FILE);
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return fail('not_found', `No templates were found: ${file} cannot be read.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return fail('invalid_change', `${file} is not valid JSON: ${(error as Error).message}`);
  }
  const names = GalleryList.safeParse(parsed);
  if (!names.success) return fail('invalid_change', `${file}: ${names.error.issues[0]?.message}`);
  return ok(names.data);
}

/**
 * The one place a template is read: its metadata and the folder an org is copied from. Only a name the
 * gallery lists opens, so no name reaches outside the templates folder.
 */
export async function openTemplate(
  templatesFolder: string,
  name: string,
): Promise<IpcResult<OpenedTemplate>> {
  const names = await templateNames(templatesFolder);
  if (!names.ok) return names;
  const validName = TemplateName.safeParse(name).success;
  if (!validName && names.value.includes(name))
    return fail(
      'invalid_change',
      `${join(templatesFolder, GALLERY_FILE)} lists “${name}”, which is not a template name (lowercase letters, digits and "-").`,
    );
  if (!validName || !names.value.includes(name))
    return fail(
      'not_found',
      `There is no template “${name}”.`,
      undefined,
      `Choose one of: ${names.value.filter((listed) => TemplateName.safeParse(listed).success).join(', ')}.`,
    );
  const metadataFile = join(templatesFolder, name, METADATA_FILE);
  const text = await readFile(metadataFile, 'utf8').catch(() => null);
  if (text === null)
    return fail('not_found', `The template “${name}” is incomplete: ${metadataFile} is missing.`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return fail('invalid_change', `${metadataFile} is not valid JSON: ${(error as Error).message}`);
  }
  const metadata = TemplateMetadata.safeParse(parsed);
  if (!metadata.success)
    return fail(
      'invalid_change',
      `${metadataFile}: ${metadata.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  const orgFolder = join(templatesFolder, name, ORG_FOLDER);
  if (!(await stat(join(orgFolder, 'agents')).catch(() => null))?.isDirectory())
    return fail('not_found', `The template “${name}” is incomplete: ${orgFolder} holds no agents folder.`);
  return ok({ name, metadata: metadata.data, orgFolder });
}

/** The gallery: a card per template that opens; one that does not is named with its problem, the others still shown. */
export async function templateGallery(templatesFolder: string): Promise<IpcResult<TemplateGallery>> {
  const names = await templateNames(templatesFolder);
  if (!names.ok) return names;
  const gallery: TemplateGallery = { templates: [], problems: [] };
  for (const name of names.value) {
    const card = await templateCard(templatesFolder, name);
    if (card.ok) gallery.templates.push(card.value);
    else gallery.problems.push({ template: name, message: card.error.message });
  }
  return ok(gallery);
}

async function templateCard(templatesFolder: string, name: string): Promise<IpcResult<TemplateCard>> {
  const opened = await openTemplate(templatesFolder, name);
  if (!opened.ok) return opened;
  const [agents, reach] = await Promise.all([
    discoverAgents(opened.value.orgFolder),
    readOrgReach(opened.value.orgFolder),
  ]);
  const invalid = agents.find((agent) => !agent.valid);
  if (invalid)
    return fail('invalid_change', `The template “${name}” has an invalid agent in ${invalid.folder}.`);
  // In the order they first work in a fresh org, which is the order the work flows in.
  const firstTick = (resume: Resume) => nextFiringTicks(resume.schedule, FIRST_TICK, 1)[0] ?? 0;
  const resumes = agents
    .flatMap((agent) => (agent.valid ? [agent.resume] : []))
    .sort((left, right) => firstTick(left) - firstTick(right) || compareCodePoints(left.name, right.name));
  const { edges } = permissionEdges(
    resumes.map((resume) => ({
      name: resume.name,
      readOutboxes: resume.permissions.read_outboxes,
      sendOutboxes: resume.permissions.send_outboxes ?? null,
    })),
  );
  const flows = new Map<string, { from: string; to: string }>();
  for (const edge of edges)
    if (!edge.viaWildcard) flows.set(`${edge.from}\n${edge.to}`, { from: edge.from, to: edge.to });
  return ok({
    name,
    title: opened.value.metadata.title,
    purpose: opened.value.metadata.purpose,
    agents: resumes
      .filter((resume) => resume.name !== HUMAN_OPERATOR)
      .map((resume) => ({
        name: resume.name,
        title: resume.title,
        does: resume.short_description?.trim() || resume.title,
      })),
    edges: [...flows.values()],
    reach: reach.items,
  });
}

/**
 * A new org at `target` (an empty folder, or one to be made), copied from the template. Nothing is
 * overwritten, the template's run state (if any) is not copied, and every copied file is the person's
 * to change even when the shipped copy is read-only. The new org is not trusted here: it shows its
 * reach on the trust screen like any org from elsewhere.
 */
export async function createOrgFromTemplate(
  templatesFolder: string,
  name: string,
  target: string,
): Promise<IpcResult<{ path: string; template: string }>> {
  const opened = await openTemplate(templatesFolder, name);
  if (!opened.ok) return opened;
  const orgPath = resolve(target);
  const existing = await stat(orgPath).catch(() => null);
  if (existing && !existing.isDirectory())
    return fail('already_exists', `${orgPath} is a file, not a folder.`);
  if (existing) {
    const entries = (await readdir(orgPath)).filter((entry) => !SYSTEM_FILES.has(entry));
    if (entries.length > 0)
      return fail(
        'already_exists',
        `${orgPath} is not empty; nothing was written.`,
        undefined,
        'Choose an empty folder, or a new one, for the org.',
      );
  }
  const source = opened.value.orgFolder;
  try {
    // Entry by entry: the folder itself may be there already (the one the person chose).
    await mkdir(orgPath, { recursive: true });
    for (const entry of await readdir(source)) {
      if (entry === '.lemming') continue;
      await cp(join(source, entry), join(orgPath, entry), {
        recursive: true,
        errorOnExist: true,
        force: false,
        filter: (path) => !relative(source, path).split(sep).includes('.lemming'),
      });
    }
    await makeWritable(orgPath);
  } catch (error) {
    return fail('refused', `The org could not be created in ${orgPath}: ${(error as Error).message}`);
  }
  return ok({ path: orgPath, template: name });
}

/** Gives the owner write access to everything copied: an installed app's files may be read-only. */
async function makeWritable(folder: string): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true });
  for (const path of [folder, ...entries.map((entry) => join(entry.parentPath, entry.name))]) {
    const info = await lstat(path);
    if (info.isSymbolicLink()) continue;
    await chmod(path, info.mode | (info.isDirectory() ? 0o700 : 0o600));
  }
}
