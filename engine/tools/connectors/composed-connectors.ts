import { bodyTemplates, isHttpCall, type ComposedTool } from '../composed/composed-tool';
import { placeholdersOf } from '../composed/placeholders';
import { baseUrlSetting } from '../composed/validate';
import { loadComposedTools } from '../composed/loader';
import type { Problem } from '../../api/problem';
import { requiredSecrets } from '../composed/secrets';
import { delegationChain } from '../composed/tool-set';
import type { ToolKind } from '../tool-spec';
import { BUILTIN_CONNECTORS } from './builtin-connectors';
import type { BrokenToolFile, ComposedConnectorInput } from './catalog';
import { agentPaths } from '../../org/org-layout';

/** Spreads into ConnectorCatalogInput. */
export interface ComposedConnectors {
  composed: ComposedConnectorInput[];
  brokenFiles: BrokenToolFile[];
  /** The problems that kept tools out, each located in its file (what brokenFiles words per file). */
  problems: Problem[];
}

/**
 * The org's composed tools (`tools/*.yaml`) and each agent's own (`agents/<folder>/api-tools/*.yaml`)
 * as the connector catalog takes them: with the secrets of every tool on their delegation chain, the
 * kind the chain ends in, and the files whose problems kept tools out.
 */
export async function loadComposedConnectors(
  orgPath: string,
  agentFolders: readonly string[],
): Promise<ComposedConnectors> {
  const orgLoad = await loadComposedTools(orgPath);
  const agentLoads = await Promise.all(
    agentFolders.map(async (folder) => ({ folder, load: await loadComposedTools(orgPath, folder) })),
  );
  const tools = orgLoad.tools.map((tool) => connectorInput(tool, null, orgLoad.tools));
  const problems: { agent: string | null; problem: Problem }[] = orgLoad.problems.map((problem) => ({
    agent: null,
    problem,
  }));
  for (const { folder, load } of agentLoads) {
    for (const tool of load.tools)
      if (tool.source.scope === 'agent') tools.push(connectorInput(tool, folder, load.tools));
    for (const problem of load.problems)
      if (problem.file.startsWith(`${agentPaths(folder).root}/`)) problems.push({ agent: folder, problem });
  }
  return {
    composed: tools,
    brokenFiles: brokenFiles(problems),
    problems: problems.map(({ problem }) => problem),
  };
}

/**
 * The setting a tool's URL starts with (`{{env.BASE_URL}}/path`), unless it is also sent as a
 * credential: the one value of a composed tool that is configuration, not a secret.
 */
function baseUrlSettingName(tool: ComposedTool): string[] {
  if (!isHttpCall(tool.implementation)) return [];
  const base = baseUrlSetting(tool.implementation.url);
  if (base?.kind !== 'config') return [];
  const sentAsCredential = [
    ...tool.implementation.headers.map((header) => header.value),
    ...(tool.implementation.body ? bodyTemplates(tool.implementation.body) : []),
  ].some((template) =>
    placeholdersOf(template).some(
      (placeholder) => placeholder.kind === 'config' && placeholder.name === base.name,
    ),
  );
  return sentAsCredential ? [] : [base.name];
}

const builtinKind = (name: string): ToolKind | undefined =>
  BUILTIN_CONNECTORS.find((connector) => connector.tools.includes(name))?.toolKind;

function connectorInput(
  tool: ComposedTool,
  agent: string | null,
  visible: readonly ComposedTool[],
): ComposedConnectorInput {
  const byName = new Map(visible.map((candidate) => [candidate.name, candidate]));
  const chain = delegationChain(tool, byName).chain.map((name) => byName.get(name) ?? tool);
  const last = chain.at(-1) ?? tool;
  const kind = isHttpCall(last.implementation) ? 'network' : builtinKind(last.implementation.primitive);
  const settings = new Set(chain.flatMap((link) => baseUrlSettingName(link)));
  const secrets = [...new Set(chain.flatMap((link) => requiredSecrets(link)))]
    .filter((name) => !settings.has(name))
    .map((name) => ({ name }));
  return {
    name: tool.name,
    description: tool.description,
    file: tool.source.file,
    agent,
    toolKind: kind ?? 'network',
    secrets,
    ...(settings.size > 0 ? { settings: [...settings] } : {}),
    problems:
      kind === undefined
        ? [
            `${chain.map((link) => link.name).join(' → ')} ends in ${last.implementation.primitive}, which is not a tool here`,
          ]
        : [],
  };
}

function brokenFiles(problems: readonly { agent: string | null; problem: Problem }[]): BrokenToolFile[] {
  const byFile = new Map<string, BrokenToolFile>();
  for (const { agent, problem } of problems) {
    const where = [problem.field, problem.line === undefined ? '' : `line ${problem.line}`]
      .filter(Boolean)
      .join(', ');
    const entry = byFile.get(problem.file) ?? { file: problem.file, agent, problems: [] };
    entry.problems.push(where ? `${where}: ${problem.message}` : problem.message);
    byFile.set(problem.file, entry);
  }
  return [...byFile.values()];
}
