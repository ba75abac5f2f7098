import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ORG_POLICY } from '../org/policy-file';
import { TurnMemory } from '../memory/turn-memory';
import { parsedResume } from '../run/test-support/temp-org';
import { createRedactor } from '../secrets/redactor';
import { agentToolbox } from './agent-toolbox';
import { memoryReadTool } from './lemming-core-tools';
import { TOOL_GROUPS, type CatalogEntry } from './tool-catalog';
import { toolSuccess } from './tool-result';
import type { ToolSpec } from './tool-spec';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A tool that may change things: it rings a bell, counted in `rings`. */
function bell() {
  const rang = { rings: 0 };
  const spec: ToolSpec = {
    name: 'ring_bell',
    kind: 'org',
    title: 'Ring the bell',
    definition: { name: 'ring_bell', description: 'Ring', parameters: { type: 'object' } },
    run: async () => {
      rang.rings += 1;
      return toolSuccess('rang');
    },
  };
  return { spec, rang };
}

function toolsWith(specs: ToolSpec[]) {
  const orgPath = mkdtempSync(join(tmpdir(), 'lemming-intent-org-'));
  made.push(orgPath);
  const agentDir = join(orgPath, 'agents', 'ada');
  const catalog: CatalogEntry[] = specs.map((spec) => ({
    spec,
    grantedBy: [spec.name, TOOL_GROUPS[spec.kind]],
    readiness: { ready: true },
  }));
  return agentToolbox({
    policy: DEFAULT_ORG_POLICY,
    credits: 10,
    catalog: () => catalog,
    redaction: createRedactor(),
  })({
    orgPath,
    agentDir,
    resume: parsedResume('ada', {
      permissions: { read_outboxes: [], tools: specs.map((spec) => spec.name) },
    }),
    tick: 1,
    memory: new TurnMemory(agentDir),
    agents: [{ name: 'ada', title: 'Ada' }],
    budget: { availableMicro: () => 10_000_000, charge: () => undefined },
  });
}

describe('the toolbox before a call that may change things', () => {
  it('says so right before the call runs, and not for a call that only reads', async () => {
    const { spec, rang } = bell();
    const tools = toolsWith([spec, memoryReadTool]);
    const ringsWhenTold: number[] = [];
    expect(await tools.call('ring_bell', {}, () => ringsWhenTold.push(rang.rings))).toMatchObject({
      success: true,
    });
    expect(ringsWhenTold).toEqual([0]);
    expect(rang.rings).toBe(1);

    let toldForRead = false;
    await tools.call('memory_read', { key: 'plan' }, () => (toldForRead = true));
    expect(toldForRead).toBe(false);
  });

  it('does not run the call when what it was told could not be recorded, and says why', async () => {
    const { spec, rang } = bell();
    const tools = toolsWith([spec]);
    const result = await tools.call('ring_bell', {}, () => {
      throw new Error('database or disk is full');
    });
    expect(result).toEqual({
      success: false,
      output: null,
      error:
        "Tool 'ring_bell' was not run: the app could not record that it was about to run (database or disk is full).",
    });
    expect(rang.rings).toBe(0);
  });
});
