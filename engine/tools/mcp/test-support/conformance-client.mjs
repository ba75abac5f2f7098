#!/usr/bin/env node
// The client the official MCP conformance suite runs (`conformance client --command "node
// engine/tools/mcp/test-support/conformance-client.mjs"`): it appends the scenario server's URL and says the scenario in
// MCP_CONFORMANCE_SCENARIO (and its credentials in MCP_CONFORMANCE_CONTEXT). This makes a temp org whose
// only MCP server is that URL, trusts it, and then does what a person does with the real `lemming`
// command: looks at the server's card (which starts it), signs in when the card asks for it (the
// browser is follow-sign-in.mjs, through BROWSER), and calls each of its tools as an agent would.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = dirname(fileURLToPath(import.meta.url));
const LEMMING = join(HERE, '..', '..', '..', '..', 'bin', 'lemming.mjs');
const SERVER = 'conformance';
/** A client ID metadata document's URL, as the suite's own reference client uses it. */
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';
const MAX_SIGN_INS = 3;

const serverUrl = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');

const root = mkdtempSync(join(tmpdir(), 'lemming-conformance-'));
const org = join(root, 'org');
const env = {
  PATH: process.env.PATH ?? '',
  LEMMING_CONFIG_DIR: join(root, 'config'),
  LEMMING_SECRETS_FILE: join(root, 'secrets.json'),
  BROWSER: `${process.execPath} ${join(HERE, 'follow-sign-in.mjs')}`,
};

function lemming(args, input) {
  const run = spawnSync(process.execPath, [LEMMING, ...args], { env, encoding: 'utf8', input });
  process.stderr.write(`$ lemming ${args.join(' ')}\n${run.stdout}${run.stderr}`);
  if (run.status !== 0) throw new Error(`lemming ${args[0]} exited with ${run.status}`);
  return run.stdout;
}

function write(path, value) {
  mkdirSync(dirname(join(org, path)), { recursive: true });
  writeFileSync(join(org, path), `${JSON.stringify(value, null, 2)}\n`);
}

/** The entry's `oauth` part and the secrets it names, from what the scenario gives. */
function oauthFor() {
  if (scenario === 'auth/client-credentials-basic')
    return {
      oauth: {
        grant: 'client_credentials',
        client_id: context.client_id,
        client_secret: '${secrets.CONFORMANCE_CLIENT_SECRET}',
      },
      secrets: { CONFORMANCE_CLIENT_SECRET: context.client_secret },
    };
  if (scenario === 'auth/client-credentials-jwt')
    return {
      oauth: {
        grant: 'client_credentials',
        client_id: context.client_id,
        private_key: '${secrets.CONFORMANCE_PRIVATE_KEY}',
        signing_algorithm: context.signing_algorithm,
      },
      secrets: { CONFORMANCE_PRIVATE_KEY: context.private_key_pem },
    };
  if (scenario === 'auth/pre-registration')
    return {
      oauth: { client_id: context.client_id, client_secret: '${secrets.CONFORMANCE_CLIENT_SECRET}' },
      secrets: { CONFORMANCE_CLIENT_SECRET: context.client_secret },
    };
  if (scenario === 'auth/cross-app-access-complete-flow')
    return {
      oauth: {
        grant: 'identity_assertion',
        client_id: context.client_id,
        client_secret: '${secrets.CONFORMANCE_CLIENT_SECRET}',
        idp_token_endpoint: context.idp_token_endpoint,
        idp_client_id: context.idp_client_id,
        idp_id_token: '${secrets.CONFORMANCE_IDP_ID_TOKEN}',
      },
      secrets: {
        CONFORMANCE_CLIENT_SECRET: context.client_secret,
        CONFORMANCE_IDP_ID_TOKEN: context.idp_id_token,
      },
    };
  if (scenario.startsWith('auth/'))
    return { oauth: { client_metadata_url: CLIENT_METADATA_URL }, secrets: {} };
  return { oauth: undefined, secrets: {} };
}

/** Arguments a tool's input schema asks for: one plain value of each required property's type. */
function argumentsFor(schema) {
  const sample = { number: 1, integer: 1, string: 'x', boolean: true, object: {}, array: [] };
  const properties = schema?.properties ?? {};
  return Object.fromEntries(
    (schema?.required ?? []).map((name) => [name, sample[properties[name]?.type] ?? null]),
  );
}

function card() {
  const { connectors } = JSON.parse(lemming(['connectors', org, '--json']));
  const found = connectors.find((connector) => connector.id === `mcp:${SERVER}`);
  if (!found?.mcp) throw new Error(`no card for ${SERVER}`);
  return found.mcp;
}

try {
  lemming(['init', org]);
  const { oauth, secrets } = oauthFor();
  write('lemming/config/mcp.json', {
    mcpServers: { [SERVER]: { url: serverUrl, ...(oauth ? { oauth } : {}) } },
  });
  const policyFile = join(org, 'lemming/config/policy.json');
  const policy = existsSync(policyFile) ? JSON.parse(readFileSync(policyFile, 'utf8')) : {};
  write('lemming/config/policy.json', {
    ...policy,
    network: { ...policy.network, enabled: true, private_hosts: ['localhost', '127.0.0.1', '[::1]'] },
  });
  write('agents/ada/resume.json', {
    name: 'ada',
    title: 'Conformance',
    short_description: 'calls the scenario server',
    instructions: 'You call tools.',
    model: { key: 'default' },
    permissions: { read_outboxes: [], tools: [`group:mcp:${SERVER}`] },
    schedule: { run_every_n_ticks: 1, phase_offset: 0 },
  });
  for (const [name, value] of Object.entries(secrets)) lemming(['secret', 'set', name], value);
  lemming(['trust', org, '--yes', ...Object.keys(secrets).flatMap((name) => ['--grant', name])]);

  let signIns = 0;
  const signIn = () => {
    if (++signIns > MAX_SIGN_INS) throw new Error(`still asks to sign in after ${MAX_SIGN_INS} sign-ins`);
    lemming(['connectors', org, '--sign-in', SERVER]);
  };
  let calls = null;
  while (calls === null) {
    const server = card();
    if (server.status === 'needs_sign_in') {
      signIn();
      continue;
    }
    if (server.status !== 'running') throw new Error(`${SERVER} is ${server.status}: ${server.error}`);
    calls = server.tools.map((tool) => ({ tool, done: false }));
    for (const call of calls) {
      for (;;) {
        const result = JSON.parse(
          // A form the server asks for is accepted with its defaults (elicitation scenarios): no one is at a terminal.
          lemming([
            'call',
            org,
            'ada',
            call.tool.grantName,
            JSON.stringify(argumentsFor(call.tool.inputSchema)),
            '--accept-forms',
          ]),
        );
        if (result.success !== false || !/sign in/.test(String(result.error))) break;
        signIn();
      }
    }
  }
} catch (error) {
  process.stderr.write(`lemming-client: ${error.message}\n`);
  process.exitCode = 1;
} finally {
  rmSync(root, { recursive: true, force: true });
}
