import type { PolicyChange } from '../api/tool-schemas';
import { KIND_WORDS, kindsInWords } from '../api/tool-kind-words';
import type { ToolKind } from './tool-spec';

/**
 * The policy resolver's verdicts and fixes in words for people: no file, field or tool id, only what
 * the person sees in the app (tool titles, agent names, "the whole org"). The technical form, with the
 * files and fields, stays the resolver's `reason` and the fix's `summary` (what the CLI prints).
 */

/** Looks a tool's title up by its name; an unknown tool keeps its name, in quotes. */
export type TitleOf = (tool: string) => string;

export const plainWords = {
  notGranted: 'it is switched off for this agent',
  granted: 'it is switched on for this agent',
  deniedByOrg: 'the org has turned it off for every agent',
  notDenied: 'the org has not turned it off',
  kindNotAllowed: (kind: ToolKind) => `the org does not allow ${KIND_WORDS[kind]} tools`,
  networkOff: 'internet access is off for this org',
  agentKindsOnly: (kinds: readonly string[]) => `this agent may use only ${kindsInWords(kinds)} tools`,
  kindAllowed: (kind: ToolKind) => `${KIND_WORDS[kind]} tools are allowed`,
  delegateDenied: (title: string) => `it uses “${title}”, which the org has turned off for every agent`,
  delegateChainAllowed: 'the tools it uses are allowed',
  delegateNotGranted: (title: string) => `it uses “${title}”, which this agent is not given`,
  delegateGranted: (title: string) => `it uses “${title}”, which this agent may use`,
  notReady: 'it is not set up yet',
  ready: 'it is set up',
  creditsLater: 'it gets its credits at its first turn',
  creditsLeft: (credits: number) => `${credits} credits left`,
  noCredits: 'the agent has no credits left',
} as const;

/** What one change does, for people: which switch it flips, for whom. */
export function plainChange(change: PolicyChange, agent: string, titleOf: TitleOf): string {
  switch (change.kind) {
    case 'grant_tool': {
      const [tool, primitive] = change.tool.split(' via ');
      return primitive === undefined
        ? `switch “${titleOf(change.tool)}” on for ${agent}`
        : `let “${titleOf(tool ?? '')}” use “${titleOf(primitive)}” for ${agent} (and nothing else)`;
    }
    case 'undeny_tool':
      return `stop turning “${titleOf(change.tool)}” off for the whole org`;
    case 'allow_org_kind':
      return `allow ${KIND_WORDS[change.toolKind]} tools for the whole org`;
    case 'enable_network':
      return 'turn internet access on for the org';
    case 'allow_agent_kind':
      return `allow ${KIND_WORDS[change.toolKind]} tools for ${agent}`;
    case 'top_up_credits':
      return `give ${agent} more credits`;
    case 'make_ready':
      return 'finish setting it up in the Tool Store';
  }
}
