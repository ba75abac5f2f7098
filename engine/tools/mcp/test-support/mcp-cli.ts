import { runCli } from '../../../cli/test-support/run-cli';

/** Runs the `lemming` command in this process, as a user would type it; PATH is passed on. */
export function lemming(argv: string[], env: Record<string, string> = {}) {
  return runCli(argv, { env: { PATH: process.env.PATH ?? '', ...env } });
}

/**
 * `lemming trust <org> --yes` (with `--grant` for each secret): the person trusts the org as it is now,
 * as they must before its MCP servers start. Returns the org.
 */
export async function trustOrg(org: string, secrets: readonly string[] = []): Promise<string> {
  const trusted = await lemming(['trust', org, '--yes', ...secrets.flatMap((name) => ['--grant', name])]);
  if (trusted.code !== 0) throw new Error(`lemming trust failed: ${trusted.stderr}`);
  return org;
}

/** models.json for agents on the scripted model, reading `script.json` in the org. */
export const SCRIPTED_MODELS = {
  scripted: { provider: 'scripted', model_name: 's', provider_config: { script: 'script.json' } },
};

/** A script in which every agent calls one tool in its first round and stops in its second. */
export function callOnce(tool: string, args: Record<string, unknown>) {
  return {
    default: [
      { when: { round: 1 }, respond: { tool_calls: [{ id: 'c1', name: tool, arguments: args }] } },
      { respond: { outbox_entries: [], notes: 'done' } },
    ],
  };
}
