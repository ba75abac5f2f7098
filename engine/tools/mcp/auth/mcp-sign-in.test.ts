import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Connector } from '../../../api/tool-schemas';
import { resume, tempOrgs } from '../../../run/test-support/temp-org';
import { lemming, trustOrg } from '../test-support/mcp-cli';
import { startSignInServer } from '../test-support/sign-in-server';
import { filesUnder } from '../../../../test/test-support/files-under';

const orgs = tempOrgs();
const closing: (() => Promise<void>)[] = [];
const folders: string[] = [];
afterEach(async () => {
  await Promise.all(closing.splice(0).map((close) => close()));
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  orgs.cleanup();
});

const FOLLOW = join(import.meta.dirname, '..', 'test-support', 'follow-sign-in.mjs');

/** A folder outside the org for the secrets file and a "browser" that only notes that it was opened. */
function outside() {
  const folder = mkdtempSync(join(tmpdir(), 'lemming-sign-in-'));
  folders.push(folder);
  const opened = join(folder, 'opened.txt');
  const noting = join(folder, 'noting-browser.mjs');
  writeFileSync(
    noting,
    `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(opened)}, process.argv.at(-1) + '\\n');\n`,
  );
  // A person who says no on the sign-in page: the page's redirect address answered with access_denied.
  const denying = join(folder, 'denying-browser.mjs');
  writeFileSync(
    denying,
    `const page = new URL(process.argv.at(-1));\nconst back = new URL(page.searchParams.get('redirect_uri'));\nback.searchParams.set('error', 'access_denied');\nback.searchParams.set('state', page.searchParams.get('state'));\nawait fetch(back);\n`,
  );
  return {
    denyingBrowser: `${process.execPath} ${denying}`,
    secretsFile: join(folder, 'secrets.json'),
    opened,
    notingBrowser: `${process.execPath} ${noting}`,
    followingBrowser: `${process.execPath} ${FOLLOW}`,
  };
}

async function signInOrg() {
  const server = await startSignInServer();
  closing.push(server.close);
  const org = orgs.build({
    'lemming/config/mcp.json': { mcpServers: { remote: { url: server.url } } },
    'lemming/config/policy.json': { network: { enabled: true, private_hosts: ['127.0.0.1'] } },
    'agents/ada/resume.json': resume('ada', {
      permissions: { read_outboxes: [], tools: ['group:mcp:remote', 'mcp__remote__whoami'] },
    }),
  });
  await trustOrg(org);
  return { server, org, ...outside() };
}

async function card(org: string, env: Record<string, string>): Promise<Connector> {
  const listed = await lemming(['connectors', org, '--json'], env);
  expect(listed.code, listed.stderr).toBe(0);
  const { connectors } = JSON.parse(listed.stdout) as { connectors: Connector[] };
  const found = connectors.find((connector) => connector.id === 'mcp:remote');
  if (!found) throw new Error('no card for remote');
  return found;
}

