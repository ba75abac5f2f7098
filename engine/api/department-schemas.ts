import { z } from 'zod';
import { AgentName } from './org-schemas';
import { Problem } from './problem';

/** A department's name is its file's name (`departments/<name>.json`), so it must be a safe file name. */
export const DepartmentName = z
  .string()
  .min(1, 'Give the department a name.')
  .max(64, 'A department name may be at most 64 characters.')
  .regex(/^[A-Za-z0-9_-]+$/, 'A department name may use only letters, digits, "_" and "-".');

/**
 * `departments/<name>.json` as LeMMing writes it (lemming/department.py's DepartmentMetadata), plus
 * `agents`: who belongs to it. LeMMing's own membership rule is a substring match of the department's
 * name in an agent's path, which almost never matches anything; LeMMing reads past `agents`. Other
 * keys are kept as they are.
 */
export const DepartmentFileSchema = z.looseObject({
  name: DepartmentName,
  description: z.string({ error: 'description must be text' }).min(1, 'description must not be empty'),
  /** LeMMing's rule: digits and dots. */
  version: z
    .string({ error: 'version must be text' })
    .regex(/^[0-9.]+$/, 'version must be digits and dots, like 1.0.0')
    .default('1.0.0'),
  created_at: z.string({ error: 'created_at must be text' }).optional(),
  dependencies: z.array(z.string({ error: 'each dependency must be text' })).default([]),
  tags: z.array(z.string({ error: 'each tag must be text' })).default([]),
  author: z.string({ error: 'author must be text' }).default(''),
  contact: z.string({ error: 'contact must be text' }).default(''),
  readme: z.string({ error: 'readme must be text' }).default(''),
  /** Its agents by name; absent in LeMMing's files, whose rule is the folder's path (departmentMembers). */
  agents: z.array(z.string({ error: 'each agent must be a name' })).optional(),
});
export type DepartmentFile = z.output<typeof DepartmentFileSchema>;

/** A department as the app shows it. */
export const Department = z.object({
  name: z.string(),
  description: z.string(),
  version: z.string(),
  tags: z.array(z.string()),
  author: z.string(),
  readme: z.string(),
  /** Its agents' names, as the file lists them. */
  agents: z.array(z.string()),
  /** `departments/<name>.json`. */
  file: z.string(),
});
export type Department = z.infer<typeof Department>;

export const DepartmentList = z.object({
  departments: z.array(Department),
  /** Files that could not be read: each names its file, field and line. Their neighbours still show. */
  problems: z.array(Problem),
  /** Departments that read, but that LeMMing would see otherwise (a name that is not its file's). */
  warnings: z.array(Problem),
});
export type DepartmentList = z.infer<typeof DepartmentList>;

/** Creates a department, or changes the one with this name (its other fields and unknown keys stay). */
export const SaveDepartmentInput = z
  .object({
    name: DepartmentName,
    description: z.string().trim().min(1, 'Say in a few words what the department does.').max(2000),
    agents: z.array(AgentName).max(10_000),
    tags: z.array(z.string().max(100)).max(100).optional(),
    author: z.string().max(200).optional(),
    readme: z.string().max(100_000).optional(),
  })
  .strict();
export type SaveDepartmentInput = z.infer<typeof SaveDepartmentInput>;

/** What a department's agents spent, from the credit ledger (UTC day and month). */
export const DepartmentSpend = z.object({
  department: z.string(),
  agents: z.array(z.string()),
  spentToday: z.number(),
  spentThisMonth: z.number(),
});
export type DepartmentSpend = z.infer<typeof DepartmentSpend>;
