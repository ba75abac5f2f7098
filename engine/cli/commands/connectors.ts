import { formatProblem } from '../../api/problem';
import type { Connector, McpServerView } from '../../api/tool-schemas';
import {
  allowMcpSampling,
  importMcpServers,
  listConnectors,
  signInToMcpServer,
  trustMcpHints,
} from '../../app/connectors';
import { removeMcpServer, saveMcpServer } from '../../app/mcp-servers';
import { openInBrowser } from '../../tools/mcp/auth/open-browser';
import { removeRestApi, saveRestApi } from '../../app/rest-apis';
import { orgSkills, type AgentSkills } from '../../app/skills';
import { McpServerInput, RestApiInput } from '../../api/tool-schemas';
import { CliFailure, EXIT_OK, printJson } from '../cli-io';
import type { CommandCode } from '../command';
import { orgFolder } from '../org-arg';
import { answerOf, secretsFileOption, withOrgContext } from '../org-context';
import type { OrgContext } from '../../app/org-context';

function describeConnector(connector: Connector): string {
  const lines = [
    `  ${connector.readiness.ready ? 'ready    ' : 'not ready'}  ${connector.name} (${connector.id})`,
  ];
  if (connector.readiness.ready) {
    if (connector.readiness.note) lines.push(`      note: ${connector.readiness.note}`);
  } else {
    lines.push(`      why: ${connector.readiness.reason}`, `      fix: ${connector.readiness.fix}`);
  }
  if (connector.mcp) lines.push(...describeMcpServer(connector.mcp));
  else if (connector.tools.length > 0) lines.push(`      tools: ${connector.tools.join(', ')}`);
  for (const permission of connector.permissions) {
    const mark = permission.met === null ? '-' : permission.met ? 'ok' : 'NO';
    lines.push(`      needs [${mark}] ${permission.requirement}`);
  }
  if (connector.source) lines.push(`      file: ${connector.source.file}`);
  if (connector.secrets.length > 0)
    lines.push(
      `      secrets: ${connector.secrets.map((secret) => `${secret.name} (${secret.isSet ? 'set' : 'not set'})`).join(', ')}`,
    );
  if (connector.tools.length > 0)
    lines.push(
      `      granted to: ${connector.grantedTo.length > 0 ? connector.grantedTo.join(', ') : 'no agent'}`,
    );
  return lines.join('\n');
}

/**
 * The `--rest-api` options as the use-case takes them. The key is never an option (a command line is
 * visible to every program): set it first with `lemming secret set <NAME>_API_KEY`.
 */
function restApiInput(values: Record<string, unknown>) {
  const [style = 'bearer', ...rest] = String(values.auth ?? 'bearer').split(':');
  const authName = rest.join(':');
  const parsed = RestApiInput.safeParse({
    name: values['rest-api'],
    baseUrl: String(values['base-url'] ?? ''),
    authStyle: style,
    ...(authName ? { authName } : {}),
    methods: String(values.methods ?? 'GET')
      .split(',')
      .map((method) => method.trim().toUpperCase())
      .filter(Boolean),
    ...(typeof values.description === 'string' ? { description: values.description } : {}),
  });
  if (!parsed.success)
    throw new CliFailure(
      `The REST API was not saved: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')}.`,
    );
  return parsed.data;
}

/** `--env K=V` / `--header K=V` rows; a row without `=` is refused, naming the option. */
function secretRows(option: string, given: unknown): { name: string; value: string }[] {
  const items = Array.isArray(given) ? (given as string[]) : [];
  return items.map((item) => {
    const at = item.indexOf('=');
    if (at <= 0) throw new CliFailure(`--${option} ${item}: give it as NAME=VALUE.`);
    return { name: item.slice(0, at), value: item.slice(at + 1) };
  });
}

