import { describe, expect, it } from 'vitest';
import { TOOLS_PROFILES } from '../../api/agent-schemas';
import type { ToolSpec } from '../tool-spec';
import { profileTools, resolveToolsProfile, TOOL_PROFILES } from './profiles';

describe('resolveToolsProfile', () => {
  it('means LeMMing file tools when the resume sets no profile, and takes an explicit profile as it is', () => {
    expect(resolveToolsProfile(undefined, 'gpt-5.3-codex')).toBe('lemming');
    expect(resolveToolsProfile('lemming', 'gpt-5.3-codex')).toBe('lemming');
    expect(resolveToolsProfile('gemini', 'gpt-5.3-codex')).toBe('gemini');
    expect(resolveToolsProfile('codex', 'gemini-3.1-pro-preview')).toBe('codex');
    expect(resolveToolsProfile('model-agnostic', 'gpt-5.4')).toBe('model-agnostic');
  });

  it.each([
    ['gpt-5.4-mini', 'model-agnostic'],
    ['chatgpt-gpt-5.3-codex-spark', 'codex'],
    ['gemini-3.1-pro-preview', 'gemini'],
    ['gpt-5.3-codex', 'codex'],
    ['codex-mini-latest', 'codex'],
    ['gpt-5.6', 'codex'],
    ['gpt-5.6-pro', 'codex'],
    ['chatgpt-gpt-5.6-mini', 'codex'],
    ['gpt-5.5', 'codex'],
    ['gpt-5.5-fast', 'codex'],
    ['gpt-5.4', 'codex'],
    ['gpt-5.4-fast', 'codex'],
    ['chatgpt-gpt-5.4', 'codex'],
    ['gpt-5.5-mini', 'model-agnostic'],
    ['gpt-5.41', 'model-agnostic'],
    ['experimental-chatgpt-anything', 'codex'],
    ['gemini-2.5-flash', 'gemini'],
    ['gemini2', 'model-agnostic'],
    ['claude-sonnet-4-5', 'model-agnostic'],
    ['llama3.1:8b', 'model-agnostic'],
    ['', 'model-agnostic'],
    ['openai/gpt-5.4', 'codex'],
    ['google/gemini-2.5-pro', 'gemini'],
    ['openrouter/openai/gpt-5.1-codex', 'codex'],
  ])('auto resolves %j to %s', (model, profile) => {
    expect(resolveToolsProfile('auto', model)).toBe(profile);
  });

  it('covers every tools_profile a resume may hold', () => {
    for (const setting of TOOLS_PROFILES)
      expect(['lemming', 'codex', 'gemini', 'model-agnostic']).toContain(resolveToolsProfile(setting, 'x'));
  });
});

describe('the profiles', () => {
  const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);

  it('codex: apply_patch (freeform), read_file, list_dir, grep_files', () => {
    expect(names(TOOL_PROFILES.codex)).toEqual(['apply_patch', 'read_file', 'list_dir', 'grep_files']);
    expect(TOOL_PROFILES.codex.filter((tool) => tool.freeform).map((tool) => tool.name)).toEqual([
      'apply_patch',
    ]);
  });

  it('gemini and model-agnostic: the same six JSON tools', () => {
    const gemini = ['read_file', 'write_file', 'replace', 'list_directory', 'grep_search', 'glob'];
    expect(names(TOOL_PROFILES.gemini)).toEqual(gemini);
    expect(TOOL_PROFILES['model-agnostic']).toEqual(TOOL_PROFILES.gemini);
    expect(TOOL_PROFILES.gemini.some((tool) => tool.freeform)).toBe(false);
  });

  it('splits each profile into read tools and write tools, together exactly the profile', () => {
    expect(names(profileTools('codex').read)).toEqual(['read_file', 'list_dir', 'grep_files']);
    expect(names(profileTools('codex').write)).toEqual(['apply_patch']);
    expect(names(profileTools('gemini').read)).toEqual([
      'read_file',
      'list_directory',
      'grep_search',
      'glob',
    ]);
    expect(names(profileTools('gemini').write)).toEqual(['write_file', 'replace']);
    for (const profile of ['codex', 'gemini', 'model-agnostic'] as const) {
      const { read, write } = profileTools(profile);
      expect([...read, ...write].sort((a, b) => a.name.localeCompare(b.name))).toEqual(
        [...TOOL_PROFILES[profile]].sort((a, b) => a.name.localeCompare(b.name)),
      );
    }
  });

  it('gives every tool kind file, a title, and a JSON schema object without $schema', () => {
    const specs: readonly ToolSpec[] = [...TOOL_PROFILES.codex, ...TOOL_PROFILES.gemini];
    for (const tool of specs) {
      expect(tool.kind).toBe('file');
      expect(tool.title.length).toBeGreaterThan(0);
      expect(tool.definition.name).toBe(tool.name);
      expect(tool.definition.parameters).toMatchObject({ type: 'object', additionalProperties: false });
      expect(tool.definition.parameters).not.toHaveProperty('$schema');
      expect(JSON.stringify(tool.definition.parameters)).not.toContain(String(Number.MAX_SAFE_INTEGER));
    }
  });
});
