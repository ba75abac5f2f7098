import { create } from 'zustand';
import type { z } from 'zod';
import type {
  Connector,
  ConnectorList,
  IpcError,
  IpcResult,
  McpPasteInput,
  McpPasteResult,
  McpServerInput,
  McpServerView,
  RestApiInput as RestApiInputSchema,
  SecretListItem,
  ToolsCatalog,
} from '../../../../engine/api';
import { toast } from '../../components/toast-store';
import { lemming } from '../../lemming';

type RestApiInput = z.input<typeof RestApiInputSchema>;

type Loaded = {
  catalog: ToolsCatalog;
  connectors: z.output<typeof ConnectorList>;
  secrets: SecretListItem[];
};

interface ToolStoreStore {
  state: { status: 'loading' } | { status: 'failed'; message: string } | ({ status: 'loaded' } & Loaded);
  load(): Promise<void>;
  setEnabled(agent: string, tool: string, enabled: boolean): Promise<void>;
  /** Saves non-secret settings; null when they were saved, else why not (its issues name the fields). */
  saveSettings(
    connector: Connector,
    values: Record<string, string | number | boolean | string[] | null>,
  ): Promise<IpcError | null>;
  /** Adds or changes a REST API connector; null when saved, else why not (its issues name the fields). */
  saveRestApi(input: RestApiInput): Promise<IpcError | null>;
  removeRestApi(name: string): Promise<boolean>;
  /** Adds or changes an MCP server; null when saved, else why not (its issues name the fields). */
  saveMcpServer(input: McpServerInput): Promise<IpcError | null>;
  /** Adds the MCP servers of pasted settings; the answer as it came, for the dialog to ask or tell. */
  pasteMcpServers(input: McpPasteInput): Promise<IpcResult<McpPasteResult>>;
  removeMcpServer(name: string): Promise<boolean>;
  /** Trusts (or stops trusting) what an MCP server says about which of its tools only read. */
  trustMcpHints(server: McpServerView, trusted: boolean): Promise<void>;
  /** Lets (or stops letting) an MCP server ask the models of the agents using it; the server starts again. */
  allowMcpSampling(server: McpServerView, allowed: boolean): Promise<void>;
  /** Signs in to an MCP server over HTTP: its sign-in page opens in the person's browser; resolves when done or failed. */
  signInToMcp(server: McpServerView): Promise<void>;
  setSecret(name: string, value: string): Promise<boolean>;
  deleteSecret(name: string): Promise<boolean>;
}

