import type { z } from 'zod';
import { keepingTrust } from './trust';
import { fail, ok, type IpcResult } from '../api/result';
import type { Connector, RestApiInput, RestApiRef } from '../api/tool-schemas';
import type { JsonEdit } from '../files/json-edit';
import { BUILTIN_CONNECTORS } from '../tools/connectors/builtin-connectors';
import {
  baseUrlProblem,
  keySecretFor,
  keySecretOf,
  readRestApis,
  REST_API_FILE,
  RestApiName,
  updateRestApis,
  type RestApiEntry,
} from '../tools/rest-api/rest-api-config';
import { jsonEqual } from '../files/json-edit';
import { listConnectors } from './connectors';
import type { OrgContext } from './org-context';
import { orgConnectors } from './org-connectors';
import { issuesFromProblems } from './problems';
import { deleteSecret, setSecret } from './secrets';
import { grantStoredSecrets } from './trust';

type Issue = { path: string; message: string };

/** A header or query parameter name: an HTTP token (RFC 9110). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Header names the key must not be sent as: they are the request's own. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'accept',
  'transfer-encoding',
  'connection',
]);

/** What is wrong with each field of the drawer, by field name; empty when it can be saved. */
async function inputIssues(
  context: OrgContext,
  input: z.output<typeof RestApiInput>,
  existing: boolean,
  keyIsSet: boolean,
): Promise<Issue[]> {
  const issues: Issue[] = [];
  const name = RestApiName.safeParse(input.name);
  if (!name.success) issues.push({ path: 'name', message: name.error.issues[0]?.message ?? 'not a name' });
  else if (!existing) {
    const builtIn = BUILTIN_CONNECTORS.some((connector) => connector.tools.includes(input.name));
    const taken =
      builtIn ||
      (await orgConnectors(context.orgPath, context.secrets.store)).connectors.some((connector) =>
        connector.tools.includes(input.name),
      );
    if (taken)
      issues.push({
        path: 'name',
        message: `agents already have a tool named ${input.name}; pick another name`,
      });
  }
  const address = input.baseUrl.trim();
  const addressProblem =
    address === ''
      ? 'give the address of the API, such as https://api.example.com/v1'
      : baseUrlProblem(address);
  if (addressProblem) issues.push({ path: 'baseUrl', message: addressProblem });
  if (input.authStyle === 'header' || input.authStyle === 'query') {
    const what = input.authStyle === 'header' ? 'header' : 'query parameter';
    const field = (input.authName ?? '').trim();
    if (field === '')
      issues.push({
        path: 'authName',
        message: `give the ${what} name, such as ${input.authStyle === 'header' ? 'X-API-Key' : 'api_key'}`,
      });
    else if (!TOKEN.test(field))
      issues.push({ path: 'authName', message: `a ${what} name may hold only letters, digits and - _ .` });
    else if (input.authStyle === 'header' && RESERVED_HEADERS.has(field.toLowerCase()))
      issues.push({
        path: 'authName',
        message: `${field} is set by the request itself; name another header`,
      });
  }
  if (input.authStyle !== 'none') {
    if (input.apiKey !== undefined && input.apiKey.trim() === '')
      issues.push({ path: 'apiKey', message: 'the API key is empty' });
    else if (input.apiKey === undefined && !keyIsSet)
      issues.push({
        path: 'apiKey',
        message: 'enter the API key (or choose "No key" if the API needs none)',
      });
  }
  return issues;
}

/**
 * Adds or changes one REST API connector in lemming/config/rest-apis.json. Only the fields the drawer
 * has are edited, in place, so other fields of the entry and of the file stay as they are. The key
 * goes to the secret store (never to the file, never back to the caller) and is granted to the org.
 * Nothing is written when a
 * field is wrong; each problem names its field.
 */
export function saveRestApi(
  context: OrgContext,
  input: z.output<typeof RestApiInput>,
): Promise<IpcResult<Connector>> {
  return keepingTrust(context, [REST_API_FILE], () => saveRestApiEntry(context, input));
}

