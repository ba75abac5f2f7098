import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { ComposedTool, ToolSource } from './composed-tool';
import { normalizeAgentClash, normalizeOpenClaw, type Normalized } from './normalize';
import type { Problem } from '../../api/problem';
import { formatFieldPath, type FieldProblem } from './problem';
import { AgentClashPack, detectDialect } from './schema';
import { checkToolSet } from './tool-set';
import { validateComposedTool } from './validate';
import { zodProblems } from './zod-problems';
import { parseYamlSource, type YamlSource } from './yaml-source';
import { agentPaths, inOrg } from '../../org/org-layout';

export interface ComposedToolLoad {
  tools: ComposedTool[];
  problems: Problem[];
}

/** Tool files are small; anything bigger is a mistake, not a tool. */
const MAX_FILE_BYTES = 256 * 1024;
const TOOL_FILE = /\.ya?ml$/i;
// eslint-disable-next-line no-control-regex -- a NUL in a folder name is what this refuses
const AGENT_FOLDER = /^[^/\\\u0000]+$/;

/** A tool folder or file: where it is on disk, and how problems name it (relative to the org). */
interface ToolPlace {
  absolute: string;
  relative: string;
  scope: ToolSource['scope'];
}

/**
 * Loads the org's composed tools (`<org>/tools/*.yaml|yml`) and, when an agent folder is given, that
 * agent's api-tools (`<org>/agents/<folder>/api-tools/*.yaml|yml`). Each file is one OpenClaw api-tool,
 * one AgentClash tool, or an AgentClash `tools: {custom: [...]}` block. A file with problems is
 * reported and its tools skipped; nothing here throws for bad input.
 */
export async function loadComposedTools(orgPath: string, agentFolder?: string): Promise<ComposedToolLoad> {
  const problems: Problem[] = [];
  const folders: ToolPlace[] = [{ absolute: path.join(orgPath, 'tools'), relative: 'tools', scope: 'org' }];
  if (agentFolder !== undefined) {
    if (!AGENT_FOLDER.test(agentFolder) || agentFolder === '.' || agentFolder === '..')
      problems.push({
        file: 'agents',
        field: '',
        message: `${JSON.stringify(agentFolder)} is not an agent folder name`,
      });
    else
      folders.push({
        absolute: inOrg(orgPath, agentPaths(agentFolder).apiTools),
        relative: agentPaths(agentFolder).apiTools,
        scope: 'agent',
      });
  }

  const listed = await Promise.all(folders.map((folder) => listToolFiles(folder)));
  const files = listed.flatMap((listing) => {
    problems.push(...listing.problems);
    return listing.files;
  });
  const loaded = await Promise.all(files.map((file) => loadToolFile(file)));

  const candidates: ComposedTool[] = [];
  const sources = new Map<string, YamlSource>();
  for (const file of loaded) {
    problems.push(...file.problems);
    candidates.push(...file.tools);
    if (file.source) sources.set(file.relative, file.source);
  }
  const checked = checkToolSet(candidates);
  for (const problem of checked.problems)
    problems.push(located(problem.source.file, sources.get(problem.source.file), problem));
  return { tools: checked.tools, problems };
}

async function listToolFiles(folder: ToolPlace): Promise<{ files: ToolPlace[]; problems: Problem[] }> {
  let names: string[];
  try {
    // Synchronous, like the engine's other reads of small org files: see engine/org/read-text-file.ts.
    names = readdirSync(folder.absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return { files: [], problems: [] };
    return {
      files: [],
      problems: [
        { file: folder.relative, field: '', message: `cannot list the folder (${code ?? 'error'})` },
      ],
    };
  }
  const files = names
    .filter((name) => TOOL_FILE.test(name))
    .sort()
    .map((name) => ({
      absolute: path.join(folder.absolute, name),
      relative: `${folder.relative}/${name}`,
      scope: folder.scope,
    }));
  return { files, problems: [] };
}

interface LoadedFile {
  relative: string;
  tools: ComposedTool[];
  problems: Problem[];
  source?: YamlSource;
}

async function loadToolFile(file: ToolPlace): Promise<LoadedFile> {
  const fail = (message: string): LoadedFile => ({
    relative: file.relative,
    tools: [],
    problems: [{ file: file.relative, field: '', message }],
  });
  let text: string;
  try {
    const info = statSync(file.absolute);
    if (!info.isFile()) return fail('is not a regular file');
    if (info.size > MAX_FILE_BYTES)
      return fail(`is ${info.size} bytes; a tool file may be at most ${MAX_FILE_BYTES} bytes`);
    text = readFileSync(file.absolute, 'utf8');
  } catch (error) {
    return fail(`cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }

  const parsed = parseYamlSource(text);
  if (!parsed.ok)
    return {
      relative: file.relative,
      tools: [],
      problems: parsed.error.map((problem) => ({ file: file.relative, field: '', ...problem })),
    };
  const source = parsed.value;
  const normalized = normalizeFile(source.value, file);
  const tools: ComposedTool[] = [];
  const fieldProblems: FieldProblem[] = [...normalized.problems];
  for (const tool of normalized.tools) {
    const toolProblems = validateComposedTool(tool);
    if (toolProblems.length === 0) tools.push(tool);
    fieldProblems.push(...toolProblems);
  }
  return {
    relative: file.relative,
    tools,
    problems: fieldProblems.map((problem) => located(file.relative, source, problem)),
    source,
  };
}

function normalizeFile(
  document: unknown,
  file: ToolPlace,
): { tools: ComposedTool[]; problems: FieldProblem[] } {
  const source = (toolPath: ToolSource['path']): ToolSource => ({
    file: file.relative,
    scope: file.scope,
    path: toolPath,
  });
  const guess = detectDialect(document);
  const collect = (results: readonly Normalized[]) => ({
    tools: results.flatMap((result) => (result.tool ? [result.tool] : [])),
    problems: results.flatMap((result) => result.problems),
  });
  switch (guess.dialect) {
    case null:
      return { tools: [], problems: [{ path: [], message: guess.message }] };
    case 'openclaw':
      return collect([normalizeOpenClaw(document, source([]))]);
    case 'agentclash':
      return collect([normalizeAgentClash(document, source([]))]);
    case 'agentclash-pack': {
      const pack = AgentClashPack.safeParse(document);
      if (!pack.success)
        return { tools: [], problems: zodProblems(pack.error, document, AgentClashPack, []) };
      return collect(
        pack.data.tools.custom.map((entry, index) =>
          normalizeAgentClash(entry, source(['tools', 'custom', index])),
        ),
      );
    }
  }
}

function located(file: string, source: YamlSource | undefined, problem: FieldProblem): Problem {
  const position = source?.locate(problem.path);
  return { file, field: formatFieldPath(problem.path), message: problem.message, ...(position ?? {}) };
}