export const useToolStore = create<ToolStoreStore>((set, get) => ({
  state: { status: 'loading' },

  async load() {
    const [catalog, connectors, secrets] = await Promise.all([
      lemming().tools.catalog(),
      lemming().connectors.list(),
      lemming().secrets.list(),
    ]);
    if (!catalog.ok) return set({ state: { status: 'failed', message: catalog.error.message } });
    if (!connectors.ok) return set({ state: { status: 'failed', message: connectors.error.message } });
    if (!secrets.ok) return set({ state: { status: 'failed', message: secrets.error.message } });
    set({
      state: {
        status: 'loaded',
        catalog: catalog.value,
        connectors: connectors.value,
        secrets: secrets.value.secrets,
      },
    });
  },

  async setEnabled(agent, tool, enabled) {
    const result = await lemming().tools.setEnabled({ agent, tool, enabled });
    if (!result.ok)
      return void toast.error(
        `Could not ${enabled ? 'enable' : 'disable'} ${tool} for ${agent}`,
        result.error,
      );
    const verdict = result.value.tool;
    toast.success(
      `${verdict.title} ${enabled ? 'enabled' : 'disabled'} for ${agent}`,
      enabled && !verdict.available
        ? (verdict.fix?.summary ?? 'It does not reach the model yet.')
        : undefined,
    );
    await get().load();
  },

  async saveSettings(connector, values) {
    const result = await lemming().connectors.setConfig({ connector: connector.id, values });
    if (!result.ok) {
      if (!result.error.issues?.some((issue) => issue.path.startsWith('values.')))
        toast.error(`Could not save the settings of ${connector.name}`, result.error);
      return result.error;
    }
    toast.success(`Saved the settings of ${connector.name}`);
    await get().load();
    return null;
  },

  async saveRestApi(input) {
    const result = await lemming().connectors.saveRestApi(input);
    if (!result.ok) {
      if (!result.error.issues?.length)
        toast.error(`Could not save ${input.name || 'the REST API'}`, result.error);
      return result.error;
    }
    toast.success(`Saved ${result.value.name}`);
    await get().load();
    return null;
  },

  async removeRestApi(name) {
    const result = await lemming().connectors.removeRestApi({ name });
    if (!result.ok) {
      toast.error(`Could not remove ${name}`, result.error);
      return false;
    }
    toast.success(`Removed ${name}`);
    await get().load();
    return true;
  },

  async saveMcpServer(input) {
    const result = await lemming().connectors.saveMcpServer(input);
    if (!result.ok) {
      if (!result.error.issues?.length)
        toast.error(`Could not save ${input.name || 'the server'}`, result.error);
      return result.error;
    }
    toast.success(input.opened ? `Saved ${result.value.name}` : `Added ${result.value.name}`);
    await get().load();
    return null;
  },

  async pasteMcpServers(input) {
    const result = await lemming().connectors.pasteMcpServers(input);
    if (result.ok && result.value.imported.length > 0) {
      toast.success(`Added ${result.value.imported.join(', ')}`);
      await get().load();
    }
    return result;
  },

  async removeMcpServer(name) {
    const result = await lemming().connectors.removeMcpServer({ name });
    if (!result.ok) {
      toast.error(`Could not remove ${name}`, result.error);
      return false;
    }
    toast.success(`Removed ${name}`);
    await get().load();
    return true;
  },

  async trustMcpHints(server, trusted) {
    const result = await lemming().connectors.trustMcpHints({
      server: server.server,
      identity: server.identity,
      trusted,
    });
    if (!result.ok) {
      toast.error(`Could not change what you trust about ${server.server}`, result.error);
      await get().load();
      return;
    }
    toast.success(
      trusted
        ? `Trusting what ${server.server} says about its tools`
        : `Every call of ${server.server}'s tools asks you first`,
    );
    await get().load();
  },

  async allowMcpSampling(server, allowed) {
    const result = await lemming().connectors.allowMcpSampling({
      server: server.server,
      identity: server.identity,
      allowed,
    });
    if (!result.ok) {
      toast.error(`Could not change whether ${server.server} may ask your models`, result.error);
      await get().load();
      return;
    }
    toast.success(
      allowed ? `${server.server} may ask your models` : `${server.server} may no longer ask your models`,
    );
    await get().load();
  },

  async signInToMcp(server) {
    const result = await lemming().connectors.signIn({ server: server.server });
    if (!result.ok) toast.error(`Could not sign in to ${server.server}`, result.error);
    else {
      const signIn = result.value.mcp?.signIn;
      toast.success(
        signIn?.signedIn
          ? `Signed in to ${server.server}${signIn.subject ? ` as ${signIn.subject}` : ''}`
          : `${server.server} did not finish the sign-in`,
      );
    }
    await get().load();
  },

  async setSecret(name, value) {
    const result = await lemming().secrets.set({ name, value });
    if (!result.ok) {
      toast.error(`Could not save ${name}`, result.error);
      return false;
    }
    toast.success(result.value.existed ? `Replaced ${name}` : `Saved ${name}`);
    await get().load();
    return true;
  },

  async deleteSecret(name) {
    const result = await lemming().secrets.delete({ name });
    if (!result.ok) {
      toast.error(`Could not delete ${name}`, result.error);
      return false;
    }
    toast.success(`Deleted ${name}`);
    await get().load();
    return true;
  },
}));
