import type { TOOLS_PROFILES } from '../../api/agent-schemas';
import { codexApplyPatchTool } from './codex/apply-patch';
import { codexGrepFilesTool } from './codex/grep-files';
import { codexListDirTool } from './codex/list-dir';
import { codexReadFileTool } from './codex/read-file';
import { geminiGlobTool } from './gemini/glob';
import { geminiGrepSearchTool } from './gemini/grep-search';
import { geminiListDirectoryTool } from './gemini/list-directory';
import { geminiReadFileTool } from './gemini/read-file';
import { geminiReplaceTool } from './gemini/replace';
import { geminiWriteFileTool } from './gemini/write-file';
import type { FsProfileTool } from './shared/fs-tool';

/** A resume's `tools_profile`. */
export type ToolsProfileSetting = (typeof TOOLS_PROFILES)[number];
/** What a setting comes to for one model: LeMMing's own file tools, or one of the profiles here. */
export type ResolvedToolsProfile = Exclude<ToolsProfileSetting, 'auto'>;
export type FsToolProfile = Exclude<ResolvedToolsProfile, 'lemming'>;

/** A profile's tools split by what they do, for the policy: LeMMing's file_read/file_list grant `read`, file_write `write`. */
export interface ProfileTools {
  read: readonly FsProfileTool[];
  write: readonly FsProfileTool[];
}

const CODEX: ProfileTools = {
  read: [codexReadFileTool, codexListDirTool, codexGrepFilesTool],
  write: [codexApplyPatchTool],
};

const GEMINI: ProfileTools = {
  read: [geminiReadFileTool, geminiListDirectoryTool, geminiGrepSearchTool, geminiGlobTool],
  write: [geminiWriteFileTool, geminiReplaceTool],
};

const GEMINI_TOOLS = [
  geminiReadFileTool,
  geminiWriteFileTool,
  geminiReplaceTool,
  geminiListDirectoryTool,
  geminiGrepSearchTool,
  geminiGlobTool,
];

/** Every tool of each profile, in the anchors' order. `model-agnostic` has gemini's tools. */
export const TOOL_PROFILES: Readonly<Record<FsToolProfile, readonly FsProfileTool[]>> = {
  codex: [codexApplyPatchTool, codexReadFileTool, codexListDirTool, codexGrepFilesTool],
  gemini: GEMINI_TOOLS,
  'model-agnostic': GEMINI_TOOLS,
};

export function profileTools(profile: FsToolProfile): ProfileTools {
  return profile === 'codex' ? CODEX : GEMINI;
}

/** Codex models that are not named "codex" but were trained on the codex tools (@ljoukov/llm's list). */
const CODEX_MODEL_IDS: ReadonlySet<string> = new Set(['gpt-5.5', 'gpt-5.5-fast', 'gpt-5.4', 'gpt-5.4-fast']);

/**
 * The file tools an agent gets: its resume's `tools_profile` (no setting means LeMMing's own tools),
 * with `auto` chosen from the model id as @ljoukov/llm does. A leading `chatgpt-` is ignored; the id
 * is codex's if it contains "codex", starts with "gpt-5.6" or "experimental-chatgpt-", or is one of
 * gpt-5.5, gpt-5.5-fast, gpt-5.4 and gpt-5.4-fast; gemini's if it starts with "gemini-"; otherwise
 * model-agnostic. An id with a vendor prefix (`openai/gpt-5.4`, as routers such as OpenRouter write
 * them) is judged by the part after the last "/".
 */
export function resolveToolsProfile(
  profile: ToolsProfileSetting | undefined,
  modelId: string,
): ResolvedToolsProfile {
  if (profile === undefined) return 'lemming';
  if (profile !== 'auto') return profile;
  const model = modelId.slice(modelId.lastIndexOf('/') + 1);
  if (isCodexModel(model)) return 'codex';
  if (model.startsWith('gemini-')) return 'gemini';
  return 'model-agnostic';
}

function isCodexModel(model: string): boolean {
  if (model.startsWith('experimental-chatgpt-')) return true;
  const id = model.startsWith('chatgpt-') ? model.slice('chatgpt-'.length) : model;
  return id.includes('codex') || id.startsWith('gpt-5.6') || CODEX_MODEL_IDS.has(id);
}
