import { METHOD_OVERRIDE_HEADERS } from '../approval-rule';
import type { Result } from '../../api/result';
import { redactText } from '../../net/redact';
import { describeNotGranted, notGrantedReadiness, type GrantRefusal } from '../../api/grant-refusal';
import type { HttpPrimitive } from '../composed/http-primitive';
import type { SecretLookup } from '../composed/secrets';
import { hostPatternFor } from '../composed/url-template';
import { TOOL_GROUPS, type CatalogEntry, type Readiness } from '../tool-catalog';
import { failureOfHttpStatus } from '../../api/failure';
import { failureOfHttpError } from '../../net/http-error';
import { toolFailure, toolSuccess, type ToolResult } from '../tool-result';
import type { ToolContext, ToolSpec } from '../tool-spec';
import { keySecretOf, type RestApiEntry, type RestMethod } from './rest-api-config';

/** The API keys an org's REST APIs may use: only those granted to it. */
export interface RestApiSecrets {
  lookup: SecretLookup;
  refusal: GrantRefusal;
}

/** One REST API of the org, by the name its tool has. */
export interface RestApi {
  name: string;
  entry: RestApiEntry;
}

const TIMEOUT_MS = 30_000;
const MAX_RESPONSE_BYTES = 1024 * 1024;
const OUTPUT_BODY_LIMIT = 32 * 1024;
const ERROR_BODY_LIMIT = 500;
const READ_METHODS: ReadonlySet<RestMethod> = new Set(['GET']);

