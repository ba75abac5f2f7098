import type { Channel, ChannelOutput, ChannelParsedInput } from '../../engine/api/contract';
import { ok, type IpcResult } from '../../engine/api/result';
import { outboxFileName } from '../../engine/messages/outbox-entry';
import type { AppInfo } from '../../engine/api/schemas';
import { openOrg } from '../../engine/org/open-org';
import { fileAccessPreview, getAgent, schedulePreview, updateAgent } from '../engine-host/agent-service';
import { testConnection } from '../engine-host/connection-test';
import { listConnectors, setConnectorConfig } from '../engine-host/connectors-service';
import { creditBalances, creditHistory } from '../engine-host/credits-service';
import { prepareDemoOrg } from '../engine-host/demo-org';
import type { EngineHost } from '../engine-host/engine-host';
import { savePositions } from '../engine-host/layout-file';
import { addModelWithKey, detectLocalServers, listServerModels, probeModel } from '../../engine/models/setup/model-setup';
import { listModels, updateModels } from '../engine-host/models-service';
import { createAgent, removeAgent, restoreAgent } from '../engine-host/org-directory';
import { orgGraph } from '../engine-host/org-graph';
import type { OrgSession } from '../engine-host/org-session';
import { asResult, startRun } from '../engine-host/run-service';
import { deleteSecret, listSecrets, setSecret } from '../engine-host/secrets-service';
import { readSettings, updateSettings } from '../engine-host/settings-service';
import { exportTimeline, timelineEvent, timelineFacets, timelinePage } from '../engine-host/timeline-service';
import { applyToolFix, explainTools, setToolEnabled, toolsCatalog } from '../engine-host/tool-service';

export type Handlers = {
  [C in Channel]: (input: ChannelParsedInput<C>) => Promise<IpcResult<ChannelOutput<C>>>;
};

export interface HandlerDeps {
  appInfo: () => AppInfo;
  /** The system folder picker in the app; the test harness supplies its own. */
  pickFolder: () => Promise<string | null>;
  /** The system save dialog for a timeline export; null when the user cancels. */
  pickExportFile: (suggestedName: string) => Promise<string | null>;
  host: EngineHost;
}

/**
 * The main-process side of every channel, on top of the engine host. Nothing here imports Electron,
 * so the renderer test harness runs these same handlers in the test process.
 */
