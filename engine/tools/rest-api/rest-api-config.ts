import { z } from 'zod';
import { SecretName } from '../../api/secret-name';
import type { JsonEdit } from '../../files/json-edit';
import {
  readConfigFile,
  updateConfigFile,
  type ConfigFileSpec,
  type ConfigRead,
} from '../../org/config-file';

/**
 * The org's REST API connectors: one entry per API, each a tool agents call with a path under its
 * base URL. The API key is named (`key_secret`), never written here: its value lives in the secret store.
 */
export const REST_API_FILE = 'lemming/config/rest-apis.json';

/** An API's name is its tool's name, which model APIs limit to [A-Za-z0-9_-]. */
export const RestApiName = z
  .string()
  .regex(
    /^[a-z][a-z0-9_]{0,39}$/,
    'a name starts with a lower-case letter and holds at most 40 lower-case letters, digits and _ (for example inventory)',
  );

/** The methods an API tool may send; GET only reads, the others can change things on the server. */
export const REST_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const RestMethod = z.enum(REST_METHODS, { error: 'must be GET, POST, PUT, PATCH or DELETE' });
export type RestMethod = z.infer<typeof RestMethod>;

/** A header or query parameter name: an HTTP token (RFC 9110). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const FieldName = (what: string) =>
  z
    .string({ error: `the ${what} must be text` })
    .min(1, `the ${what} must not be empty`)
    .max(100, `the ${what} has at most 100 characters`)
    .regex(TOKEN, `the ${what} may hold only letters, digits and - _ . (for example X-API-Key)`);

/** How the API key is sent. */
export const RestAuth = z.discriminatedUnion(
  'style',
  [
    /** `Authorization: Bearer <key>`. */
    z.looseObject({ style: z.literal('bearer') }),
    /** `<name>: <key>`, as in `X-API-Key: <key>`. */
    z.looseObject({ style: z.literal('header'), name: FieldName('header name') }),
    /** `?<name>=<key>` on every request. */
    z.looseObject({ style: z.literal('query'), name: FieldName('query parameter name') }),
    /** No key: a public API. */
    z.looseObject({ style: z.literal('none') }),
  ],
  { error: 'the key is sent as bearer, header, query or none' },
);
export type RestAuth = z.infer<typeof RestAuth>;

/** `http(s)://host[:port][/path]`: no user, query or fragment, so what the key is sent to is plain to see. */
export const RestBaseUrl = z
  .string({ error: 'the address must be text' })
  .trim()
  .min(1, 'give the address of the API, such as https://api.example.com/v1')
  .superRefine((value, context) => {
    const problem = baseUrlProblem(value);
    if (problem) context.addIssue({ code: 'custom', message: problem });
  });

/** Why a base URL cannot be used, or null. One rule for the file, the use-case and the drawer's field. */
export function baseUrlProblem(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return `"${value}" is not a web address; write it in full, such as https://api.example.com/v1`;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    return 'the address must start with https:// (or http:// for a server on your own network)';
  if (url.username !== '' || url.password !== '')
    return 'the address must not hold a user name or password; put the key in the API key field';
  if (url.search !== '' || url.hash !== '')
    return 'the address must not hold ? or #; agents add the rest of the path and the query when they call';
  return null;
}

export const RestApiEntry = z
  .looseObject({
    base_url: RestBaseUrl,
    description: z.string({ error: 'the description must be text' }).max(2000).default(''),
    auth: RestAuth,
    /** The secret holding the key; absent when auth is none. */
    key_secret: SecretName.optional(),
    methods: z
      .array(RestMethod, { error: 'methods must be a list such as ["GET"]' })
      .min(1, 'allow at least one method')
      .default(['GET']),
  })
  .superRefine((entry, context) => {
    if (entry.auth.style !== 'none' && entry.key_secret === undefined)
      context.addIssue({
        code: 'custom',
        path: ['key_secret'],
        message: 'name the secret that holds the API key (key_secret), or send no key (auth.style none)',
      });
  });
export type RestApiEntry = z.output<typeof RestApiEntry>;

export const RestApiConfigSchema = z.looseObject({
  apis: z.record(RestApiName, RestApiEntry).default({}),
});
export type RestApiConfig = z.output<typeof RestApiConfigSchema>;

export const REST_API_SPEC: ConfigFileSpec<typeof RestApiConfigSchema> = {
  file: REST_API_FILE,
  schema: RestApiConfigSchema,
  defaultDocument: { apis: {} },
};

/** The org's REST APIs; a missing file is none. Problems name the file, field, line and column. */
export function readRestApis(orgPath: string): Promise<ConfigRead<RestApiConfig>> {
  return readConfigFile(orgPath, REST_API_SPEC);
}

export function updateRestApis(orgPath: string, edits: readonly JsonEdit[]) {
  return updateConfigFile(orgPath, REST_API_SPEC, edits);
}

/** `inventory` → `INVENTORY_API_KEY`: the secret a new API's key is kept under. */
export const keySecretFor = (name: string): string => `${name.toUpperCase()}_API_KEY`;

/** The secret an API needs, or null for a public API. */
export const keySecretOf = (entry: RestApiEntry): string | null =>
  entry.auth.style === 'none' ? null : (entry.key_secret ?? null);
