import type { Problem } from '../api/problem';
import { join } from 'node:path';
import type { ResultWith } from '../api/result';
import { writeFileAtomic } from '../files/atomic-write';
import { editJsonText, type JsonEdit } from '../files/json-edit';
import { fileProblem, problemsFromIssues, syntaxProblem } from '../files/json-problems';
import { formatJsonDocument } from '../files/json-style';
import { parseJsonTree } from '../files/json-tree';
import { jsonNestingProblem, lineAndColumn } from '../files/json-text';
import { readTextFile } from '../files/read-text-file';
import { lemmingCompatibilityWarnings } from './resume-lemming-compat';
import { ResumeSchema, type Resume } from './resume-schema';
import { runSerially } from '../files/serial-by-key';
import { agentPaths } from './org-layout';

/** Where an agent's resume lives, relative to the org folder. */
export function resumeFileOf(folder: string): string {
  return agentPaths(folder).resume;
}

/** An agent folder is one plain name directly under agents/; anything else could point elsewhere. */
export function agentFolderProblem(folder: string): string | null {
  if (folder === '' || folder.startsWith('.') || /[/\\\0]/.test(folder)) {
    return `"${folder}" is not an agent folder name: it must be one folder directly under agents/`;
  }
  return null;
}

/** A checked resume, or its problems; `raw` is the parsed JSON on either side (null when it is not JSON). */
export type ResumeCheck = ResultWith<
  Resume,
  Problem[],
  { raw: Record<string, unknown>; warnings: Problem[] }
> & { raw: unknown };

/** A resume is a page of settings and instructions; LeMMing's API takes at most 50 KB. */
export const MAX_RESUME_BYTES = 1024 * 1024;

/**
 * Validates resume text: that it is text of a sane size and depth (so nothing after it recurses over
 * something pathological), JSON syntax (with line and column), then the resume schema (each problem
 * located at its field). A valid resume also gets warnings about what LeMMing itself would refuse.
 */
export function checkResumeText(text: string, file: string): ResumeCheck {
  const unfit = unfitTextProblem(text, file);
  if (unfit) return { ok: false, error: [unfit], raw: null };
  const tree = parseJsonTree(text);
  if (!tree.ok) return { ok: false, error: [syntaxProblem(file, tree.error)], raw: null };
  const located = { text, root: tree.root };
  const result = ResumeSchema.safeParse(tree.value);
  if (!result.success) {
    return {
      ok: false,
      error: problemsFromIssues(result.error.issues, file, tree.value, located),
      raw: tree.value,
    };
  }
  return {
    ok: true,
    raw: tree.value as Record<string, unknown>,
    value: result.data,
    warnings: lemmingCompatibilityWarnings(tree.value, file, located),
  };
}

/** Binary data, an oversized file or nesting deeper than any resume needs, located where possible. */
function unfitTextProblem(text: string, file: string): Problem | null {
  if (text.length > MAX_RESUME_BYTES)
    return fileProblem(
      file,
      `the file is ${text.length.toLocaleString('en')} characters; a resume is at most ${MAX_RESUME_BYTES.toLocaleString('en')}`,
    );
  const binary = text.search(/[\0\uFFFD]/);
  if (binary !== -1)
    return {
      file,
      field: '',
      ...lineAndColumn(text, binary),
      message: 'the file is not text: it holds binary data (a NUL byte or bytes that are not UTF-8)',
    };
  const tooDeep = jsonNestingProblem(text);
  if (tooDeep) return syntaxProblem(file, tooDeep);
  return null;
}

/** A resume file's check, with which file it is and its text (null when it could not be read). */
export type ResumeRead = ResumeCheck & { file: string; text: string | null };

/** Reads and validates `agents/<folder>/resume.json`. Never throws. */
export async function readResume(orgPath: string, folder: string): Promise<ResumeRead> {
  const file = resumeFileOf(folder);
  const badFolder = agentFolderProblem(folder);
  if (badFolder) return { ok: false, error: [fileProblem(file, badFolder)], file, text: null, raw: null };
  const read = await readTextFile(join(orgPath, file));
  if (!read.found) {
    const message = read.missing ? `${agentPaths(folder).root} has no resume.json` : read.message;
    return { ok: false, error: [fileProblem(file, message)], file, text: null, raw: null };
  }
  const checked = checkResumeText(read.text, file);
  return { ...checked, file, text: read.text };
}

