import { SECRETS_FILE_VARIABLE } from '../../secrets/secrets-file-variable';
import type { Command } from '../command';

/**
 * Every command, in the order `lemming help` lists them. A command's code is loaded only when it runs, so
 * `lemming help` (and a usage error) loads none of the engine.
 */
export const commands: readonly Command[] = [
  {
    name: 'init',
    summary:
      'Create a new org folder that LeMMing and this app can both run (--into-existing adds only what is missing), or one from a template (--list-templates lists them).',
    usage: 'init <folder> [--name NAME] [--into-existing] [--template NAME] [--list-templates]',
    load: async () => (await import('./init')).initCommand,
  },
  {
    name: 'validate',
    summary:
      'Check every resume and config file; lists each problem with its file and field. --strict exits 1 on errors.',
    usage: 'validate <org> [--strict] [--json]',
    load: async () => (await import('./validate')).validateCommand,
  },
  {
    name: 'run',
    summary: 'Run the org for N ticks (default 1), offline-safe; resumes where the last run stopped.',
    usage:
      'run <org> [--ticks N] [--interval SECONDS] [--concurrency N] [--follow] [--json] [--approve TOOL] [--deny TOOL]',
    load: async () => (await import('./run')).runCommand,
  },
  {
    name: 'tick',
    summary: 'Run exactly one tick.',
    usage: 'tick <org> [--json] [--approve TOOL] [--deny TOOL]',
    load: async () => (await import('./run')).tickCommand,
  },
  {
    name: 'approvals',
    summary:
      'List what waits for your answer (turns parked on an approval), oldest first; approve or deny one, and the next tick resumes its turn.',
    usage: 'approvals <org> [approve ID [--always] | deny ID [REASON]] [--json]',
    load: async () => (await import('./approvals')).approvalsCommand,
  },
  {
    name: 'send',
    summary: 'Send a message from the human to the org (agents that read "human" see it).',
    usage:
      'send <org> <text> [--importance normal|high|critical] [--to AGENT] [--json] [--secrets-file PATH]',
    load: async () => (await import('./messages')).sendCommand,
  },
  {
    name: 'status',
    summary: "Show the next tick, each agent's schedule, balance and last turn, and invalid resumes.",
    usage: 'status <org> [--json]',
    load: async () => (await import('./status')).statusCommand,
  },
  {
    name: 'agents',
    summary:
      "List the org's agents, valid or not, with each problem and where it is; with AGENT, that agent's resume, state and balance; --switch-off/--switch-on NAME switches an agent off (it takes no turns) or on.",
    usage: 'agents <org> [AGENT] [--switch-off NAME | --switch-on NAME] [--json]',
    load: async () => (await import('./agents')).agentsCommand,
  },
  {
    name: 'inbox',
    summary: 'Show what an agent will be shown on its next turn: new messages, then earlier ones.',
    usage: 'inbox <org> <agent> [--json]',
    load: async () => (await import('./messages')).inboxCommand,
  },
  {
    name: 'timeline',
    summary: 'List timeline events, newest first, with filters; --json prints each event with its raw JSON.',
    usage:
      'timeline <org> [--agent A]... [--kind K]... [--from TICK] [--to TICK] [--text WORDS (word* for a prefix)] [--limit N] [--cursor SEQ] [--asc] [--json]',
    load: async () => (await import('./timeline')).timelineCommand,
  },
  {
    name: 'turn',
    summary:
      "Show one agent's turn at a tick: the prompt, model calls, tool calls with their results, charges.",
    usage: 'turn <org> <agent> <tick> [--json]',
    load: async () => (await import('./turn')).turnCommand,
  },
  {
    name: 'bundle',
    summary:
      "Export an org (or one department) as a .lemming.zip without secrets or run state; import one as a new org or beside an org's agents (--into); inspect one.",
    usage:
      'bundle export <org> <file.lemming.zip> [--department NAME] [--with memory|outboxes|history|workspaces|everything]... | bundle import <file> <folder> [--into] | bundle inspect <file> [--json] [--secrets-file PATH]',
    load: async () => (await import('./bundle')).bundleCommand,
  },
  {
    name: 'rehearse',
    summary:
      'Rehearse one turn of an agent: its model is called and its reads run, but nothing it would change is done (files, messages, memory, HTTP, shell, MCP tools that do not only read); lists what it would have done.',
    usage: 'rehearse <org> <agent> [--json] [--secrets-file PATH]',
    load: async () => (await import('./rehearse')).rehearseCommand,
  },
  {
    name: 'export',
    summary: "Write the org's timeline (or the filtered part) to a JSON Lines file, one event per line.",
    usage: 'export <org> <file.jsonl> [--agent A]... [--kind K]... [--from TICK] [--to TICK] [--text WORDS]',
    load: async () => (await import('./timeline')).exportCommand,
  },
  {
    name: 'import',
    summary:
      "Append the events of a JSON Lines file to the org's timeline; bad lines are skipped and listed.",
    usage: 'import <org> <file.jsonl> [--json]',
    load: async () => (await import('./timeline')).importCommand,
  },
  {
    name: 'credits',
    summary:
      'Show balances, budgets and recent ledger entries, top an agent up, or resume one paused over a budget.',
    usage:
      'credits <org> [show [AGENT] | top-up AGENT AMOUNT | resume AGENT] [--reason TEXT] [--json] [--secrets-file PATH]',
    load: async () => (await import('./status')).creditsCommand,
  },
  {
    name: 'tools',
    summary:
      "Explain an agent's tools: which it has, and for each it lacks, which layer refuses it, why, and the fix.",
    usage: 'tools <org> <agent> [--json] [--secrets-file PATH]',
    load: async () => (await import('./tools')).toolsCommand,
  },
  {
    name: 'call',
    summary:
      'Run one tool as an agent, with every check an agent turn has; prints the result as JSON (a failed tool still exits 0).',
    usage: "call <org> <agent> <tool> ['<json args>']",
    load: async () => (await import('./tools')).callCommand,
  },
  {
    name: 'connectors',
    summary:
      "List the org's connectors (built-in tools, MCP servers with their status and tools, and composed tools) with their readiness, what they need, the secrets they use (set or not, never values), tool files that did not load, and each agent's skills with why they can or cannot be used; add an MCP server (--add, its --env and --header values go to the secret store), remove one (--remove), import them, sign in to one (--sign-in), or add a REST API.",
    usage:
      'connectors <org> [--json] [--secrets-file PATH] [--import claude|cursor|FILE [--replace-secrets NAME,…]] [--add NAME (--command CMD [--arg A]… [--env K=V]… | --url URL [--header K=V]…) [--replace] [--replace-secrets NAME,…]] [--remove NAME] [--rest-api NAME --base-url URL [--auth bearer|header:NAME|query:NAME|none] [--methods GET,POST,…] [--description TEXT]] [--remove-rest-api NAME] [--trust-hints SERVER | --distrust-hints SERVER] [--allow-sampling SERVER | --deny-sampling SERVER] [--sign-in SERVER]',
    load: async () => (await import('./connectors')).connectorsCommand,
  },
  {
    name: 'trust',
    summary:
      'Show what the org would start, contact and use (programs with their command lines, addresses, secrets, environment variables, agents that may run commands or reach the web) and what changed since you trusted it. Nothing in an org runs until you trust it: --yes trusts it as it is now, granting only the secrets (--grant) and variables (--env) you name; --revoke takes trust back.',
    usage: 'trust <org> [--yes [--grant SECRET]... [--env VARIABLE]...] [--revoke] [--json]',
    load: async () => (await import('./trust')).trustCommand,
  },
  {
    name: 'update',
    summary:
      "Update the org's agents from a newer copy of it (a template, a bundle, another copy): shows per agent what changes in its instructions, tools, file access and schedule; --yes applies it (to the agents named with --agent, or all), keeping each agent's memory, outbox, workspace, credits and history. New agents are added; agents gone from the newer copy stay unless named with --remove.",
    usage:
      'update <org> (--from <folder|bundle> | --from-template NAME) [--agent NAME]... [--remove NAME]... [--yes] [--json]',
    load: async () => (await import('./update')).updateCommand,
  },
  {
    name: 'secret',
    summary: `Manage the secrets models and tools use: list (names and dates, never values; with --org, whether that org may use each), set (value from stdin, typed hidden at a terminal, or --value, which your shell history keeps), delete, and grant or revoke one for an org (an org uses only the secrets granted to it, whichever store holds them). The file comes from --secrets-file or ${SECRETS_FILE_VARIABLE}.`,
    usage:
      'secret list|set|delete|grant|revoke [NAME] [--org ORG] [--secrets-file PATH] [--value V] [--json]',
    load: async () => (await import('./secrets')).secretCommand,
  },
];
