import { afterEach, describe, expect, it } from 'vitest';
import { OrgEngine } from '../../run/org-engine';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { trustAsIs } from '../../trust/test-support/trust-as-is';
import { referenceServers } from './test-support/reference-servers';

const orgs = tempOrgs();
const engines: OrgEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) {
    await engine.stopMcpServers();
    engine.close();
  }
  orgs.cleanup();
});

async function everything() {
  const org = orgs.build({
    'lemming/config/mcp.json': { mcpServers: { everything: referenceServers.everything() } },
    'agents/ada/resume.json': resume('ada', {
      permissions: { read_outboxes: [], tools: ['group:mcp:everything'] },
    }),
  });
  const engine = await OrgEngine.open({ trust: await trustAsIs(org), orgPath: org, env: {} });
  engines.push(engine);
  return (tool: string, args: Record<string, unknown>) =>
    engine.callTool('ada', `mcp__everything__${tool}`, args);
}

describe('an MCP result as the reference server gives it', { timeout: 60_000 }, () => {
  it('keeps structured content as given, beside its text', async () => {
    const call = await everything();
    const result = await call('get-structured-content', { location: 'New York' });
    expect(result.success).toBe(true);
    expect(result.structured).toMatchObject({
      temperature: expect.any(Number),
      conditions: expect.any(String),
    });
  });

  it('shows resource links and embedded resources with their URI, name and type', async () => {
    const call = await everything();
    const links = await call('get-resource-links', { count: 2 });
    expect(links.output).toContain(
      '[resource link: demo://resource/dynamic/text/2 (Text Resource 2), text/plain — Resource 2: plaintext resource]',
    );
    const embedded = await call('get-resource-reference', { resourceType: 'Text', resourceId: 3 });
    expect(embedded.output).toMatch(/\[resource: demo:\/\/resource\/dynamic\/text\/3, text\/plain\]\n/);
  });

  it('refers to an image by type and size, its bytes kept apart', async () => {
    const call = await everything();
    const result = await call('get-tiny-image', {});
    expect(result.output).toMatch(/\[image: image\/png, \d+ bytes\]/);
    expect(result.attachments).toEqual([
      {
        kind: 'image',
        mime_type: 'image/png',
        bytes: expect.any(Number),
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    expect(result).not.toHaveProperty('media');
  });
});
