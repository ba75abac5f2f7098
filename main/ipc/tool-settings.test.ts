import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stockToolFile } from '../../engine/tools/test-support/stock-tool';
import { DEMO_ORG, ipcHarnesses, valueOf } from './test-support/ipc-harness';

const harnesses = ipcHarnesses();
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) server.close();
  await harnesses.cleanup();
});

const KEY = 'sk-stock-4Fh8Jq1Lz6Np';

describe("a composed tool's own settings", () => {
  it('a base-URL setting is saved in the org, checked at its field, and used when the tool is called; its key stays a secret', async () => {
    const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
    const server = createServer((request, response) => {
      seen.push({ url: request.url ?? '', headers: request.headers });
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"in_stock":3}');
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const host = `127.0.0.1:${(server.address() as AddressInfo).port}`;

    const harness = await harnesses.create();
    const org = harness.copy(DEMO_ORG);
    mkdirSync(join(org, 'tools'));
    writeFileSync(join(org, 'tools', 'stock.yaml'), stockToolFile(host));
    writeFileSync(
      join(org, 'lemming', 'config', 'policy.json'),
      JSON.stringify({ network: { enabled: true, private_hosts: [host] } }),
    );
    valueOf(await harness.dispatch('org.open', { path: org }));
    await harness.trustOpenOrg();
    const settingsFile = join(org, 'lemming', 'config', 'tool-settings.json');

    const refused = await harness.dispatch('connectors.setConfig', {
      connector: 'composed:org:stock_level',
      values: { STOCK_URL: `http://${host}/v1` },
    });
    expect(refused).toMatchObject({ ok: false, error: { issues: [{ path: 'values.STOCK_URL' }] } });
    expect(existsSync(settingsFile)).toBe(false);

    const saved = valueOf<{ settings: Record<string, unknown>; secrets: { name: string; isSet: boolean }[] }>(
      await harness.dispatch('connectors.setConfig', {
        connector: 'composed:org:stock_level',
        values: { STOCK_URL: ` http://${host} `, STOCK_KEY: KEY },
      }),
    );
    expect(saved.settings).toEqual({ STOCK_URL: `http://${host}` });
    expect(saved.secrets).toEqual([{ name: 'STOCK_KEY', description: 'used by Stock level', isSet: true }]);
    expect(readFileSync(settingsFile, 'utf8')).toBe(
      `${JSON.stringify({ settings: { STOCK_URL: `http://${host}` } }, null, 2)}\n`,
    );
    expect(readFileSync(harness.secretsFile, 'utf8')).toContain(KEY);

    valueOf(
      await harness.dispatch('tools.setEnabled', { agent: 'writer', tool: 'stock_level', enabled: true }),
    );
    const result = await harness.host.current()!.engine.callTool('writer', 'stock_level', { sku: 'A1' });
    expect(result).toMatchObject({ success: true });
    expect(seen.map((request) => [request.url, request.headers['x-api-key']])).toEqual([
      ['/v1/items/A1', KEY],
    ]);
    expect(JSON.stringify(harness.responses.map((entry) => entry.response))).not.toContain(KEY);
  });
});