async function saveRestApiEntry(
  context: OrgContext,
  input: z.output<typeof RestApiInput>,
): Promise<IpcResult<Connector>> {
  const current = await restApisToChange(context.orgPath);
  if (!current.ok) return current;
  const before = current.value.apis[input.name];
  if (before && !input.opened)
    return fail('already_exists', `There is already a REST API named ${input.name}.`, [
      { path: 'name', message: `there is already a REST API named ${input.name}; pick another name` },
    ]);
  if (input.opened && (!before || !jsonEqual(openedView(before), input.opened)))
    return fail(
      'refused',
      `${REST_API_FILE} changed since this drawer was opened; nothing was saved over the change.`,
      undefined,
      'Close the drawer and open it again to see the settings as they are now.',
    );
  const secret = before ? (keySecretOf(before) ?? keySecretFor(input.name)) : keySecretFor(input.name);
  const keyIsSet = (await context.secrets.store.list()).some((info) => info.name === secret);
  const issues = await inputIssues(context, input, before !== undefined, keyIsSet);
  if (issues.length > 0) return fail('invalid_change', 'Nothing was saved.', issues);

  const at = ['apis', input.name];
  const authName = (input.authName ?? '').trim();
  const edits: JsonEdit[] = [
    { path: [...at, 'base_url'], value: input.baseUrl.trim() },
    { path: [...at, 'description'], value: (input.description ?? before?.description ?? '').trim() },
    { path: [...at, 'auth', 'style'], value: input.authStyle },
    input.authStyle === 'header' || input.authStyle === 'query'
      ? { path: [...at, 'auth', 'name'], value: authName }
      : { path: [...at, 'auth', 'name'], remove: true },
    input.authStyle === 'none'
      ? { path: [...at, 'key_secret'], remove: true }
      : { path: [...at, 'key_secret'], value: secret },
    { path: [...at, 'methods'], value: input.methods },
  ];
  const updated = await updateRestApis(context.orgPath, edits);
  if (!updated.ok) return fail('invalid_change', 'Nothing was saved.', issuesFromProblems(updated.error));
  if (input.authStyle !== 'none' && input.apiKey !== undefined) {
    const saved = await setSecret(context.secrets, secret, input.apiKey.trim());
    if (!saved.ok) return saved;
    const granted = await grantStoredSecrets(context, [secret]);
    if (!granted.ok) return granted;
  }
  return connectorNamed(context, input.name);
}

/** An entry as its drawer shows it, to tell whether the file changed since the drawer opened. */
function openedView(entry: RestApiEntry) {
  return {
    baseUrl: entry.base_url,
    description: entry.description,
    authStyle: entry.auth.style,
    authName: entry.auth.style === 'header' || entry.auth.style === 'query' ? entry.auth.name : null,
    methods: [...entry.methods],
  };
}

/** The org's REST APIs, or the refusal to change them while their file is not valid. */
async function restApisToChange(orgPath: string) {
  const current = await readRestApis(orgPath);
  if (current.ok) return ok(current.value);
  return fail(
    'invalid_change',
    `${REST_API_FILE} is not valid; fix it before changing its APIs.`,
    issuesFromProblems(current.error),
  );
}

/** Removes a REST API connector, and its key unless another API uses the same secret. */
export function removeRestApi(
  context: OrgContext,
  input: z.output<typeof RestApiRef>,
): Promise<IpcResult<{ name: string; removed: boolean }>> {
  return keepingTrust(context, [REST_API_FILE], () => removeRestApiEntry(context, input));
}

async function removeRestApiEntry(
  context: OrgContext,
  input: z.output<typeof RestApiRef>,
): Promise<IpcResult<{ name: string; removed: boolean }>> {
  const current = await restApisToChange(context.orgPath);
  if (!current.ok) return current;
  const entry = current.value.apis[input.name];
  if (!entry) return fail('not_found', `There is no REST API named ${input.name} in this org.`);
  const updated = await updateRestApis(context.orgPath, [{ path: ['apis', input.name], remove: true }]);
  if (!updated.ok) return fail('invalid_change', 'Nothing was removed.', issuesFromProblems(updated.error));
  const secret = keySecretOf(entry);
  const shared = Object.values(updated.value.apis).some((other) => keySecretOf(other) === secret);
  if (secret !== null && !shared) {
    const deleted = await deleteSecret(context.secrets, secret);
    if (!deleted.ok) return deleted;
  }
  return ok({ name: input.name, removed: true });
}

async function connectorNamed(context: OrgContext, name: string): Promise<IpcResult<Connector>> {
  const listed = await listConnectors(context);
  if (!listed.ok) return listed;
  const connector = listed.value.connectors.find((candidate) => candidate.id === `rest:${name}`);
  return connector ? ok(connector) : fail('not_found', `The REST API ${name} is gone.`);
}
