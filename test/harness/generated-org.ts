import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Adds generated agents to a copy of the demo org until it has `total`: each reads one to three agents
 * placed before it, on schedules of one to three ticks. Returns the org folder.
 */
export function addGeneratedAgents(org: string, total: number): string {
  const names = ['human', 'manager', 'researcher', 'writer'];
  for (let index = names.length; index < total; index += 1) {
    const name = `agent_${String(index).padStart(2, '0')}`;
    const reads = [names[index % 4]!, names[Math.floor(index / 2)]!, names[index - 1]!].filter(
      (value, position, all) => all.indexOf(value) === position && value !== 'human',
    );
    mkdirSync(join(org, 'agents', name), { recursive: true });
    writeFileSync(
      join(org, 'agents', name, 'resume.json'),
      JSON.stringify({
        name,
        title: `Specialist ${index}`,
        short_description: 'A generated agent',
        workflow_description: 'Reads its team and reports.',
        instructions: 'Report what you read.',
        model: { key: 'demo-scripted' },
        permissions: { read_outboxes: reads.slice(0, 1 + (index % 3)), tools: [], send_outboxes: [] },
        schedule: { run_every_n_ticks: 1 + (index % 3), phase_offset: index % 2 },
        credits: { max_credits: 10, soft_cap: 5 },
      }),
    );
    names.push(name);
  }
  return org;
}
