import {
  allNotGranted,
  notGrantedReadiness,
  type GrantRefusal,
  type NotGranted,
} from '../../api/grant-refusal';
import type { Readiness } from '../tool-catalog';
import { isHttpCall, templatesOf, type ComposedTool } from './composed-tool';
import { placeholdersOf } from './placeholders';

/**
 * Reads one secret or connector setting by name; undefined when it is not set. The caller decides
 * where values live (the app's encrypted store, the CLI's secrets file); never the process environment.
 */
export type SecretLookup = (name: string) => string | undefined;

/**
 * Every secret and setting the tool needs, sorted: OpenClaw `requires_env` and `{{env.X}}`,
 * AgentClash `${secrets.X}`. The Tool Store shows these as the connector's fields.
 */
export function requiredSecrets(tool: ComposedTool): string[] {
  const names = new Set<string>(isHttpCall(tool.implementation) ? tool.implementation.requiresEnv : []);
  for (const template of templatesOf(tool))
    for (const placeholder of placeholdersOf(template))
      if (placeholder.kind === 'secret' || placeholder.kind === 'config') names.add(placeholder.name);
  return [...names].sort();
}

/** The required names that are not set; an empty value counts as not set. */
export function missingSecrets(tool: ComposedTool, lookup: SecretLookup): string[] {
  return requiredSecrets(tool).filter((name) => !lookup(name));
}

/** The required secrets that are set but not granted to the org: the tool may not run with them. */
export function refusedSecrets(tool: ComposedTool, refusal: GrantRefusal): NotGranted[] {
  return requiredSecrets(tool).flatMap((name) => refusal('secret', name) ?? []);
}

export function describeMissingSecrets(missing: readonly string[]): string {
  return `missing config/secret ${missing.join(', ')}`;
}

/** Whether the connector is set up, in the catalog's terms (policy layer 4). */
export function composedToolReadiness(
  tool: ComposedTool,
  lookup: SecretLookup,
  refusal: GrantRefusal,
): Readiness {
  const refused = refusedSecrets(tool, refusal);
  if (refused.length > 0) return notGrantedReadiness(allNotGranted(refused));
  const missing = missingSecrets(tool, lookup);
  if (missing.length === 0) return { ready: true };
  return {
    ready: false,
    reason: describeMissingSecrets(missing),
    fix: `Fill in ${missing.join(', ')} in the settings of the ${tool.name} connector (Tool Store).`,
  };
}
