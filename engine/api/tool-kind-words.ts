import type { ToolKind } from './agent-schemas';

/** A tool kind as a person would say it ("internet tools", not "network tools"); the app and the resolver's plain words use it. */
export const KIND_WORDS: Record<ToolKind, string> = {
  file: 'file',
  shell: 'shell',
  network: 'internet',
  memory: 'memory',
  org: 'organization',
  mcp: 'add-on',
};

/** Kinds by their words, "no" for none; a kind the app does not know keeps its own name. */
export const kindsInWords = (kinds: readonly string[]): string =>
  kinds.length === 0
    ? 'no'
    : kinds.map((kind) => (kind in KIND_WORDS ? KIND_WORDS[kind as ToolKind] : kind)).join(', ');
