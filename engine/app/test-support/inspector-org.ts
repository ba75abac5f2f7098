import { OrgEngine } from '../../run/org-engine';
import { resume, type tempOrgs } from '../../run/test-support/temp-org';
import { trustAsIs } from '../../trust/test-support/trust-as-is';

/**
 * An org whose clerk, at tick 1, calls two tools (memory_write succeeds, file_read of a missing file
 * fails), then answers the human; a herald sends a note to everyone; the human reads only the clerk.
 */
export function buildInspectorOrg(orgs: ReturnType<typeof tempOrgs>): string {
  return orgs.build({
    'lemming/config/models.json': {
      scripted: {
        provider: 'scripted',
        model_name: 's',
        provider_config: {
          script: 'script.json',
          prices: { input_per_million: 1000, output_per_million: 4000 },
        },
      },
    },
    'script.json': {
      agents: {
        clerk: [
          {
            when: { tick: 1, round: 1 },
            respond: {
              tool_calls: [
                { tool: 'memory_write', args: { key: 'ledger', value: 'two entries' } },
                { tool: 'file_read', args: { path: 'missing.txt' } },
              ],
              notes: 'Writing the ledger and reading the missing file.',
            },
          },
          {
            when: { tick: 1, round: 2 },
            respond: {
              outbox_entries: [
                {
                  kind: 'report',
                  payload: { text: 'The ledger is written; missing.txt is not there.' },
                  to: ['human'],
                },
              ],
              notes: 'Reported to the human.',
            },
          },
          { respond: { notes: 'Nothing to do.' } },
        ],
        herald: [
          {
            when: { tick: 1 },
            respond: { outbox_entries: [{ kind: 'note', payload: { text: 'Hear ye' } }] },
          },
          { respond: { notes: 'Quiet.' } },
        ],
      },
    },
    'agents/human/resume.json': resume('human', {
      model: { key: 'none' },
      permissions: { read_outboxes: ['clerk'], tools: [] },
      schedule: { run_every_n_ticks: 999999, phase_offset: 0 },
    }),
    'agents/clerk/resume.json': resume('clerk', {
      permissions: { read_outboxes: ['human'], tools: ['memory_write', 'file_read'] },
      credits: { max_credits: 50, soft_cap: 50 },
    }),
    'agents/herald/resume.json': resume('herald', {
      permissions: { read_outboxes: [], tools: [] },
      credits: { max_credits: 50, soft_cap: 50 },
    }),
  });
}

/** The human asks the clerk for the ledger, then the engine runs `ticks` ticks of the org. */
export async function runInspectorOrg(org: string, ticks: number): Promise<void> {
  const engine = await OrgEngine.open({
    trust: await trustAsIs(org),
    orgPath: org,
    env: {},
  });
  try {
    await engine.sendHumanMessage('Please keep the ledger.', { target: 'clerk' });
    for (let tick = 0; tick < ticks; tick += 1) await engine.runTick();
  } finally {
    engine.close();
  }
}