export function createHandlers(deps: HandlerDeps): Handlers {
  const { host } = deps;
  const inOrg = <T>(work: (session: OrgSession) => Promise<IpcResult<T>>) => host.withSession(work);
  /** After a change to agents: the org graph and agent views reload. */
  const agentsChanged = <T>(result: IpcResult<T>, names: string[] = []): IpcResult<T> => {
    if (result.ok) host.events.emit('agents.changed', { names });
    return result;
  };

  const setupDeps = (session: OrgSession) => ({
    orgPath: session.orgPath,
    resolveSecret: (name: string) => host.resolveSecret(name),
    env: host.options.env ?? {},
  });

  return {
    'app.info': async () => ok(deps.appInfo()),

    'org.pickFolder': async () => ok({ path: await deps.pickFolder() }),
    'org.open': async ({ path }) => {
      const opened = await host.open(path);
      return opened.ok ? ok(opened.value.summary) : opened;
    },
    'org.agents': () => inOrg(async (session) => ok((await openOrg(session.orgPath)).agents)),
    'org.summary': () =>
      inOrg(async (session) => {
        const { summary } = await openOrg(session.orgPath);
        const run = await session.controller.refresh();
        return ok({
          ...summary,
          nextTick: run.nextTick,
          latestSeq: session.engine.timeline.latestSeq(),
          run,
        });
      }),
    'org.close': async () => ok({ closed: await host.close() }),
    'org.graph': () => inOrg(async (session) => ok(await orgGraph(session, host.options.logError))),
    'org.savePositions': ({ positions }) =>
      inOrg(async (session) => ok({ saved: await savePositions(session.orgPath, positions) })),
    'org.createAgent': (input) => inOrg(async (session) => agentsChanged(await createAgent(session, input))),
    'org.removeAgent': ({ agent }) =>
      inOrg(async (session) => agentsChanged(await removeAgent(session, agent))),
    'org.restoreAgent': ({ removedId }) =>
      inOrg(async (session) => agentsChanged(await restoreAgent(session, removedId))),

    'agent.get': ({ agent }) => inOrg((session) => getAgent(session, agent)),
    'agent.update': (input) =>
      inOrg(async (session) => {
        const updated = await updateAgent(session, input);
        return updated.ok ? agentsChanged(updated, [updated.value.name]) : updated;
      }),
    'agent.schedulePreview': async (input) =>
      ok(schedulePreview(input, host.current()?.controller.state().nextTick ?? null)),
    'agent.fileAccessPreview': (input) => inOrg((session) => fileAccessPreview(session, input)),

    'tools.catalog': () => inOrg((session) => toolsCatalog(session, host.secretStore)),
    'tools.explain': ({ agent }) => inOrg((session) => explainTools(session, agent)),
    'tools.applyFix': (input) =>
      inOrg(async (session) => agentsChanged(await applyToolFix(session, input), [input.agent])),
    'tools.setEnabled': (input) =>
      inOrg(async (session) => agentsChanged(await setToolEnabled(session, input), [input.agent])),

    'connectors.list': () => inOrg((session) => listConnectors(host, session)),
    'connectors.setConfig': (input) => inOrg((session) => setConnectorConfig(host, session, input)),

    'secrets.list': () => listSecrets(host),
    'secrets.set': ({ name, value }) => setSecret(host, name, value),
    'secrets.delete': ({ name }) => deleteSecret(host, name),

    'timeline.page': (query) => inOrg(async (session) => ok(timelinePage(session.engine.timeline, query))),
    'timeline.get': ({ seq }) => inOrg(async (session) => timelineEvent(session.engine.timeline, seq)),
    'timeline.facets': () => inOrg(async (session) => ok(timelineFacets(session.engine.timeline))),
    'timeline.export': ({ filter }) =>
      inOrg((session) =>
        exportTimeline(session.engine.timeline, filter ?? {}, () => deps.pickExportFile('timeline.jsonl')),
      ),

    'run.start': (input) => inOrg((session) => startRun(session, input)),
    'run.pause': () => inOrg(async (session) => asResult(session.controller.pause())),
    'run.resume': () => inOrg(async (session) => asResult(session.controller.resume())),
    'run.step': () => inOrg(async (session) => asResult(await session.controller.step())),
    'run.stop': () => inOrg(async (session) => asResult(session.controller.stop())),
    'run.state': () => inOrg(async (session) => ok(await session.controller.refresh())),

    'credits.balances': () => inOrg((session) => creditBalances(session)),
    'credits.history': (input) => inOrg(async (session) => ok(creditHistory(session, input))),
    'credits.topUp': ({ agent, amount }) =>
      inOrg(async (session) => {
        const balance = await session.engine.topUp(agent, amount);
        session.timelineGrew();
        return agentsChanged(ok({ agent, balance }), [agent]);
      }),

    'messages.send': ({ text, importance, target }) =>
      inOrg(async (session) => {
        const entry = await session.engine.sendHumanMessage(text, {
          ...(importance ? { importance } : {}),
          target: target ?? null,
        });
        return ok({ id: entry.id, tick: entry.tick, file: `agents/human/outbox/${outboxFileName(entry)}` });
      }),

    'settings.get': () => inOrg((session) => readSettings(session.orgPath, host.secretStore)),
    'settings.update': (input) =>
      inOrg((session) => updateSettings(session.orgPath, host.secretStore, input)),
    'settings.testConnection': ({ model }) =>
      inOrg((session) =>
        testConnection(model, {
          orgPath: session.orgPath,
          resolveSecret: (name) => host.resolveSecret(name),
          env: host.options.env ?? {},
        }),
      ),

    'models.list': () => inOrg(async (session) => ok(await listModels(session.orgPath, host.secretStore))),
    'models.update': (input) =>
      inOrg(async (session) => {
        const updated = await updateModels(session.orgPath, input);
        return updated.ok ? ok(await listModels(session.orgPath, host.secretStore)) : updated;
      }),

    'models.serverModels': (input) => inOrg(async (session) => ok(await listServerModels(input, setupDeps(session)))),
    'models.probe': (input) => inOrg(async (session) => ok(await probeModel(input, setupDeps(session)))),
    'models.add': (input) =>
      inOrg(async (session) => {
        const added = await addModelWithKey(input, {
          secrets: host.secretStore,
          saveModel: (key, patch) => updateModels(session.orgPath, { action: 'set', key, patch }),
        });
        if (!added.ok) return added;
        await host.reloadSecrets();
        return ok(await listModels(session.orgPath, host.secretStore));
      }),
    'models.detectLocal': () => inOrg(async (session) => ok(await detectLocalServers(setupDeps(session)))),

    'firstRun.openDemo': async ({ fresh }) => {
      const demo = await prepareDemoOrg(
        host.options.demoOrgSource,
        host.options.userOrgsFolder,
        fresh ?? false,
      );
      const opened = await host.open(demo.path);
      return opened.ok ? ok({ ...opened.value.summary, created: demo.created }) : opened;
    },
  };
}
