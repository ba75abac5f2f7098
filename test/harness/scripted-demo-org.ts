import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** An agent added to the demo org, run by the scripted model: its resume's words and its steps. */
export interface ScriptedAgent {
  title: string;
  description: string;
  instructions: string;
  tools?: string[];
  /** The scripted model's steps for this agent (see engine/models/scripted-script.ts). */
  steps: unknown[];
}

/**
 * Adds agents to a copy of the demo org (`org`), each answering from one scripted model named `model`.
 * The demo's own models stay, so its agents go on with their story beside these.
 */
export function addScriptedAgents(org: string, model: string, agents: Record<string, ScriptedAgent>): void {
  const write = (path: string, value: unknown) => {
    mkdirSync(join(org, path, '..'), { recursive: true });
    writeFileSync(join(org, path), JSON.stringify(value, null, 2));
  };
  const script = `${model}-script.json`;
  const models = JSON.parse(readFileSync(join(org, 'lemming/config/models.json'), 'utf8')) as object;
  write('lemming/config/models.json', {
    ...models,
    [model]: { provider: 'scripted', model_name: 's', provider_config: { script } },
  });
  write(script, {
    agents: Object.fromEntries(Object.entries(agents).map(([name, agent]) => [name, agent.steps])),
    default: [{ respond: { notes: 'nothing to do' } }],
  });
  for (const [name, agent] of Object.entries(agents))
    write(`agents/${name}/resume.json`, {
      name,
      title: agent.title,
      short_description: agent.description,
      instructions: agent.instructions,
      model: { key: model },
      permissions: { read_outboxes: [], tools: agent.tools ?? [] },
      schedule: { run_every_n_ticks: 1, phase_offset: 0 },
    });
}
