import type { z } from 'zod';
import type {
  Connector,
  IpcResult,
  McpPasteInput,
  McpPasteResult,
  McpServerInput,
  McpServerView,
  RestApiInput as RestApiInputSchema,
} from '../../../../engine/api';
import { toast } from '../../components/toast-store';
import { serverState } from '../../server-state/instance';
import { write, type WriteError } from '../../server-state/write';

// The Tool Store's writes, each through the one write helper: it toasts, places a refusal's problems on
// the form's fields, and makes stale what the write changed (the Tool Store's reads follow by themselves).

type RestApiInput = z.input<typeof RestApiInputSchema>;
type FieldOf = (path: string) => string | null;

/** A form's save answers null when saved, else the refusal with its problems placed by the form's `fieldOf`. */
const refusal = <T>(result: { ok: true; value: T } | { ok: false; error: WriteError }): WriteError | null =>
  result.ok ? null : result.error;

/** Resolves once the catalog shows the change, so a toggle the person flipped does not flick back meanwhile. */
export async function setToolEnabled(agent: string, tool: string, enabled: boolean): Promise<void> {
  await write(
    'tools.setEnabled',
    { agent, tool, enabled },
    {
      failure: `Could not ${enabled ? 'enable' : 'disable'} ${tool} for ${agent}`,
      success: ({ tool: verdict }) => ({
        title: `${verdict.title} ${enabled ? 'enabled' : 'disabled'} for ${agent}`,
        ...(enabled && !verdict.available
          ? { detail: verdict.fix?.summary ?? 'It does not reach the model yet.' }
          : {}),
      }),
    },
  );
  await serverState().read('tools.catalog', {});
}

/** `values.private_hosts[1]` → `private_hosts`. */
const connectorFieldOf: FieldOf = (path) => /^values\.([^.[]+)/.exec(path)?.[1] ?? null;

export async function saveConnectorSettings(
  connector: Connector,
  values: Record<string, string | number | boolean | string[] | null>,
): Promise<WriteError | null> {
  return refusal(
    await write(
      'connectors.setConfig',
      { connector: connector.id, values },
      {
        failure: `Could not save the settings of ${connector.name}`,
        success: `Saved the settings of ${connector.name}`,
        fieldOf: connectorFieldOf,
      },
    ),
  );
}

export async function saveRestApi(input: RestApiInput, fieldOf: FieldOf): Promise<WriteError | null> {
  return refusal(
    await write('connectors.saveRestApi', input, {
      failure: `Could not save ${input.name || 'the REST API'}`,
      success: (saved) => `Saved ${saved.name}`,
      fieldOf,
    }),
  );
}

export async function removeRestApi(name: string): Promise<boolean> {
  const removed = await write(
    'connectors.removeRestApi',
    { name },
    { failure: `Could not remove ${name}`, success: `Removed ${name}` },
  );
  return removed.ok;
}

export async function saveMcpServer(input: McpServerInput, fieldOf: FieldOf): Promise<WriteError | null> {
  return refusal(
    await write('connectors.saveMcpServer', input, {
      failure: `Could not save ${input.name || 'the server'}`,
      success: (saved) => (input.opened ? `Saved ${saved.name}` : `Added ${saved.name}`),
      fieldOf,
    }),
  );
}

/** Adds the MCP servers of pasted settings; the answer as it came, for the dialog to ask or tell. */
export async function pasteMcpServers(input: McpPasteInput): Promise<IpcResult<McpPasteResult>> {
  const result = await serverState().write('connectors.pasteMcpServers', input);
  if (result.ok && result.value.imported.length > 0)
    toast.success(`Added ${result.value.imported.join(', ')}`);
  return result;
}

export async function removeMcpServer(name: string): Promise<boolean> {
  const removed = await write(
    'connectors.removeMcpServer',
    { name },
    { failure: `Could not remove ${name}`, success: `Removed ${name}` },
  );
  return removed.ok;
}

/** Trusts (or stops trusting) what an MCP server says about which of its tools only read. */
export async function trustMcpHints(server: McpServerView, trusted: boolean): Promise<void> {
  await write(
    'connectors.trustMcpHints',
    { server: server.server, identity: server.identity, trusted },
    {
      failure: `Could not change what you trust about ${server.server}`,
      success: trusted
        ? `Trusting what ${server.server} says about its tools`
        : `Every call of ${server.server}'s tools asks you first`,
    },
  );
}

/** Lets (or stops letting) an MCP server ask the models of the agents using it; the server starts again. */
export async function allowMcpSampling(server: McpServerView, allowed: boolean): Promise<void> {
  await write(
    'connectors.allowMcpSampling',
    { server: server.server, identity: server.identity, allowed },
    {
      failure: `Could not change whether ${server.server} may ask your models`,
      success: allowed
        ? `${server.server} may ask your models`
        : `${server.server} may no longer ask your models`,
    },
  );
}

/** Signs in to an MCP server over HTTP: its sign-in page opens in the person's browser; resolves when done or failed. */
export async function signInToMcp(server: McpServerView): Promise<void> {
  await write(
    'connectors.signIn',
    { server: server.server },
    {
      progress: `Signing in to ${server.server}…`,
      failure: `Could not sign in to ${server.server}`,
      success: (answer) => {
        const signIn = answer.mcp?.signIn;
        return signIn?.signedIn
          ? `Signed in to ${server.server}${signIn.subject ? ` as ${signIn.subject}` : ''}`
          : `${server.server} did not finish the sign-in`;
      },
    },
  );
}

export async function setSecret(name: string, value: string): Promise<boolean> {
  const saved = await write(
    'secrets.set',
    { name, value },
    {
      failure: `Could not save ${name}`,
      success: (answer) => (answer.existed ? `Replaced ${name}` : `Saved ${name}`),
    },
  );
  return saved.ok;
}

export async function deleteSecret(name: string): Promise<boolean> {
  const deleted = await write(
    'secrets.delete',
    { name },
    { failure: `Could not delete ${name}`, success: `Deleted ${name}` },
  );
  return deleted.ok;
}
