import { basename } from 'node:path';
import { createOrgIn } from '../../engine/app/create-org';
import { exportBundle, previewBundle } from '../../engine/app/bundle-export';
import { importBundle, readBundleOrigin } from '../../engine/app/bundle-import';
import type { Channel, ChannelOutput, ChannelParsedInput } from '../../engine/api/contract';
import { ok, type IpcResult } from '../../engine/api/result';
import type { AppInfo } from '../../engine/api/schemas';
import type { BundleExportResult } from '../../engine/api/bundle-schemas';
import { fileAccessPreview, getAgent, schedulePreview, updateAgent } from '../../engine/app/agents';
import {
  answerApproval,
  approvalSettings,
  pendingApprovals,
  setApprovalMode,
  setApprovalTimeout,
} from '../../engine/app/approvals';
import { testConnection } from '../../engine/app/connection-test';
import {
  importMcpServers,
  listConnectors,
  setConnectorConfig,
  signInToMcpServer,
  trustMcpHints,
  allowMcpSampling,
} from '../../engine/app/connectors';
import { pasteMcpServers, removeMcpServer, saveMcpServer } from '../../engine/app/mcp-servers';
import { removeRestApi, saveRestApi } from '../../engine/app/rest-apis';
import { creditBalances, creditHistory } from '../../engine/app/credits';
import { departmentSpend, listDepartments, saveDepartment } from '../../engine/app/departments';
import { applyOrgUpdate, planOrgUpdate } from '../../engine/app/org-update';
import { prepareDemoOrg } from '../../engine/app/demo-org';
import { createOrgFromTemplate, templateGallery } from '../../engine/app/templates';
import { savePositions } from '../../engine/app/layout-file';
import {
  addModelWithKey,
  detectLocalServers,
  listServerModels,
  probeModel,
  setModelKey,
  type SetupDeps,
} from '../../engine/app/model-setup';
import { agentMemory, editMemory } from '../../engine/app/memory';
import { listModels, updateModels } from '../../engine/app/models';
import { agentList, orgStatus, sendMessage, topUp } from '../../engine/app/org';
import { resumeBudget } from '../../engine/app/budgets';
import { agentInbox } from '../../engine/app/agent-inbox';
import { readerOf } from '../../engine/app/org-reader';
import { orgStatusReport } from '../../engine/app/org-status';
import { createAgent, removeAgent, restoreAgent } from '../../engine/app/org-directory';
import { orgGraph } from '../../engine/app/org-graph';
import { asResult, startRun, stepRun } from '../../engine/app/run';
import { deleteSecret, listSecrets, setSecret } from '../../engine/app/secrets';
import { acceptTrust, grantToOrg, keepingTrust, revokeTrust, trustState } from '../../engine/app/trust';
import { MODELS_FILE } from '../../engine/models/models-file';
import { readSettings, updateSettings } from '../../engine/app/settings';
import {
  exportTimeline,
  importTimeline,
  timelineAttachment,
  timelineEvent,
  timelineFacets,
  timelinePage,
} from '../../engine/app/timeline';
import { runReadiness } from '../../engine/app/run-readiness';
import { agentTurns, tickTurns, turnDetail } from '../../engine/app/turn-inspector';
import { rehearsalDetail } from '../../engine/app/rehearsal-inspector';
import { rehearse } from '../../engine/app/rehearse';
import { humanInboxPage, humanUnread, markHumanRead, replyToMessage } from '../../engine/app/human-inbox';
import { applyToolFix, explainTools, setToolEnabled, toolsCatalog } from '../../engine/app/tools';
import type { EngineHost } from '../engine-host/engine-host';
import type { OrgSession } from '../engine-host/org-session';
import type { UpdateChannel } from '../updates/update-handlers';
import type { DesktopChannel } from '../desktop/desktop-handlers';

export type Handlers = {
  [C in Channel]: (input: ChannelParsedInput<C>) => Promise<IpcResult<ChannelOutput<C>>>;
};

/** The folder dialog's title, and whether it asks for an empty folder and offers to make one. */
export interface FolderPick {
  title?: string;
  forNewOrg?: boolean;
}

export interface HandlerDeps {
  appInfo: () => AppInfo;
  /** The system folder picker in the app; the test harness supplies its own. */
  pickFolder: (request: FolderPick) => Promise<string | null>;
  /** The system save dialog for a timeline export; null when the user cancels. */
  pickExportFile: (suggestedName: string) => Promise<string | null>;
  /** The system open dialog for a file to import (a JSON Lines timeline, or a bundle); null when the user cancels. */
  pickImportFile: (kind?: 'timeline' | 'bundle') => Promise<string | null>;
  /**
   * Opens a sign-in page in the person's browser: Electron's shell.openExternal in the app; without it,
   * the program BROWSER names or the system's own (what the CLI does).
   */
  openInBrowser?: (url: URL) => Promise<void>;
  host: EngineHost;
}