/** The `--add` options as the use-case takes them: a program (`--command`, `--arg`, `--env`) or an address (`--url`, `--header`). */
function mcpServerInput(values: Record<string, unknown>) {
  const program = typeof values.command === 'string';
  if (program === (typeof values.url === 'string'))
    throw new CliFailure(
      '--add needs either --command (a program to start) or --url (a server to reach), not both.',
    );
  const parsed = McpServerInput.safeParse({
    name: values.add,
    target: program
      ? {
          kind: 'program',
          command: values.command,
          args: Array.isArray(values.arg) ? values.arg : [],
          env: secretRows('env', values.env),
        }
      : { kind: 'address', url: values.url, headers: secretRows('header', values.header) },
    replace: values.replace === true,
    replaceSecrets: listOption(values['replace-secrets']),
  });
  if (!parsed.success)
    throw new CliFailure(
      `The server was not added: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')}.`,
    );
  return parsed.data;
}

function listOption(value: unknown): string[] {
  return typeof value === 'string'
    ? value
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean)
    : [];
}

function describeMcpServer(server: McpServerView): string[] {
  const lines = [
    `      status: ${server.status}${server.error ? ` — ${server.error}` : ''}`,
    `      ${server.transport === 'stdio' ? 'runs' : 'reached at'}: ${server.target}`,
    `      rights: ${server.rights}`,
    ...server.entryProblems.map((problem) => `      problem: ${formatProblem(problem)}`),
    ...(server.signIn
      ? [
          server.signIn.signedIn
            ? `      sign-in: signed in${server.signIn.subject ? ` as ${server.signIn.subject}` : ''}${server.signIn.byPerson ? ` (--sign-in ${server.server} to sign in again)` : ''}`
            : `      sign-in: not signed in (--sign-in ${server.server})`,
        ]
      : []),
    ...server.problems.map((problem) => `      problem: ${problem}`),
    server.hintsTrusted
      ? `      hints: trusted (its tools that say they only read and stay on this computer run without asking; --distrust-hints ${server.server} to stop)`
      : `      hints: not trusted (every call of its tools asks first; --trust-hints ${server.server} to trust what it says)`,
    server.samplingAllowed
      ? `      models: it may ask your models (the model of the agent using it answers, and that agent pays; --deny-sampling ${server.server} to stop)`
      : `      models: it may not ask your models (--allow-sampling ${server.server} to let it; the agent using it then pays)`,
  ];
  for (const tool of server.tools) {
    const hints = Object.entries(tool.annotations)
      .filter(([key, value]) => key !== 'title' && value === true)
      .map(([key]) => key.replace(/Hint$/, ''));
    lines.push(
      `      tool ${tool.grantName}${hints.length > 0 ? ` [${hints.join(', ')}]` : ''}: ${tool.description.split('\n')[0] ?? ''}`,
      ...tool.changes.map((change) => `        changed: ${change}`),
    );
  }
  if (server.resourceTool)
    lines.push(
      `      resources: agents read them with ${server.resourceTool} (it only reads, so it does not ask)`,
    );
  for (const prompt of server.prompts ?? []) {
    const args = prompt.arguments.map((argument) => `${argument.name}${argument.required ? '' : '?'}`);
    lines.push(
      `      prompt ${prompt.name}${args.length > 0 ? `(${args.join(', ')})` : ''}${prompt.description ? `: ${prompt.description.split('\n')[0]}` : ''}`,
    );
  }
  for (const happening of server.happenings.slice(-5))
    lines.push(`      ${happening.time} ${happening.message}`);
  return lines;
}

function describeSkills(agentSkills: AgentSkills): string {
  const lines = [`  ${agentSkills.agent}:`];
  for (const skill of agentSkills.skills) {
    const runs = skill.dispatch ? ` (runs ${skill.dispatch.tool})` : '';
    if (skill.usability.usable) lines.push(`    usable      ${skill.name}${runs}`);
    else {
      lines.push(`    not usable  ${skill.name}${runs}: ${skill.usability.reason}`);
      lines.push(
        skill.usability.fix ? `        fix: ${skill.usability.fix}` : '        no setting makes it usable',
      );
    }
  }
  for (const problem of agentSkills.problems)
    lines.push(`    ${problem.severity}: ${formatProblem(problem)}`);
  return lines.join('\n');
}

