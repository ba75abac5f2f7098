import type { AppInfo, AgentListItem } from '../../engine/api/schemas';
import type { Channel, ChannelOutput, ChannelParsedInput } from '../../engine/api/contract';
import { fail, ok, type IpcResult } from '../../engine/api/result';
import { openOrg, OrgNotFoundError } from '../../engine/org/open-org';

export type Handlers = {
  [C in Channel]: (input: ChannelParsedInput<C>) => Promise<IpcResult<ChannelOutput<C>>>;
};

export interface HandlerDeps {
  appInfo: () => AppInfo;
  /** The system folder picker in the app; the test harness supplies its own. */
  pickFolder: () => Promise<string | null>;
}

/**
 * The main-process side of every channel. Nothing here imports Electron, so the renderer test harness
 * runs these same handlers in the test process.
 */
export function createHandlers(deps: HandlerDeps): Handlers {
  let currentAgents: AgentListItem[] | null = null;

  return {
    'app.info': async () => ok(deps.appInfo()),

    'org.pickFolder': async () => ok({ path: await deps.pickFolder() }),

    'org.open': async ({ path }) => {
      try {
        const org = await openOrg(path);
        currentAgents = org.agents;
        return ok(org.summary);
      } catch (error) {
        if (error instanceof OrgNotFoundError) return fail('org_not_found', error.message);
        throw error;
      }
    },

    'org.agents': async () =>
      currentAgents ? ok(currentAgents) : fail('no_org_open', 'Open an org folder first.'),
  };
}
