import { z } from 'zod';
import { SecretName } from './secret-name';
import { ReachItem } from './trust-schemas';

/** The one bundle format this app writes and reads (docs/BUNDLE-FORMAT.md); another number is refused. */
export const BUNDLE_FORMAT_VERSION = 1;
/** The name every bundle's manifest has at the top of the zip. */
export const MANIFEST_FILE = 'manifest.json';
/** The file name ending of a bundle. */
export const BUNDLE_EXTENSION = '.lemming.zip';

/**
 * What a bundle carries beyond the org's structure (resumes, config, tools, departments):
 * agents' memory, their outboxes, their history (logs and the timeline as JSON Lines), and the files in
 * their workspaces and the shared folder.
 */
export const BundleIncludes = z
  .object({
    memory: z.boolean().default(false),
    outboxes: z.boolean().default(false),
    history: z.boolean().default(false),
    workspaces: z.boolean().default(false),
  })
  .strict();
export type BundleIncludes = z.infer<typeof BundleIncludes>;

/** The three choices the app offers, as what each includes. */
export const BUNDLE_CHOICES = {
  structure: { memory: false, outboxes: false, history: false, workspaces: false },
  memory: { memory: true, outboxes: true, history: false, workspaces: false },
  everything: { memory: true, outboxes: true, history: true, workspaces: true },
} as const satisfies Record<string, BundleIncludes>;
export type BundleChoice = keyof typeof BUNDLE_CHOICES;

/** One file in the bundle: its path (relative to the org, `/` between names), size in bytes and sha256 (hex). */
export const BundleFile = z
  .object({
    path: z.string().min(1),
    size: z.int().nonnegative(),
    sha256: z.string().regex(/^[0-9a-f]{64}$/, 'a sha256 is 64 lowercase hex digits'),
  })
  .strict();
export type BundleFile = z.infer<typeof BundleFile>;

/** Something of the org that did not go in, and why (in plain words). */
export const LeftOut = z.object({ path: z.string(), why: z.string() }).strict();
export type LeftOut = z.infer<typeof LeftOut>;

/** A department's metadata as LeMMing writes `departments/<name>.json`; fields the app does not know are kept. */
export const BundleDepartment = z
  .object({ file: z.string(), name: z.string(), description: z.string().optional() })
  .loose();
export type BundleDepartment = z.infer<typeof BundleDepartment>;

/**
 * A bundle's `manifest.json` (docs/BUNDLE-FORMAT.md): what is inside, what the org would run, contact
 * and name once trusted (the org's reach, as engine/trust computes it), which secrets the importer must
 * provide (by name: no value is ever in a bundle), what was left out, and every file with its checksum.
 */
export const BundleManifest = z
  .object({
    format: z.literal('lemming-bundle'),
    formatVersion: z.literal(BUNDLE_FORMAT_VERSION),
    createdAt: z.string(),
    /** The org folder's name when exported. */
    orgName: z.string(),
    /** A whole org, or one department of it (its metadata file and its agents). */
    scope: z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('org') }).strict(),
      z.object({ kind: z.literal('department'), name: z.string().min(1) }).strict(),
    ]),
    includes: BundleIncludes,
    agents: z.array(z.object({ folder: z.string(), title: z.string().optional() }).strict()),
    departments: z.array(BundleDepartment),
    /** Programs, addresses, secrets, environment variables, shell and web powers: the org's reach. */
    reach: z.array(ReachItem),
    /** Secrets the org uses, by name; their values are never in the bundle. */
    secrets: z.array(SecretName),
    leftOut: z.array(LeftOut),
    files: z.array(BundleFile),
  })
  .strict();
export type BundleManifest = z.infer<typeof BundleManifest>;

/** What an export would write, before it does: every file that goes in and everything left out. */
export const BundlePreview = z.object({
  scope: BundleManifest.shape.scope,
  includes: BundleIncludes,
  goesIn: z.array(z.object({ path: z.string(), size: z.int() })),
  leftOut: z.array(LeftOut),
  secrets: z.array(SecretName),
  /** The org's departments, any of which can be exported alone. */
  departments: z.array(z.string()),
});
export type BundlePreview = z.infer<typeof BundlePreview>;

export const BundleExportInput = z
  .object({
    department: z.string().min(1).optional(),
    includes: BundleIncludes.default(BUNDLE_CHOICES.structure),
  })
  .strict();
export type BundleExportInput = z.infer<typeof BundleExportInput>;

export const BundleExportResult = z.object({
  /** Where the bundle was written; null when the person cancelled the save dialog. */
  path: z.string().nullable(),
  files: z.int(),
  leftOut: z.array(LeftOut),
  secrets: z.array(SecretName),
});
export type BundleExportResult = z.infer<typeof BundleExportResult>;

/** A bundle's manifest, with the secrets it names that are not stored on this computer. */
export const BundleInspection = z.object({
  path: z.string(),
  manifest: BundleManifest,
  missingSecrets: z.array(SecretName),
});
export type BundleInspection = z.infer<typeof BundleInspection>;

/** Where an imported bundle lands: a new org folder, or beside the agents of an existing org. */
export const BundleImportTarget = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('new'), folder: z.string().min(1) }).strict(),
  z.object({ kind: z.literal('into'), orgPath: z.string().min(1) }).strict(),
]);
export type BundleImportTarget = z.infer<typeof BundleImportTarget>;

export const BundleImportResult = z.object({
  orgPath: z.string(),
  written: z.array(z.string()),
  manifest: BundleManifest,
  missingSecrets: z.array(SecretName),
});
export type BundleImportResult = z.infer<typeof BundleImportResult>;

/** The manifest a trust screen shows beside the reach, for an org that came from a bundle. */
export const BundleOrigin = z.object({
  manifest: BundleManifest,
  importedAt: z.string(),
  bundleFile: z.string(),
});
export type BundleOrigin = z.infer<typeof BundleOrigin>;
