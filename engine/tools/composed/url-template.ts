import type { Placeholder, Template } from './placeholders';

/** Which part of a URL a piece of text lands in. */
export type UrlRegion = 'authority' | 'path' | 'query' | 'fragment';

/**
 * The scheme and authority at the start of a URL, up to the character that ends the host: `/`,
 * `?`, `#`, or `\` (which WHATWG parsing treats as `/` for http and https). A config value at the
 * very start stands for a whole base URL (`{{env.SUPABASE_URL}}/rest/v1/posts`).
 */
// eslint-disable-next-line no-control-regex -- \u0001 marks a setting's value in a template's shape
const ORIGIN_PREFIX = /^(?:[a-z][a-z0-9+.-]*:\/\/|\u0001)[^/?#\\]*/i;
const CONFIG_MARK = '\u0001';
const PARAM_MARK = '\u0002';

/**
 * The region text appended after `prefix` lands in. Anything before the host is complete counts as
 * `authority`: text there can still change where the request goes.
 */
export function regionAfter(prefix: string): UrlRegion {
  const origin = ORIGIN_PREFIX.exec(prefix);
  if (!origin || origin[0].length === prefix.length) return 'authority';
  const rest = prefix.slice(origin[0].length);
  if (rest.includes('#')) return 'fragment';
  if (rest.includes('?')) return 'query';
  return 'path';
}

export interface UrlTemplateShape {
  /** The region each placeholder of the template lands in, known before any value is. */
  regions: ReadonlyMap<Placeholder, UrlRegion>;
  /** The literal `scheme://host[:port]` when nothing before the host's end is a placeholder. */
  literalOrigin: URL | null;
  /** The template starts with literal text, so its scheme is known. */
  literalScheme: string | null;
}

/**
 * Where each placeholder of a URL template lands. Config values count as opaque text that may hold
 * a scheme and host; parameters are encoded when rendered, so they never end a region themselves.
 */
export function urlTemplateShape(template: Template): UrlTemplateShape {
  const regions = new Map<Placeholder, UrlRegion>();
  let shape = '';
  for (const segment of template.segments) {
    if (segment.kind === 'text') {
      shape += segment.text;
      continue;
    }
    regions.set(segment, regionAfter(shape));
    shape += segment.kind === 'config' ? CONFIG_MARK : PARAM_MARK;
  }
  return {
    regions,
    literalOrigin: literalOrigin(shape),
    literalScheme: /^([a-z][a-z0-9+.-]*):/i.exec(shape)?.[1]?.toLowerCase() ?? null,
  };
}

function literalOrigin(shape: string): URL | null {
  const origin = ORIGIN_PREFIX.exec(shape);
  if (!origin || origin[0].includes(CONFIG_MARK) || origin[0].includes(PARAM_MARK)) return null;
  try {
    return new URL(`${origin[0]}/`);
  } catch {
    return null;
  }
}

/** `host` or `host:port` as an `allowed_hosts` entry naming exactly the origin's host. */
export function hostPatternFor(origin: URL): string {
  return origin.port === '' ? origin.hostname : `${origin.hostname}:${origin.port}`;
}
