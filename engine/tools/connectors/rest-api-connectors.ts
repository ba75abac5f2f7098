import type { OrgPolicy } from '../../org/policy-file';
import { refusesNothing } from '../../api/grant-refusal';
import { keySecretOf, REST_API_FILE } from '../rest-api/rest-api-config';
import { restApiHost, restApiReadiness, restApiTitle, type RestApi } from '../rest-api/rest-api-tool';
import { NO_SETTINGS } from './builtin-connectors';
import { grantedTo, permissionsFor } from './catalog';
import type { Connector } from './connector';

/**
 * The org's REST APIs as Tool Store cards: one network tool each, its key as the one secret, and
 * its settings (address, how the key is sent, methods) for its drawer. Settings live in
 * lemming/config/rest-apis.json; the drawer edits them, not a schema form.
 */
export function restApiConnectors(
  apis: readonly RestApi[],
  input: {
    policy: OrgPolicy;
    hasSecret: (name: string) => boolean;
    agents: readonly { name: string; tools: readonly string[] }[];
  },
): Connector[] {
  return apis.map((api) => {
    const { entry } = api;
    const secret = keySecretOf(entry);
    const title = restApiTitle(api.name);
    return {
      id: `rest:${api.name}`,
      name: title,
      description:
        entry.description.trim() ||
        `A REST API at ${entry.base_url}. Agents call it with a path; the key is added for them.`,
      kind: 'rest',
      toolKinds: ['network'],
      tools: [api.name],
      permissions: permissionsFor([api.name], 'network', input.policy),
      configSchema: NO_SETTINGS,
      config: { file: REST_API_FILE, pointer: `/apis/${api.name}` },
      secrets:
        secret === null
          ? []
          : [{ name: secret, description: `the API key of ${title}`, isSet: input.hasSecret(secret) }],
      // Presence alone, as every card's own readiness: whether this org may use the key is its `usable`.
      readiness: restApiReadiness(api, (name) => (input.hasSecret(name) ? 'set' : undefined), refusesNothing),
      source: null,
      grantedTo: grantedTo([api.name], 'network', input.agents),
      restApi: {
        name: api.name,
        baseUrl: entry.base_url,
        description: entry.description,
        authStyle: entry.auth.style,
        authName: entry.auth.style === 'header' || entry.auth.style === 'query' ? entry.auth.name : null,
        methods: [...entry.methods],
        keySecret: secret,
        host: restApiHost(entry),
      },
    };
  });
}
