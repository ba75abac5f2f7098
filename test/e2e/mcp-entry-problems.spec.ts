import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_ORG, REPO_ROOT, expect, test } from '../harness/lemming-fixture';

const everything = {
  type: 'stdio',
  command: process.execPath,
  args: [join(REPO_ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
};

test("one bad entry of mcp.json (VS Code's spelling) is a problem on its own card; the server beside it runs", async ({
  lemming,
}, testInfo) => {
  const org = lemming.copyOfFolder(DEMO_ORG);
  writeFileSync(
    join(org, 'lemming/config/mcp.json'),
    JSON.stringify({ servers: { everything, broken: { type: 'sse', command: 'npx' } } }, null, 2),
  );
  await lemming.trustAsIs(org);
  await lemming.openOrgAt(org);
  await lemming.showView('Tool Store');
  const { page } = lemming;

  const running = page.getByRole('listitem', { name: 'everything' });
  await expect(running).toContainText('Running');
  await expect(running.getByRole('list', { name: 'Tools of everything' })).toContainText('Echoes back');

  const broken = page.getByRole('listitem', { name: 'broken' });
  await expect(broken).toContainText('Failed');
  await expect(broken).toContainText('it was not started: its settings have a problem');
  // No switch about trusting what a server says: nothing was started to say anything.
  await expect(broken.getByRole('switch')).toHaveCount(0);
  await broken.getByText('Advanced: what is wrong with its settings').click();
  await expect(broken).toContainText(
    'lemming/config/mcp.json:12:15 (servers.broken.type): type "sse" reaches a server at a URL: give "url", or write "type": "stdio" to start a program',
  );
  await page.screenshot({ path: testInfo.outputPath('mcp-entry-problem.png'), fullPage: true });
  await broken.screenshot({ path: testInfo.outputPath('mcp-entry-problem-card.png') });
});
