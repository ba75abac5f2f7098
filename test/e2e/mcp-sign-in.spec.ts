import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSignInServer } from '../../engine/tools/mcp/test-support/sign-in-server';
import { DEMO_ORG, REPO_ROOT, expect, test } from '../harness/lemming-fixture';

const FOLLOW = join(REPO_ROOT, 'engine/tools/mcp/test-support/follow-sign-in.mjs');

test('an MCP server that needs sign-in says "Sign in to remote"; after the person signs in in their browser it says who and runs', async ({
  lemming,
}, testInfo) => {
  const server = await startSignInServer();
  // The harness's handlers run in this process: the "browser" they open follows the sign-in page's redirect.
  const browserBefore = process.env.BROWSER;
  process.env.BROWSER = `${process.execPath} ${FOLLOW}`;
  try {
    const org = lemming.copyOfFolder(DEMO_ORG);
    writeFileSync(
      join(org, 'lemming/config/mcp.json'),
      JSON.stringify({ mcpServers: { remote: { url: server.url } } }, null, 2),
    );
    const policyFile = join(org, 'lemming/config/policy.json');
    const policy = existsSync(policyFile) ? JSON.parse(readFileSync(policyFile, 'utf8')) : {};
    writeFileSync(
      policyFile,
      JSON.stringify(
        { ...policy, network: { ...policy.network, enabled: true, private_hosts: ['127.0.0.1'] } },
        null,
        2,
      ),
    );
    await lemming.trustAsIs(org);
    const { page } = lemming;
    await lemming.openOrgAt(org);
    await lemming.showView('Tool Store');

    const card = page.getByRole('listitem', { name: 'remote' });
    await expect(card).toContainText('Waiting for you to sign in');
    await expect(card).toContainText('Its sign-in page opens in your browser.');
    await expect(card).toHaveScreenshot('mcp-card-needs-sign-in.png', { maxDiffPixelRatio: 0.02 });

    await card.getByRole('button', { name: 'Sign in to remote' }).click();
    await expect(card).toContainText('Signed in as ada@example.com');
    await expect(card).toContainText('Running');
    await expect(card.getByRole('list', { name: 'Tools of remote' })).toContainText('whoami');
    await expect(card.getByRole('button', { name: 'Sign in again' })).toBeVisible();
    await page.getByRole('button', { name: 'Dismiss: Signed in to remote as ada@example.com' }).click();
    await page.screenshot({ path: testInfo.outputPath('tool-store-signed-in.png'), fullPage: true });
    await expect(card).toHaveScreenshot('mcp-card-signed-in.png', { maxDiffPixelRatio: 0.02 });
  } finally {
    if (browserBefore === undefined) delete process.env.BROWSER;
    else process.env.BROWSER = browserBefore;
    await server.close();
  }
});
