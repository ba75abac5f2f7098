import { afterEach, describe, expect, it } from 'vitest';
import { fromMicros } from '../credits/credit-amount';
import { OrgEngine } from '../run/org-engine';
import { DEMO_ORG, tempOrgs } from '../run/test-support/temp-org';
import { trustAsIs } from '../trust/test-support/trust-as-is';
import { departmentSpend, listDepartments, saveDepartment } from './departments';

const orgs = tempOrgs();
const engines: OrgEngine[] = [];
afterEach(async () => {
  for (const engine of engines.splice(0)) await engine.close();
  orgs.cleanup();
});

describe('departments', () => {
  it('are saved with agents the org has, and refused with one it has not', async () => {
    const org = orgs.copy(DEMO_ORG);
    expect(
      await saveDepartment(org, { name: 'desk', description: 'Writes', agents: ['writer', 'ghost'] }),
    ).toMatchObject({
      ok: false,
      error: { code: 'agent_not_found', message: 'The org has no agent named "ghost".' },
    });
    expect(await listDepartments(org)).toEqual({
      ok: true,
      value: { departments: [], problems: [], warnings: [] },
    });
    expect(
      await saveDepartment(org, { name: 'desk', description: 'Writes', agents: ['writer', 'writer'] }),
    ).toMatchObject({
      ok: true,
      value: { name: 'desk', agents: ['writer'] },
    });
  });

  it('have a line of their own in the credits: what their agents spent today and this month', async () => {
    const org = orgs.copy(DEMO_ORG);
    const trust = await trustAsIs(org);
    const engine = await OrgEngine.open({ trust, orgPath: org, env: {} });
    engines.push(engine);
    for (let tick = 0; tick < 3; tick += 1) await engine.runTick();
    await saveDepartment(org, { name: 'desk', description: 'Writes', agents: ['writer', 'researcher'] });
    const spent = (agent: string) =>
      engine.ledger
        .history(agent)
        .filter((entry) => ['turn', 'model_call', 'tool'].includes(entry.kind))
        .reduce((total, entry) => total - entry.amountMicro, 0);
    const expected = fromMicros(spent('writer') + spent('researcher'));
    expect(expected).toBeGreaterThan(0);
    expect(await departmentSpend(org, engine.spending)).toEqual({
      ok: true,
      value: [
        {
          department: 'desk',
          agents: ['writer', 'researcher'],
          spentToday: expected,
          spentThisMonth: expected,
        },
      ],
    });
    const nextMonth = new Date(Date.now() + 40 * 86_400_000);
    expect(await departmentSpend(org, engine.spending, nextMonth)).toMatchObject({
      value: [{ spentToday: 0, spentThisMonth: 0 }],
    });
  });
});