/** A command line says what the person wants now: the server as its entry is at this moment. */
async function identityNow(context: OrgContext, org: string, server: string): Promise<string> {
  const { connectors } = await answerOf(listConnectors(context));
  const identity = connectors.find((connector) => connector.id === `mcp:${server}`)?.mcp?.identity;
  if (!identity) throw new CliFailure(`There is no MCP server "${server}" in ${org}.`);
  return identity;
}

export const connectorsCommand: CommandCode = {
  options: {
    json: { type: 'boolean' },
    import: { type: 'string' },
    'replace-secrets': { type: 'string' },
    'rest-api': { type: 'string' },
    'base-url': { type: 'string' },
    auth: { type: 'string' },
    methods: { type: 'string' },
    description: { type: 'string' },
    'remove-rest-api': { type: 'string' },
    add: { type: 'string' },
    command: { type: 'string' },
    arg: { type: 'string', multiple: true },
    env: { type: 'string', multiple: true },
    url: { type: 'string' },
    header: { type: 'string', multiple: true },
    replace: { type: 'boolean' },
    remove: { type: 'string' },
    'trust-hints': { type: 'string' },
    'distrust-hints': { type: 'string' },
    'allow-sampling': { type: 'string' },
    'deny-sampling': { type: 'string' },
    'sign-in': { type: 'string' },
    ...secretsFileOption,
  },
  async run({ positionals, values }, io) {
    const org = await orgFolder(positionals[0]);
    if (typeof values['sign-in'] === 'string') {
      const server = values['sign-in'];
      const card = await withOrgContext(org, io, values, (context) =>
        answerOf(
          signInToMcpServer(context, { server }, async (url) => {
            io.stdout.write(`Opening the sign-in page of ${server} in your browser:\n  ${url.href}\n`);
            // Without a browser here (a server, a remote shell) the person opens the page elsewhere on this computer.
            await openInBrowser(url, io.env).catch((error: Error) =>
              io.stdout.write(`${error.message}; open the page above yourself. Waiting for the sign-in…\n`),
            );
          }),
        ),
      );
      if (values.json) printJson(io, card);
      else {
        const signIn = card.mcp?.signIn;
        io.stdout.write(
          `${signIn?.signedIn ? `Signed in to ${server}${signIn.subject ? ` as ${signIn.subject}` : ''}.` : `Not signed in to ${server}.`}\n${describeConnector(card)}\n`,
        );
      }
      return EXIT_OK;
    }
    const hints =
      typeof values['trust-hints'] === 'string'
        ? { server: values['trust-hints'], trusted: true }
        : typeof values['distrust-hints'] === 'string'
          ? { server: values['distrust-hints'], trusted: false }
          : null;
    if (hints) {
      const card = await withOrgContext(org, io, values, async (context) =>
        answerOf(
          trustMcpHints(context, { ...hints, identity: await identityNow(context, org, hints.server) }),
        ),
      );
      if (values.json) printJson(io, card);
      else
        io.stdout.write(
          `${hints.trusted ? 'Trusted' : 'No longer trusting'} what ${hints.server} says about its tools.\n${describeConnector(card)}\n`,
        );
      return EXIT_OK;
    }
    const sampling =
      typeof values['allow-sampling'] === 'string'
        ? { server: values['allow-sampling'], allowed: true }
        : typeof values['deny-sampling'] === 'string'
          ? { server: values['deny-sampling'], allowed: false }
          : null;
    if (sampling) {
      const card = await withOrgContext(org, io, values, async (context) =>
        answerOf(
          allowMcpSampling(context, {
            ...sampling,
            identity: await identityNow(context, org, sampling.server),
          }),
        ),
      );
      if (values.json) printJson(io, card);
      else
        io.stdout.write(
          `${sampling.allowed ? `${sampling.server} may now ask your models: the model of the agent using it answers, and that agent pays.` : `${sampling.server} may no longer ask your models.`}\n${describeConnector(card)}\n`,
        );
      return EXIT_OK;
    }
    if (typeof values.add === 'string') {
      const input = mcpServerInput(values);
      const added = await withOrgContext(org, io, values, (context) =>
        answerOf(saveMcpServer(context, input)),
      );
      if (values.json) printJson(io, added);
      else
        io.stdout.write(
          `Added the MCP server ${input.name}${input.target.kind === 'program' && input.target.env.length > 0 ? '; its environment values went to the secret store' : input.target.kind === 'address' && input.target.headers.length > 0 ? '; its headers went to the secret store' : ''}.\n${describeConnector(added)}\n`,
        );
      return EXIT_OK;
    }
    if (typeof values.remove === 'string') {
      const name = values.remove;
      const removed = await withOrgContext(org, io, values, (context) =>
        answerOf(removeMcpServer(context, { name })),
      );
      if (values.json) printJson(io, removed);
      else
        io.stdout.write(
          `Removed the MCP server ${name}${removed.secretsDeleted.length > 0 ? ` and its secrets ${removed.secretsDeleted.join(', ')}` : ''}.\n`,
        );
      return EXIT_OK;
    }
    if (typeof values['remove-rest-api'] === 'string') {
      const name = values['remove-rest-api'];
      await withOrgContext(org, io, values, (context) => answerOf(removeRestApi(context, { name })));
      io.stdout.write(`Removed the REST API ${name} and its key.\n`);
      return EXIT_OK;
    }
    if (typeof values['rest-api'] === 'string') {
      const input = restApiInput(values);
      // A command line says what the API should be now: it changes an existing one as it is at this moment.
      const saved = await withOrgContext(org, io, values, async (context) => {
        const { connectors } = await answerOf(listConnectors(context));
        const current = connectors.find((connector) => connector.id === `rest:${input.name}`)?.restApi;
        const opened = current && {
          baseUrl: current.baseUrl,
          description: current.description,
          authStyle: current.authStyle,
          authName: current.authName,
          methods: current.methods,
        };
        return answerOf(saveRestApi(context, { ...input, ...(opened ? { opened } : {}) }));
      });
      if (values.json) printJson(io, saved);
      else io.stdout.write(`Saved:\n${describeConnector(saved)}\n`);
      return EXIT_OK;
    }
    if (typeof values.import === 'string') {
      const from = values.import;
      const replaceSecrets = listOption(values['replace-secrets']);
      const imported = await withOrgContext(org, io, values, (context) =>
        answerOf(importMcpServers(context, { from, replaceSecrets })),
      );
      if (values.json) printJson(io, imported);
      else {
        io.stdout.write(
          `Imported from ${imported.file}: ${imported.imported.length > 0 ? imported.imported.join(', ') : 'no server'}\n`,
        );
        if (imported.secrets.length > 0)
          io.stdout.write(`Their settings went to the secret store as: ${imported.secrets.join(', ')}\n`);
        for (const skipped of imported.skipped)
          io.stdout.write(`  skipped ${skipped.name}: ${skipped.reason}\n`);
        for (const ask of imported.toAsk)
          io.stdout.write(
            `  ${ask.server} needs the secret ${ask.name} (${ask.description}), which VS Code asks for as it starts the server: set it with lemming secret set ${ask.name}\n`,
          );
      }
      return EXIT_OK;
    }
    const { list, skills } = await withOrgContext(org, io, values, async (context) => ({
      list: await answerOf(listConnectors(context)),
      skills: await orgSkills(context),
    }));
    if (values.json) {
      printJson(io, { org, ...list, skills });
      return EXIT_OK;
    }
    io.stdout.write(`Connectors of ${org}:\n${list.connectors.map(describeConnector).join('\n')}\n`);
    if (list.loadErrors.length > 0)
      io.stdout.write(
        `Files that did not load (their tools are not offered):\n${list.loadErrors.map((problem) => `  ${formatProblem(problem)}`).join('\n')}\n`,
      );
    io.stdout.write(
      skills.length > 0
        ? `Skills:\n${skills.map(describeSkills).join('\n')}\n`
        : 'No agent has skills (agents/<name>/skills/<skill>/SKILL.md).\n',
    );
    return EXIT_OK;
  },
};