/**
 * The main-process side of every channel, on top of the engine host. Nothing here imports Electron,
 * so the renderer test harness runs these same handlers in the test process.
 */
/** Every channel but the app's updates and desktop preferences, which main answers itself (main/updates, main/desktop). */
export type EngineHandlers = Omit<Handlers, UpdateChannel | DesktopChannel>;

export function createHandlers(deps: HandlerDeps): EngineHandlers {
  const { host } = deps;
  const inOrg = <T>(work: (session: OrgSession) => Promise<IpcResult<T>>) => host.withSession(work);
  /** After a change to agents or to what their state is decided from: the org graph and agent views reload. */
  const agentsChanged = <T>(result: IpcResult<T>, names: string[] = []): IpcResult<T> => {
    if (result.ok) host.events.emit('agents.changed', { names });
    return result;
  };

  /** What the model setup form and a connection test may use: only what the open org was granted, as its runs. */
  const setupDeps = async (session: OrgSession): Promise<SetupDeps> => {
    const granted = await host.grantedTo(session.orgPath);
    return {
      orgPath: session.orgPath,
      resolveSecret: granted.secret,
      env: granted.variables,
      refusal: granted.refusal,
      programEnv: host.options.env ?? {},
    };
  };

  return {
    'app.info': async () => ok(deps.appInfo()),

    'org.pickFolder': async ({ forNewOrg }) =>
      ok({ path: await deps.pickFolder({ forNewOrg: forNewOrg ?? false }) }),
    'org.open': async ({ path }) => {
      const opened = await host.open(path);
      return opened.ok ? ok(opened.value.summary) : opened;
    },
    'org.create': async ({ path }) => {
      const created = await createOrgIn(path, host.trust);
      if (!created.ok) return created;
      const opened = await host.open(created.value.path);
      return opened.ok ? ok(opened.value.summary) : opened;
    },
    'org.agents': () => inOrg((session) => agentList(session)),
    'org.summary': () => inOrg((session) => orgStatus(session)),
    'org.status': () => inOrg((session) => orgStatusReport(readerOf(session))),
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
    'memory.get': ({ agent }) => inOrg((session) => agentMemory(session, agent)),
    'memory.edit': (input) => inOrg((session) => editMemory(session, input)),

    'tools.catalog': () => inOrg((session) => toolsCatalog(session)),
    'tools.explain': ({ agent }) => inOrg((session) => explainTools(session, agent)),
    'tools.applyFix': (input) =>
      inOrg(async (session) => agentsChanged(await applyToolFix(session, input), [input.agent])),
    'tools.setEnabled': (input) =>
      inOrg(async (session) => agentsChanged(await setToolEnabled(session, input), [input.agent])),

    'approvals.pending': () => inOrg(async (session) => pendingApprovals(session.approvals)),
    'approvals.answer': (input) => inOrg(async (session) => answerApproval(session.approvals, input)),
    'approvals.settings': () => inOrg((session) => approvalSettings(session)),
    'approvals.setMode': (input) => inOrg((session) => setApprovalMode(session, input)),
    'approvals.setTimeout': (input) => inOrg((session) => setApprovalTimeout(session, input)),

    'connectors.list': () => inOrg((session) => listConnectors(session)),
    'connectors.setConfig': (input) => inOrg((session) => setConnectorConfig(session, input)),
    'connectors.saveRestApi': (input) => inOrg((session) => saveRestApi(session, input)),
    'connectors.removeRestApi': (input) => inOrg((session) => removeRestApi(session, input)),
    'connectors.importMcp': (input) => inOrg((session) => importMcpServers(session, input)),
    'connectors.saveMcpServer': (input) => inOrg((session) => saveMcpServer(session, input)),
    'connectors.pasteMcpServers': (input) => inOrg((session) => pasteMcpServers(session, input)),
    'connectors.removeMcpServer': (input) => inOrg((session) => removeMcpServer(session, input)),
    'connectors.trustMcpHints': (input) => inOrg((session) => trustMcpHints(session, input)),
    'connectors.allowMcpSampling': (input) => inOrg((session) => allowMcpSampling(session, input)),
    'connectors.signIn': (input) => inOrg((session) => signInToMcpServer(session, input, deps.openInBrowser)),

    'trust.state': () => inOrg((session) => trustState(session)),
    'trust.accept': (input) => inOrg(async (session) => agentsChanged(await acceptTrust(session, input))),
    'trust.revoke': () => inOrg(async (session) => agentsChanged(await revokeTrust(session))),
    'trust.grant': (input) => inOrg(async (session) => agentsChanged(await grantToOrg(session, input))),

    'secrets.list': () => listSecrets(host.secrets, host.current()),
    // A key set or removed may make agents ready or keep them from running.
    'secrets.set': async ({ name, value }) => agentsChanged(await setSecret(host.secrets, name, value)),
    'secrets.delete': async ({ name }) => agentsChanged(await deleteSecret(host.secrets, name)),

    'timeline.page': (query) => inOrg(async (session) => ok(timelinePage(session.engine.timeline, query))),
    'timeline.get': ({ seq }) => inOrg(async (session) => timelineEvent(session.engine.timeline, seq)),
    'timeline.attachment': ({ sha256 }) => inOrg((session) => timelineAttachment(session.orgPath, sha256)),
    'timeline.facets': () => inOrg(async (session) => ok(timelineFacets(session.engine.timeline))),
    'timeline.export': ({ filter }) =>
      inOrg((session) =>
        exportTimeline(
          session.engine.timeline,
          filter ?? {},
          () => deps.pickExportFile('timeline.jsonl'),
          host.jobs,
        ),
      ),
    'jobs.cancel': async ({ id }) => ok({ cancelled: host.jobs.cancel(id) }),
    'timeline.import': () =>
      inOrg(async (session) => {
        const imported = await importTimeline(session.engine.timeline, deps.pickImportFile, host.jobs);
        session.timelineGrew();
        return imported;
      }),

    'bundle.preview': (input) =>
      inOrg((session) => previewBundle({ orgPath: session.orgPath, secrets: host.secrets.store }, input)),
    'bundle.export': (input) =>
      inOrg(async (session): Promise<IpcResult<BundleExportResult>> => {
        const file = await deps.pickExportFile(`${basename(session.orgPath)}.lemming.zip`);
        if (!file) return ok({ path: null, files: 0, leftOut: [], secrets: [] });
        const written = await exportBundle(
          { orgPath: session.orgPath, secrets: host.secrets.store },
          file,
          input,
        );
        if (!written.ok) return written;
        const { files, leftOut, secrets } = written.value;
        return ok({ path: file, files: files.length, leftOut, secrets });
      }),
    'bundle.import': async ({ into }) => {
      const context = { secrets: host.secrets.store, trust: host.trust };
      if (into)
        return inOrg(async (session) => {
          const file = await deps.pickImportFile('bundle');
          if (!file) return ok(null);
          const imported = await importBundle(context, file, { kind: 'into', orgPath: session.orgPath });
          return imported.ok ? agentsChanged(imported) : imported;
        });
      const file = await deps.pickImportFile('bundle');
      const folder = file
        ? await deps.pickFolder({
            title: 'Choose an empty folder for the org from the bundle',
            forNewOrg: true,
          })
        : null;
      if (!file || !folder) return ok(null);
      return importBundle(context, file, { kind: 'new', folder });
    },
    'bundle.origin': () => inOrg(async (session) => ok({ origin: await readBundleOrigin(session.orgPath) })),

    'inspector.turn': ({ agent, tick }) =>
      inOrg(async (session) => turnDetail(session.engine.timeline, agent, tick)),
    'inspector.tick': ({ tick }) => inOrg(async (session) => ok(tickTurns(session.engine.timeline, tick))),
    'inspector.agentTurns': ({ agent }) =>
      inOrg(async (session) => ok(agentTurns(session.engine.timeline, agent))),
    'inspector.rehearsal': ({ seq }) =>
      inOrg(async (session) => rehearsalDetail(session.engine.timeline, seq)),
    'agent.rehearse': (input) => inOrg((session) => rehearse(session, input)),

    'inbox.page': (query) => inOrg((session) => humanInboxPage(session, query)),
    'inbox.unread': () => inOrg((session) => humanUnread(session)),
    'inbox.markRead': (input) => inOrg((session) => markHumanRead(session, input)),
    'inbox.reply': (input) => inOrg((session) => replyToMessage(session, input)),

    'run.start': (input) => inOrg((session) => startRun(session, input)),
    'run.pause': () => inOrg(async (session) => asResult(session.controller.pause())),
    'run.resume': () => inOrg(async (session) => asResult(session.controller.resume())),
    'run.step': () => inOrg((session) => stepRun(session)),
    'run.stop': () => inOrg(async (session) => asResult(session.controller.stop())),
    'run.state': () => inOrg(async (session) => ok(await session.controller.refresh())),
    'run.readiness': () => inOrg((session) => runReadiness(session)),

    'departments.list': () => inOrg((session) => listDepartments(session.orgPath)),
    'departments.save': (input) => inOrg((session) => saveDepartment(session.orgPath, input)),
    'departments.spend': () => inOrg((session) => departmentSpend(session.orgPath, session.engine.spending)),
    'org.updatePlan': (input) =>
      inOrg((session) => planOrgUpdate(session.orgPath, input, host.options.templatesFolder)),
    'org.updateApply': (input) =>
      inOrg(async (session) => {
        const applied = await applyOrgUpdate(session, input);
        return applied.ok ? agentsChanged(applied) : applied;
      }),
    'credits.balances': () => inOrg((session) => creditBalances(session)),
    'credits.history': (input) => inOrg(async (session) => ok(creditHistory(session, input))),
    'credits.topUp': (input) =>
      inOrg(async (session) => {
        const result = await topUp(session, input);
        session.timelineGrew();
        return agentsChanged(result, [input.agent]);
      }),
    'credits.resume': (input) =>
      inOrg(async (session) => {
        const result = await resumeBudget(session, input);
        session.timelineGrew();
        return agentsChanged(result, [input.agent]);
      }),

    'messages.send': (input) => inOrg((session) => sendMessage(session, input)),
    'messages.inbox': ({ agent }) => inOrg((session) => agentInbox(readerOf(session), agent)),

    'settings.get': () => inOrg((session) => readSettings(session.orgPath, host.secretStore)),
    'settings.update': (input) =>
      inOrg(async (session) => agentsChanged(await updateSettings(session.orgPath, host.secretStore, input))),
    'settings.testConnection': ({ model }) =>
      inOrg(async (session) =>
        testConnection(model, { ...(await setupDeps(session)), engine: session.engine }),
      ),

    'models.list': () => inOrg(async (session) => ok(await listModels(session.orgPath, host.secretStore))),
    'models.update': (input) =>
      inOrg(async (session) => {
        const updated = await keepingTrust(session, [MODELS_FILE], () =>
          updateModels(session.orgPath, input),
        );
        return updated.ok ? agentsChanged(ok(await listModels(session.orgPath, host.secretStore))) : updated;
      }),

    'models.serverModels': (input) =>
      inOrg(async (session) => ok(await listServerModels(input, await setupDeps(session)))),
    'models.probe': (input) =>
      inOrg(async (session) => ok(await probeModel(input, await setupDeps(session)))),
    'models.add': (input) =>
      inOrg(async (session) => {
        const added = await keepingTrust(session, [MODELS_FILE], () =>
          addModelWithKey(input, {
            secrets: host.secretStore,
            org: session,
            saveModel: (key, patch) => updateModels(session.orgPath, { action: 'set', key, patch }),
          }),
        );
        if (!added.ok) return added;
        await host.reloadSecrets();
        return agentsChanged(ok(await listModels(session.orgPath, host.secretStore)));
      }),
    'models.setKey': (input) =>
      inOrg(async (session) => {
        const set = await keepingTrust(session, [MODELS_FILE], () =>
          setModelKey(input, {
            secrets: host.secretStore,
            org: session,
            nameKeySecret: (key, secret) =>
              updateModels(session.orgPath, { action: 'set', key, patch: { api_key_secret: secret } }),
          }),
        );
        if (!set.ok) return set;
        await host.reloadSecrets();
        return agentsChanged(ok(await listModels(session.orgPath, host.secretStore)));
      }),
    'models.detectLocal': () =>
      inOrg(async (session) => ok(await detectLocalServers(await setupDeps(session)))),

    'templates.gallery': () => templateGallery(host.options.templatesFolder),
    'templates.create': async ({ template, path }) => {
      const created = await createOrgFromTemplate(host.options.templatesFolder, template, path);
      if (!created.ok) return created;
      const opened = await host.open(created.value.path);
      return opened.ok ? ok(opened.value.summary) : opened;
    },

    'firstRun.openDemo': async ({ fresh }) => {
      const demo = await prepareDemoOrg(
        host.options.demoOrgSource,
        host.options.userOrgsFolder,
        fresh ?? false,
        host.trust,
      );
      const opened = await host.open(demo.path);
      return opened.ok ? ok({ ...opened.value.summary, created: demo.created }) : opened;
    },
  };
}