export type ResumeUpdate = ResultWith<
  Resume,
  Problem[],
  { text: string; raw: Record<string, unknown>; changed: boolean; warnings: Problem[] }
>;

/**
 * Applies `change` to the resume's text, rewriting only the changed values so unknown fields and
 * untouched bytes stay as they were. The result must be a valid resume, or nothing is written and
 * the problems are returned. An invalid resume can be repaired this way as long as it is valid JSON.
 */
export async function updateResume(
  orgPath: string,
  folder: string,
  change: readonly JsonEdit[],
): Promise<ResumeUpdate> {
  const file = resumeFileOf(folder);
  const badFolder = agentFolderProblem(folder);
  if (badFolder) return { ok: false, error: [fileProblem(file, badFolder)] };
  const path = join(orgPath, file);

  return runSerially(path, async () => {
    const read = await readTextFile(path);
    if (!read.found)
      return {
        ok: false,
        error: [
          fileProblem(file, read.missing ? `${agentPaths(folder).root} has no resume.json` : read.message),
        ],
      };
    const edited = editJsonText(read.text, change);
    if (!edited.ok) {
      const { message, path: editPath, line, column } = edited.error;
      return {
        ok: false,
        error: [{ file, field: editPath.map(String).join('.'), message, line, column }],
      };
    }
    const checked = checkResumeText(edited.value, file);
    if (!checked.ok) return { ok: false, error: checked.error };
    if (edited.changed) {
      try {
        await writeFileAtomic(path, edited.value);
      } catch (error) {
        return { ok: false, error: [fileProblem(file, `cannot write: ${(error as Error).message}`)] };
      }
    }
    return {
      ok: true,
      text: edited.value,
      raw: checked.raw,
      value: checked.value,
      changed: edited.changed,
      warnings: checked.warnings,
    };
  });
}

/** What a new resume is made from: anything ResumeSchema accepts (legacy shapes included). */
export type ResumeDraft = Record<string, unknown>;

export type CreatedResume = ResultWith<Resume, Problem[], { text: string; warnings: Problem[] }>;

/** LeMMing's field order, which its own files and tools use. */
export const LEMMING_FIELD_ORDER: Record<string, readonly string[]> = {
  '': [
    'name',
    'title',
    'short_description',
    'workflow_description',
    'instructions',
    'model',
    'permissions',
    'schedule',
    'credits',
  ],
  model: ['key', 'temperature', 'max_tokens'],
  permissions: ['read_outboxes', 'tools'],
  schedule: ['run_every_n_ticks', 'phase_offset'],
  credits: ['max_credits', 'soft_cap'],
};

/**
 * The text of a new resume.json that LeMMing reads too: the values normalized (numbers as numbers,
 * model as an object), a short_description (LeMMing's loader requires one; the title stands in),
 * LeMMing's field order with any other fields after, two-space indentation and a final newline.
 */
export function createResumeText(draft: ResumeDraft): CreatedResume {
  const name = typeof draft.name === 'string' ? draft.name : '';
  const file = resumeFileOf(name || '<new agent>');
  const parsed = ResumeSchema.safeParse(draft);
  if (!parsed.success)
    return { ok: false, error: problemsFromIssues(parsed.error.issues, file, draft, null) };

  const resume = parsed.data;
  const described = resume.short_description?.trim()
    ? resume
    : { ...resume, short_description: resume.title };
  const text = formatJsonDocument(ordered(described, ''));
  const checked = checkResumeText(text, file);
  if (!checked.ok) return { ok: false, error: checked.error };
  return { ok: true, text, value: checked.value, warnings: checked.warnings };
}

function ordered(value: Record<string, unknown>, at: string): Record<string, unknown> {
  const first = LEMMING_FIELD_ORDER[at] ?? [];
  const keys = [
    ...first.filter((key) => Object.hasOwn(value, key) && value[key] !== undefined),
    ...Object.keys(value).filter((key) => !first.includes(key) && value[key] !== undefined),
  ];
  return Object.fromEntries(
    keys.map((key) => {
      const child = value[key];
      const nested =
        at === '' &&
        key in LEMMING_FIELD_ORDER &&
        typeof child === 'object' &&
        child !== null &&
        !Array.isArray(child);
      return [key, nested ? ordered(child as Record<string, unknown>, key) : child];
    }),
  );
}
