import { afterEach, describe, expect, it } from 'vitest';
import { listConnectors } from '../../app/connectors';
import { orgContextOf } from '../../app/test-support/org-context-of';
import { ApprovalDesk } from '../../app/approvals';
import { OrgEngine } from '../../run/org-engine';
import { resume, tempOrgs } from '../../run/test-support/temp-org';
import { trustAsIs } from '../../trust/test-support/trust-as-is';
import { callOnce, SCRIPTED_MODELS } from './test-support/mcp-cli';
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

/** The reference server "everything" (it offers resources and prompts); ada is granted `tools`. */
async function everything(tools: string[], desk?: ApprovalDesk, script?: unknown) {
  const org = orgs.build({
    'lemming/config/models.json': SCRIPTED_MODELS,
    'lemming/config/mcp.json': { mcpServers: { everything: referenceServers.everything() } },
    ...(script ? { 'script.json': script } : {}),
    'agents/ada/resume.json': resume('ada', { permissions: { read_outboxes: [], tools } }),
  });
  const trust = await trustAsIs(org);
  const engine = await OrgEngine.open({ trust, orgPath: org, env: {}, ...(desk ? { approvals: desk } : {}) });
  engines.push(engine);
  return { engine, context: orgContextOf(engine, trust) };
}

const READER = 'mcp__everything__read_resource';

describe("a server's resources, as one tool that reads them", { timeout: 60_000 }, () => {
  it('lists them without a uri and reads one with it', async () => {
    const { engine } = await everything([READER]);
    const listed = await engine.callTool('ada', READER, {});
    expect(listed.success).toBe(true);
    expect(listed.output).toContain('The resources of everything:');
    expect(listed.output).toMatch(/demo:\/\/resource\/static\/document\/\S+/);
    expect(listed.output).toContain(
      'demo://resource/dynamic/text/{resourceId} — Dynamic Text Resource (a template: fill in the {names})',
    );

    const text = await engine.callTool('ada', READER, { uri: 'demo://resource/dynamic/text/1' });
    expect(text.output).toMatch(/^\[resource: demo:\/\/resource\/dynamic\/text\/1, text\/plain\]\n.+/);
    const missing = await engine.callTool('ada', READER, { uri: 'demo://no/such/thing' });
    expect(missing.success).toBe(false);
    expect(missing.error).toContain(`${READER} failed:`);
  });

  it('is granted like any of its tools: by name or with the server group, and not otherwise', async () => {
    const byGroup = await everything(['group:mcp:everything']);
    expect(
      (await byGroup.engine.explainTools('ada')).find((verdict) => verdict.name === READER)?.available,
    ).toBe(true);
    const other = await everything(['mcp__everything__echo']);
    const refused = await other.engine.callTool('ada', READER, {});
    expect(refused.error).toContain(`Tool '${READER}' not permitted for ada`);
  });

  it('only reads, so an agent uses it without being asked, though its server is not trusted', async () => {
    const desk = new ApprovalDesk(() => {});
    const { engine } = await everything(
      [READER],
      desk,
      callOnce(READER, { uri: 'demo://resource/dynamic/text/2' }),
    );
    await engine.runTick();
    expect(desk.pending()).toEqual([]);
    const results = engine.timeline
      .page({ kinds: ['tool_result'], direction: 'asc', cursor: null, limit: 10 })
      .rows.map((row) => JSON.parse(row.json) as { result: { success: boolean } });
    expect(results.map((row) => row.result.success)).toEqual([true]);
  });

  it('the card says which tool reads its resources and lists its prompts with their arguments', async () => {
    const { context } = await everything([READER]);
    const listed = await listConnectors(context);
    if (!listed.ok) throw new Error(listed.error.message);
    const card = listed.value.connectors.find((connector) => connector.id === 'mcp:everything')!.mcp!;
    expect(card.resourceTool).toBe(READER);
    expect(card.prompts).toContainEqual({
      name: 'args-prompt',
      title: 'Arguments Prompt',
      description: 'A prompt with two arguments, one required and one optional',
      arguments: [
        { name: 'city', description: 'Name of the city', required: true },
        { name: 'state', required: false },
      ],
    });
  });
});
