import type { BundleIncludes, BundleManifest } from '../api/bundle-schemas';
import type { ReachKind } from '../api/trust-schemas';
import { REACH_HEADINGS } from '../trust/trust-words';

/** What a bundle carries beyond the org's structure, in words: "memory and outboxes", "structure only". */
export function includesInWords(includes: BundleIncludes): string {
  const parts = [
    includes.memory && 'memory',
    includes.outboxes && 'outboxes',
    includes.history && 'history',
    includes.workspaces && 'workspace files',
  ].filter((part): part is string => Boolean(part));
  return parts.length === 0
    ? 'structure only (no memory, outboxes, history or workspace files)'
    : `structure with ${parts.join(', ')}`;
}

// eslint-disable-next-line no-control-regex -- control characters are what this looks for
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** A line as the terminal shows it: a bundle's text cannot move the cursor, recolour or reorder what follows. */
const visible = (line: string): string =>
  line.replace(UNPRINTABLE, (character) => `\\u{${character.codePointAt(0)!.toString(16)}}`);

/**
 * A manifest as `lemming bundle inspect` prints it: what is inside, what it would run and reach, what is
 * missing. Its text comes from whoever made the bundle, so control characters are shown, not obeyed.
 */
export function manifestLines(manifest: BundleManifest, missingSecrets: readonly string[]): string[] {
  return describeManifest(manifest, missingSecrets).map(visible);
}

function describeManifest(manifest: BundleManifest, missingSecrets: readonly string[]): string[] {
  const what =
    manifest.scope.kind === 'org'
      ? `the org “${manifest.orgName}”`
      : `the department “${manifest.scope.name}” of “${manifest.orgName}”`;
  const lines = [
    `A bundle of ${what}, made ${manifest.createdAt} (format version ${manifest.formatVersion}).`,
    `It holds ${includesInWords(manifest.includes)}: ${manifest.files.length} files.`,
    `Agents: ${manifest.agents.map((agent) => (agent.title ? `${agent.folder} (${agent.title})` : agent.folder)).join(', ') || 'none'}.`,
  ];
  if (manifest.departments.length > 0) {
    lines.push('Departments:');
    for (const department of manifest.departments)
      lines.push(`  ${department.name}${department.description ? `: ${department.description}` : ''}`);
  }
  for (const kind of Object.keys(REACH_HEADINGS) as ReachKind[]) {
    if (kind === 'secret') continue;
    const subjects = [
      ...new Set(manifest.reach.filter((item) => item.kind === kind).map((item) => item.subject)),
    ];
    if (subjects.length === 0) continue;
    lines.push(`${REACH_HEADINGS[kind]}:`);
    for (const subject of subjects) lines.push(`  ${subject}`);
  }
  if (manifest.secrets.length > 0) {
    lines.push('Secrets it uses (no values are in the bundle):');
    for (const name of manifest.secrets)
      lines.push(
        `  ${name}${missingSecrets.includes(name) ? '  (not stored on this computer: set it before running)' : '  (stored here)'}`,
      );
  }
  if (manifest.leftOut.length > 0) {
    lines.push('Left out:');
    for (const item of manifest.leftOut) lines.push(`  ${item.path}: ${item.why}`);
  }
  return lines;
}