/** `inventory` → "Inventory API". */
export const restApiTitle = (name: string): string => {
  const words = name.replace(/_+/g, ' ').trim();
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} API`;
};

/** The host (and port) the API's tool may reach: its base URL's, nothing else. */
export const restApiHost = (entry: RestApiEntry): string => hostPatternFor(new URL(entry.base_url));

/** Whether the API's key is set and granted to the org; a public API is always ready. */
export function restApiReadiness(api: RestApi, lookup: SecretLookup, refusal: GrantRefusal): Readiness {
  const secret = keySecretOf(api.entry);
  const refused = secret === null ? null : refusal('secret', secret);
  if (refused) return notGrantedReadiness(refused);
  if (secret === null || lookup(secret)) return { ready: true };
  return {
    ready: false,
    reason: `its API key (${secret}) is not set`,
    fix: `enter the API key in the Tool Store under ${restApiTitle(api.name)}`,
  };
}

/** What the model is told: how to call the API and what it may send. */
function definitionOf(api: RestApi): ToolSpec['definition'] {
  const { entry } = api;
  const methods = entry.methods;
  const about = entry.description.trim();
  return {
    name: api.name,
    description: `Calls the ${restApiTitle(api.name)} at ${entry.base_url}${about ? ` (${about})` : ''}. Give the path after that address, such as /items/42, and the query as an object; the API key is added for you. Allowed methods: ${methods.join(', ')}.`,
    parameters: {
      type: 'object',
      properties: {
        method: {
          type: 'string',
          enum: [...methods],
          description: `The HTTP method; ${methods[0]} when left out.`,
        },
        path: {
          type: 'string',
          description: `The path after ${entry.base_url}, starting with /.`,
        },
        query: {
          type: 'object',
          additionalProperties: { type: 'string' },
          description: 'Query parameters, name to value.',
        },
        ...(methods.some((method) => !READ_METHODS.has(method) && method !== 'DELETE')
          ? { body: { description: 'The JSON body, for POST, PUT or PATCH.' } }
          : {}),
      },
      required: ['path'],
      additionalProperties: false,
    },
  };
}

interface CallArguments {
  method: RestMethod;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/** The call's arguments checked against what the API allows, or why they cannot be sent. */
function checkArguments(api: RestApi, args: unknown): Result<CallArguments, string> {
  if (typeof args !== 'object' || args === null || Array.isArray(args))
    return { ok: false, error: 'the arguments must be an object with a path' };
  const { method, path, query, body, ...rest } = args as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) return { ok: false, error: `unknown argument ${unknown.join(', ')}` };
  const chosen = method === undefined ? api.entry.methods[0] : method;
  if (typeof chosen !== 'string' || !(api.entry.methods as readonly string[]).includes(chosen))
    return { ok: false, error: `method must be one of ${api.entry.methods.join(', ')}` };
  if (typeof path !== 'string' || !path.startsWith('/'))
    return { ok: false, error: 'path must be text starting with /, such as /items/42' };
  if (query !== undefined && (typeof query !== 'object' || query === null || Array.isArray(query)))
    return { ok: false, error: 'query must be an object of names to text values' };
  const queryValues = (query ?? {}) as Record<string, unknown>;
  if (Object.values(queryValues).some((value) => typeof value !== 'string'))
    return { ok: false, error: 'each query value must be text' };
  if (body !== undefined && (chosen === 'GET' || chosen === 'DELETE'))
    return { ok: false, error: `a ${chosen} request cannot have a body` };
  return {
    ok: true,
    value: { method: chosen as RestMethod, path, query: queryValues as Record<string, string>, body },
  };
}

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const UNSAFE_PATH = /[\s\u0000-\u001f\u007f\\?#]/;

/** The URL of a call: the path under the base URL's path, never above it or on another host. */
export function restApiUrl(
  entry: RestApiEntry,
  path: string,
  query: Readonly<Record<string, string>>,
): Result<URL, string> {
  if (UNSAFE_PATH.test(path))
    return {
      ok: false,
      error: 'path must not hold spaces, control characters, \\, ? or # (give the query as an object)',
    };
  const segments = path.split('/').map((segment) => {
    try {
      return decodeURIComponent(segment);
    } catch {
      return segment;
    }
  });
  if (segments.some((segment) => segment === '.' || segment === '..'))
    return { ok: false, error: 'path must not hold . or .. segments' };
  const base = new URL(entry.base_url);
  const basePath = base.pathname.replace(/\/+$/, '');
  const url = new URL(`${base.origin}${basePath}${path}`);
  if (url.origin !== base.origin || !url.pathname.startsWith(`${basePath}/`))
    return { ok: false, error: `path must stay under ${entry.base_url}` };
  for (const [name, value] of Object.entries(query)) url.searchParams.append(name, value);
  return { ok: true, value: url };
}

/** Sends one call. Never throws; the key is redacted from everything returned. */
async function callApi(
  api: RestApi,
  args: unknown,
  keys: RestApiSecrets,
  http: HttpPrimitive,
  context: Pick<ToolContext, 'redaction' | 'signal'>,
): Promise<ToolResult> {
  const checked = checkArguments(api, args);
  if (!checked.ok) return toolFailure(`invalid arguments for ${api.name}: ${checked.error}`);
  const call = checked.value;
  const secret = keySecretOf(api.entry);
  const refused = secret === null ? null : keys.refusal('secret', secret);
  if (refused)
    return toolFailure(`${api.name} cannot run: ${describeNotGranted(refused)}; nothing was sent`, {
      kind: 'not_granted',
      grant: { kind: refused.kind, name: refused.name },
    });
  const key = secret === null ? '' : (keys.lookup(secret) ?? '');
  if (secret !== null && key === '')
    return toolFailure(`${api.name} is not set up: its API key (${secret}) is not set`, {
      kind: 'missing_key',
    });
  const target = restApiUrl(api.entry, call.path, call.query);
  if (!target.ok) return toolFailure(`${api.name}: ${target.error}; nothing was sent`);
  const url = target.value;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const { auth } = api.entry;
  if (auth.style === 'bearer') headers.Authorization = `Bearer ${key}`;
  if (auth.style === 'header') headers[auth.name] = key;
  if (auth.style === 'query') url.searchParams.append(auth.name, key);
  if (call.body !== undefined) headers['Content-Type'] = 'application/json';
  const secrets = key === '' ? [] : [key];
  const answer = await http({
    request: {
      method: call.method,
      url: url.toString(),
      headers,
      ...(call.body !== undefined ? { body: JSON.stringify(call.body) } : {}),
    },
    allowedHosts: [restApiHost(api.entry)],
    secretValues: secrets,
    deadlineMs: TIMEOUT_MS,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    ...(context.signal ? { signal: context.signal } : {}),
  });
  if (!answer.ok)
    return toolFailure(
      redactText(
        `${api.name}: the request was not completed (${answer.error.code}): ${answer.error.message}`,
        secrets,
      ),
      failureOfHttpError(answer.error.code),
    );
  // Every cut of the body is made after redaction: the byte cap's, the error excerpt's and the output limit's.
  const { redaction } = context;
  const received = redactText(answer.value.body.toString('utf8'), secrets);
  const text = answer.value.truncated ? redaction.redactCut(received) : received;
  const { status } = answer.value;
  if (status < 200 || status >= 300)
    return toolFailure(
      `HTTP ${status}${text.trim() === '' ? '' : `: ${redaction.cutText(text, ERROR_BODY_LIMIT)}`}`,
      failureOfHttpStatus(status),
    );
  const json = parseJson(text);
  const fits = json !== undefined && text.length <= OUTPUT_BODY_LIMIT;
  const truncated = answer.value.truncated || text.length > OUTPUT_BODY_LIMIT;
  return toolSuccess(
    JSON.stringify({
      status,
      body: fits ? json : redaction.cutText(text, OUTPUT_BODY_LIMIT),
      ...(truncated ? { truncated: true } : {}),
    }),
  );
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * The org's REST APIs as catalog entries: each a network tool granted by its name or group:network,
 * sent through the SSRF-safe primitive to its base URL's host only, with the key from the secret store.
 * An API that only reads is judged as a GET by the approval rule; one that may change things asks.
 */
export function restApiCatalogEntries(
  apis: readonly RestApi[],
  options: RestApiSecrets & { http: HttpPrimitive },
): CatalogEntry[] {
  return apis.map((api) => {
    const readOnly = api.entry.methods.every((method) => READ_METHODS.has(method));
    const { auth } = api.entry;
    // A key sent in a method-override header names a method no one can see: judged as unknown.
    const headers =
      auth.style === 'header' && METHOD_OVERRIDE_HEADERS.includes(auth.name.toLowerCase())
        ? { headers: { [auth.name]: '' } }
        : {};
    const spec: ToolSpec = {
      name: api.name,
      kind: 'network',
      title: restApiTitle(api.name),
      definition: definitionOf(api),
      endsIn: { name: 'http_request', kind: 'network', ...(readOnly ? { method: 'GET', ...headers } : {}) },
      run: (args, context) => callApi(api, args, options, options.http, context),
    };
    return {
      spec,
      grantedBy: [api.name, TOOL_GROUPS.network],
      readiness: restApiReadiness(api, options.lookup, options.refusal),
    };
  });
}
