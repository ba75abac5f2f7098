import { readdirSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Department, DepartmentFile, SaveDepartmentInput } from '../api/department-schemas';
import { DepartmentFileSchema } from '../api/department-schemas';
import type { Result } from '../api/result';
import { writeFileAtomic } from '../files/atomic-write';
import { editJsonText, type JsonEdit } from '../files/json-edit';
import { fileProblem } from '../files/json-problems';
import type { Problem } from '../api/problem';
import { formatJsonDocument } from '../files/json-style';
import { readTextFile } from '../files/read-text-file';
import { runSerially } from '../files/serial-by-key';
import { whenExists } from '../files/when-exists';
import { checkConfigText, type ConfigFileSpec } from './config-file';
import { AGENTS_FOLDER } from './org-layout';

/** Where LeMMing keeps department metadata, one file per department. */
export const DEPARTMENTS_FOLDER = 'departments';

export const departmentFile = (name: string) => `${DEPARTMENTS_FOLDER}/${name}.json`;

const MAX_DEPARTMENT_BYTES = 1024 * 1024;

const specFor = (file: string): ConfigFileSpec<typeof DepartmentFileSchema> => ({
  file,
  schema: DepartmentFileSchema,
  defaultDocument: {},
  warnings: (raw, _file, located) => {
    const name = (raw as { name?: unknown }).name;
    const expected = file.slice(DEPARTMENTS_FOLDER.length + 1, -'.json'.length);
    return name === expected
      ? []
      : [
          {
            ...fileProblem(
              file,
              `the department is named "${String(name)}" but its file is ${expected}.json; LeMMing finds it by its file name`,
              'name',
            ),
            ...lineOfName(located.text),
          },
        ];
  },
});

function lineOfName(text: string): { line?: number } {
  const index = text.indexOf('"name"');
  return index < 0 ? {} : { line: text.slice(0, index).split('\n').length };
}

export interface DepartmentsRead {
  departments: Department[];
  /** Files that could not be read; one bad file never hides the others. */
  problems: Problem[];
  warnings: Problem[];
}

/**
 * Every `departments/*.json`, in name order, with its agents: those its file lists, or for a file that
 * lists none (LeMMing's), LeMMing's rule: the agents whose folder's path holds the department's name.
 * A missing folder means no departments.
 */
export async function readDepartments(orgPath: string): Promise<DepartmentsRead> {
  const entries =
    whenExists(() => readdirSync(join(orgPath, DEPARTMENTS_FOLDER), { withFileTypes: true })) ?? [];
  const files = entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json') && !entry.name.startsWith('.'))
    .map((entry) => `${DEPARTMENTS_FOLDER}/${entry.name}`)
    .sort();
  const read: DepartmentsRead = { departments: [], problems: [], warnings: [] };
  const agentFolders = (
    whenExists(() => readdirSync(join(orgPath, AGENTS_FOLDER), { withFileTypes: true })) ?? []
  )
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  for (const file of files) {
    const text = await readTextFile(join(orgPath, file), { maxBytes: MAX_DEPARTMENT_BYTES });
    if (!text.found) {
      read.problems.push(fileProblem(file, text.message));
      continue;
    }
    const checked = checkConfigText(text.text, specFor(file));
    if (!checked.ok) {
      read.problems.push(...checked.error);
      continue;
    }
    read.warnings.push(...checked.warnings);
    read.departments.push(departmentOf(checked.value, file, agentFolders));
  }
  return read;
}

/** LeMMing's membership rule: the department's name is part of the agent folder's path. */
export function membersByFolder(department: string, agentFolders: readonly string[]): string[] {
  return agentFolders.filter((folder) => `${AGENTS_FOLDER}/${folder}`.includes(department)).sort();
}

function departmentOf(value: DepartmentFile, file: string, agentFolders: readonly string[]): Department {
  return {
    name: value.name,
    description: value.description,
    version: value.version,
    tags: value.tags,
    author: value.author,
    readme: value.readme,
    agents: value.agents ?? membersByFolder(value.name, agentFolders),
    file,
  };
}

/**
 * Writes `departments/<name>.json`. A new file has every key LeMMing writes, in its order, then
 * `agents`; an existing one is edited in place, so its version, created_at, unknown keys and spacing stay.
 */
export async function saveDepartmentFile(
  orgPath: string,
  input: SaveDepartmentInput,
  now: Date = new Date(),
): Promise<Result<Department, Problem[]>> {
  const file = departmentFile(input.name);
  const path = join(orgPath, file);
  return runSerially(path, async () => {
    const existing = await readTextFile(path, { maxBytes: MAX_DEPARTMENT_BYTES });
    if (!existing.found && !existing.missing)
      return { ok: false, error: [fileProblem(file, existing.message)] };
    const edits: JsonEdit[] = [
      { path: ['description'], value: input.description },
      { path: ['agents'], value: input.agents },
      ...(input.tags === undefined ? [] : [{ path: ['tags'], value: input.tags }]),
      ...(input.author === undefined ? [] : [{ path: ['author'], value: input.author }]),
      ...(input.readme === undefined ? [] : [{ path: ['readme'], value: input.readme }]),
    ];
    const before = existing.found ? existing.text : formatJsonDocument(newDepartmentDocument(input, now));
    const edited = editJsonText(before, existing.found ? edits : []);
    if (!edited.ok) return { ok: false, error: [fileProblem(file, edited.error.message)] };
    const checked = checkConfigText(edited.value, specFor(file));
    if (!checked.ok) return checked;
    try {
      await mkdir(join(orgPath, DEPARTMENTS_FOLDER), { recursive: true });
      if (!existing.found || edited.changed) await writeFileAtomic(path, edited.value);
    } catch (error) {
      return { ok: false, error: [fileProblem(file, `cannot write: ${(error as Error).message}`)] };
    }
    return { ok: true, value: departmentOf(checked.value, file, []) };
  });
}

/** LeMMing's DepartmentMetadata.to_dict key order, then our `agents`. */
function newDepartmentDocument(input: SaveDepartmentInput, now: Date): Record<string, unknown> {
  return {
    name: input.name,
    description: input.description,
    version: '1.0.0',
    created_at: now.toISOString(),
    dependencies: [],
    tags: input.tags ?? [],
    author: input.author ?? '',
    contact: '',
    readme: input.readme ?? '',
    agents: input.agents,
  };
}