describe(
  'signing in to an MCP server (OAuth 2.1, as the MCP specification says)',
  { timeout: 120_000 },
  () => {
    it('a server that needs sign-in waits for it: unattended, no browser opens and its tools say why', async () => {
      const { org, secretsFile, opened, notingBrowser } = await signInOrg();
      const env = { LEMMING_SECRETS_FILE: secretsFile, BROWSER: notingBrowser };

      const waiting = await card(org, env);
      expect(waiting.mcp).toMatchObject({
        status: 'needs_sign_in',
        error: 'it asks you to sign in',
        signIn: { signedIn: false },
      });
      expect(waiting.readiness).toMatchObject({
        ready: false,
        reason: expect.stringContaining('waiting for you to sign in'),
      });

      const call = await lemming(['call', org, 'ada', 'mcp__remote__whoami', '{}'], env);
      expect(`${call.stdout}${call.stderr}`).toMatch(/sign in/);
      expect(existsSync(opened)).toBe(false);
    });

    it('--sign-in opens the page with BROWSER, keeps the tokens in the secret store only, and the tools work', async () => {
      const { org, secretsFile, followingBrowser, server } = await signInOrg();
      const env = { LEMMING_SECRETS_FILE: secretsFile, BROWSER: followingBrowser };

      const signedIn = await lemming(['connectors', org, '--sign-in', 'remote'], env);
      expect(signedIn.code, signedIn.stderr).toBe(0);
      expect(signedIn.stdout).toContain('Signed in to remote as ada@example.com.');
      expect(server.requests).toEqual(
        expect.arrayContaining(['POST /register', 'GET /authorize', 'POST /token authorization_code']),
      );

      const after = await card(org, env);
      expect(after.mcp).toMatchObject({
        status: 'running',
        signIn: { signedIn: true, subject: 'ada@example.com', byPerson: true },
      });
      const call = await lemming(['call', org, 'ada', 'mcp__remote__whoami', '{}'], env);
      expect(call.stdout).toContain('signed in with');
      // The token itself is redacted wherever it would be printed: it is a secret like any other.
      expect(call.stdout).toMatch(/signed in with \[redacted:MCP_SIGNIN_REMOTE_[0-9A-F]{10}_ACCESS\]/);

      const secrets = readFileSync(secretsFile, 'utf8');
      expect(secrets).toMatch(/MCP_SIGNIN_REMOTE_[0-9A-F]{10}_ACCESS/);
      expect(secrets).toMatch(/MCP_SIGNIN_REMOTE_[0-9A-F]{10}_REFRESH/);
      for (const file of filesUnder(org)) expect(readFileSync(file).includes('access-1'), file).toBe(false);
    });

    it('signing in again that the person declines keeps the sign-in they had', async () => {
      const { org, secretsFile, followingBrowser, denyingBrowser } = await signInOrg();
      expect(
        (
          await lemming(['connectors', org, '--sign-in', 'remote'], {
            LEMMING_SECRETS_FILE: secretsFile,
            BROWSER: followingBrowser,
          })
        ).code,
      ).toBe(0);

      const declined = await lemming(['connectors', org, '--sign-in', 'remote'], {
        LEMMING_SECRETS_FILE: secretsFile,
        BROWSER: denyingBrowser,
      });
      expect(declined.code).not.toBe(0);
      expect(declined.stderr).toContain('the sign-in was not completed (access_denied)');
      const call = await lemming(['call', org, 'ada', 'mcp__remote__whoami', '{}'], {
        LEMMING_SECRETS_FILE: secretsFile,
      });
      expect(call.stdout).toContain('signed in with');
    });

    it('an expired sign-in is refreshed on its own with the refresh token', async () => {
      const { org, secretsFile, followingBrowser, server } = await signInOrg();
      const env = { LEMMING_SECRETS_FILE: secretsFile, BROWSER: followingBrowser };
      expect((await lemming(['connectors', org, '--sign-in', 'remote'], env)).code).toBe(0);

      server.expireAccessTokens();
      const call = await lemming(['call', org, 'ada', 'mcp__remote__whoami', '{}'], env);
      // The token refreshed during this very call is already redacted from its answer.
      expect(call.stdout).toMatch(/signed in with \[redacted:MCP_SIGNIN_REMOTE_[0-9A-F]{10}_ACCESS\]/);
      expect(call.stdout).not.toContain('access-2');
      expect(server.requests.filter((request) => request.startsWith('GET /authorize'))).toHaveLength(1);
      expect(server.requests).toContain('POST /token refresh_token');
    });

    it('--sign-in names what is wrong with a server that is not there or is a program', async () => {
      const { org, secretsFile, followingBrowser } = await signInOrg();
      const missing = await lemming(['connectors', org, '--sign-in', 'nope'], {
        LEMMING_SECRETS_FILE: secretsFile,
        BROWSER: followingBrowser,
      });
      expect(missing.code).not.toBe(0);
      expect(missing.stderr).toContain('there is no MCP server "nope" in this org');

      const programOrg = orgs.build({
        'lemming/config/mcp.json': { mcpServers: { local: { command: 'no-such-mcp-program' } } },
      });
      await trustOrg(programOrg);
      const program = await lemming(['connectors', programOrg, '--sign-in', 'local'], {
        LEMMING_SECRETS_FILE: secretsFile,
        BROWSER: followingBrowser,
      });
      expect(program.code).not.toBe(0);
      expect(program.stderr).toContain('local is a program on this computer: there is nothing to sign in to');
    });
  },
);
