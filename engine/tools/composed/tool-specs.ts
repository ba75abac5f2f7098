import { TOOL_GROUPS, type CatalogEntry, type Readiness, type ToolDelegation } from '../tool-catalog';
import type { ToolKind, ToolSpec } from '../tool-spec';
import { METHOD_OVERRIDE_HEADERS } from '../approval-rule';
import { isHttpCall, type ComposedTool, type HttpCall } from './composed-tool';
import type { HttpPrimitive } from './http-primitive';
import { runComposedTool, type ComposedRunEnvironment, type DelegateTarget } from './run';
import type { GrantRefusal } from '../../api/grant-refusal';
import { composedToolReadiness, type SecretLookup } from './secrets';
import { delegationChain, type ToolSetProblem } from './tool-set';

export interface ComposedToolsetOptions {
  lookup: SecretLookup;
  /** Which secret a tool names is refused to the org (see GrantRefusal). */
  refusal: GrantRefusal;
  http: HttpPrimitive;
  /** Registered tools (built-ins, primitives) a composed tool may delegate to; composed tools are found among `tools`. */
  lookupTool?: (name: string) => ToolSpec | undefined;
}

/** A composed tool as the catalog offers it: the runnable spec and whether its connector is set up. */
export interface ComposedToolEntry {
  tool: ComposedTool;
  spec: ToolSpec;
  readiness: Readiness;
  /** Set when the tool ends up calling a registered tool, which the policy resolver then judges too. */
  delegation?: ToolDelegation;
}

export interface ComposedToolset {
  entries: ComposedToolEntry[];
  /** Tools left out: a name taken by a registered tool, or a delegate that does not exist here. */
  problems: ToolSetProblem[];
}

/**
 * Turns loaded composed tools into ToolSpecs. A tool's kind is `network` when its chain ends in
 * http_request, otherwise the kind of the registered tool the chain ends in.
 */
export function composedToolSpecs(
  tools: readonly ComposedTool[],
  options: ComposedToolsetOptions,
): ComposedToolset {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const lookupTool = options.lookupTool ?? (() => undefined);
  const environment: ComposedRunEnvironment = {
    lookup: options.lookup,
    refusal: options.refusal,
    http: options.http,
    resolve(name): DelegateTarget | undefined {
      const composed = byName.get(name);
      if (composed) return { kind: 'composed', tool: composed };
      const spec = lookupTool(name);
      return spec ? { kind: 'tool', spec } : undefined;
    },
  };

  const entries: ComposedToolEntry[] = [];
  const problems: ToolSetProblem[] = [];
  for (const tool of tools) {
    if (lookupTool(tool.name)) {
      problems.push({
        source: tool.source,
        path: [...tool.source.path, 'name'],
        message: `${tool.name} is the name of a built-in tool; give the composed tool another name`,
      });
      continue;
    }
    const { chain } = delegationChain(tool, byName);
    const last = byName.get(chain.at(-1) ?? tool.name) ?? tool;
    const kind = kindOf(last, lookupTool);
    if (!kind) {
      problems.push({
        source: tool.source,
        path: [...tool.source.path, 'implementation', 'primitive'],
        message: `${chain.join(' → ')} ends in ${last.implementation.primitive}, which is not a tool here`,
      });
      continue;
    }
    const through = chain.slice(1);
    const delegation: ToolDelegation | null = !isHttpCall(last.implementation)
      ? { through, primitive: last.implementation.primitive }
      : through.length > 0
        ? { through, primitive: null }
        : null;
    entries.push({
      tool,
      ...(delegation ? { delegation } : {}),
      readiness: chainReadiness(
        chain.map((name) => byName.get(name) ?? tool),
        options,
      ),
      spec: {
        name: tool.name,
        kind,
        title: titleOf(tool.name),
        definition: { name: tool.name, description: tool.description, parameters: tool.parameters },
        endsIn: {
          ...(isHttpCall(last.implementation)
            ? {
                name: 'http_request',
                kind,
                method: last.implementation.method,
                headers: overrideHeaders(last.implementation),
              }
            : { name: last.implementation.primitive, kind }),
          ...(through.length > 0 ? { through } : {}),
        },
        run: (args, context) => runComposedTool(tool, args, context, environment),
      },
    });
  }
  return { entries, problems };
}

/** The catalog's entries for a toolset: granted by name or by their kind's group, judged with their delegation. */
export function composedCatalogEntries(toolset: ComposedToolset): CatalogEntry[] {
  return toolset.entries.map(({ spec, readiness, delegation }) => ({
    spec,
    grantedBy: [spec.name, TOOL_GROUPS[spec.kind]],
    readiness,
    ...(delegation ? { delegation } : {}),
  }));
}

/** The method-override headers a request's template carries, by name: their text, or '' when templated. */
function overrideHeaders(call: HttpCall): Record<string, string> {
  return Object.fromEntries(
    call.headers
      .filter((header) => METHOD_OVERRIDE_HEADERS.includes(header.name.toLowerCase()))
      .map((header) => [
        header.name,
        header.value.segments.every((segment) => segment.kind === 'text') ? header.value.source : '',
      ]),
  );
}

function kindOf(last: ComposedTool, lookupTool: (name: string) => ToolSpec | undefined): ToolKind | null {
  if (isHttpCall(last.implementation)) return 'network';
  return lookupTool(last.implementation.primitive)?.kind ?? null;
}

/** A chain is ready when every composed tool on it has its secrets and settings. */
function chainReadiness(
  chain: readonly ComposedTool[],
  { lookup, refusal }: Pick<ComposedToolsetOptions, 'lookup' | 'refusal'>,
): Readiness {
  for (const tool of chain) {
    const readiness = composedToolReadiness(tool, lookup, refusal);
    if (!readiness.ready) return readiness;
  }
  return { ready: true };
}

/** `save_post` → "Save post". */
function titleOf(name: string): string {
  const words = name.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}
