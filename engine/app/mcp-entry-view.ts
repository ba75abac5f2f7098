import { createHash } from 'node:crypto';
import type { McpEntryView } from '../api/tool-schemas';
import { secretPresence, type SecretStore } from '../secrets/secret-store';
import {
  isStdioServer,
  readMcpConfig,
  secretReferences,
  type McpServerConfig,
} from '../tools/mcp/mcp-config';

/** Changes whenever the entry does: its form sends it back so a change made meanwhile is not written over. */
export function entryRevision(entry: McpServerConfig): string {
  return createHash('sha256').update(JSON.stringify(entry)).digest('hex').slice(0, 32);
}

/** A value is set when it names only stored secrets (a literal value is set as it is). */
function valueIsSet(value: string, hasSecret: (name: string) => boolean): boolean {
  return secretReferences(value).every(hasSecret);
}

export function entryView(entry: McpServerConfig, hasSecret: (name: string) => boolean): McpEntryView {
  const rows = (values: Record<string, string>) =>
    Object.entries(values).map(([name, value]) => ({ name, isSet: valueIsSet(value, hasSecret) }));
  return {
    revision: entryRevision(entry),
    target: isStdioServer(entry)
      ? { kind: 'program', command: entry.command, args: entry.args, env: rows(entry.env) }
      : { kind: 'address', url: entry.url, headers: rows(entry.headers) },
  };
}

/** The org's MCP entries as their edit forms show them, by server name; none while mcp.json is not valid. */
export async function mcpEntryViews(orgPath: string, store: SecretStore): Promise<Map<string, McpEntryView>> {
  const [config, hasSecret] = await Promise.all([readMcpConfig(orgPath), secretPresence(store)]);
  if (!config.ok) return new Map();
  return new Map(
    Object.entries(config.value.servers).map(([name, entry]) => [name, entryView(entry, hasSecret)]),
  );
}

/**
 * What in servers about to be added names one of the person's saved secrets (`${secrets.NAME}`), one
 * sentence each: settings from elsewhere never hand a server a secret by naming it, for the person would
 * not see that they do. Values of their own go to the secret store under the server's own names instead.
 */
export function savedSecretsNamed(
  plan: {
    servers: readonly {
      name: string;
      entry: Record<string, unknown>;
      secrets: readonly { name: string }[];
    }[];
    asks: readonly { server: string; name: string }[];
  },
  from: string,
): string[] {
  return plan.servers.flatMap(({ name, entry, secrets: stored }) => {
    // The secrets the plan stores for the server's values, or asks the person for, are its own.
    const secrets = [...stored, ...plan.asks.filter((ask) => ask.server === name)];
    return (['env', 'headers'] as const).flatMap((where) => {
      const values = entry[where];
      if (typeof values !== 'object' || values === null) return [];
      return Object.entries(values).flatMap(([key, value]) => {
        const named = (typeof value === 'string' ? secretReferences(value) : []).filter(
          (secret) => !secrets.some((own) => own.name === secret),
        );
        return named.length > 0
          ? [
              `${name} names the saved secret ${named.join(', ')} (${where}.${key}); ${from} may not hand a server your saved secrets: put the value itself there`,
            ]
          : [];
      });
    });
  });
}
