import { useId, useState } from 'react';
import type { McpServerView, McpToolView } from '../../../../engine/api';
import { MCP_QUESTIONS_PER_CALL } from '../../../../engine/api/tool-schemas';
import { formatProblem } from '../../../../engine/api/problem';
import { Badge, type BadgeTone } from '../../components/Badge';
import { ToolSearch } from '../../components/ToolSearch';
import { groupByEffect, searchTools, SEARCH_FROM } from '../../words/tool-groups';
import { allowMcpSampling, signInToMcp, trustMcpHints } from './tool-store-writes';

const STATUS: Record<McpServerView['status'], { words: string; tone: BadgeTone }> = {
  running: { words: 'Running', tone: 'ok' },
  starting: { words: 'Starting', tone: 'info' },
  restarting: { words: 'Restarting after a crash', tone: 'warn' },
  stopped: { words: 'Stopped', tone: 'neutral' },
  failed: { words: 'Failed', tone: 'bad' },
  disabled: { words: 'Turned off', tone: 'neutral' },
  not_trusted: { words: 'Not started: this org is not trusted yet', tone: 'warn' },
  network_off: { words: "Not started: the org's internet access is off", tone: 'warn' },
  needs_sign_in: { words: 'Waiting for you to sign in', tone: 'warn' },
};

const HINTS: {
  key: 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint';
  words: string;
}[] = [
  { key: 'readOnlyHint', words: 'says it only reads' },
  { key: 'destructiveHint', words: 'says it may delete or overwrite' },
  { key: 'idempotentHint', words: 'says it is safe to repeat' },
  { key: 'openWorldHint', words: 'says it reaches outside this computer' },
];

/** The prompts a server offers: ready-made requests a person could start from, with what each asks for. */
function McpPrompts({ server }: { server: McpServerView }) {
  const prompts = server.prompts ?? [];
  if (prompts.length === 0) return null;
  return (
    <details className="mcp-prompts">
      <summary>Prompts it offers ({prompts.length})</summary>
      <p className="muted">Ready-made requests the server suggests, with what each asks for.</p>
      <ul aria-label={`Prompts of ${server.server}`}>
        {prompts.map((prompt) => (
          <li key={prompt.name}>
            <strong>{prompt.title ?? prompt.name}</strong>
            {prompt.description && <p>{prompt.description}</p>}
            {prompt.arguments.length > 0 && (
              <p className="muted">
                It asks for:{' '}
                {prompt.arguments
                  .map((argument) => `${argument.name}${argument.required ? '' : ' (optional)'}`)
                  .join(', ')}
              </p>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** An MCP server's card body: its state, what it may do on this computer, its tools and what happened to it. */
export function McpServerDetails({ server }: { server: McpServerView }) {
  const status = STATUS[server.status];
  const [query, setQuery] = useState('');
  const found = searchTools(server.tools, query, (tool) => [
    tool.annotations.title ?? '',
    tool.name,
    tool.description,
  ]);
  const row = (tool: McpToolView) => {
    const hints = HINTS.filter((hint) => tool.annotations[hint.key] === true);
    return (
      <li key={tool.name}>
        <strong>{tool.annotations.title ?? tool.name}</strong>
        {hints.map((hint) => (
          <Badge
            key={hint.key}
            tone={hint.key === 'destructiveHint' || hint.key === 'openWorldHint' ? 'warn' : 'neutral'}
          >
            {hint.words}
          </Badge>
        ))}
        <p>{tool.description}</p>
        {tool.changes.length > 0 && (
          <div className="mcp-tool-changed" role="note" aria-label={`${tool.name} changed`}>
            <strong>This tool changed.</strong> It asks you before every call until you choose again how it
            runs, under “Ask me first” below.
            <ul>
              {tool.changes.map((change) => (
                <li key={change}>{change}</li>
              ))}
            </ul>
          </div>
        )}
        <details>
          <summary>Advanced: name and input</summary>
          <p>
            Agents call it <code>{tool.grantName}</code>. It takes:
          </p>
          <pre>{JSON.stringify(tool.inputSchema, null, 2)}</pre>
        </details>
      </li>
    );
  };
  return (
    <div className="mcp-server">
      <p>
        <Badge tone={status.tone}>{status.words}</Badge>{' '}
        {server.transport === 'stdio' ? 'A program on this computer' : 'A server reached over the network'}
      </p>
      {server.error && (
        <p className="mcp-error" role="status">
          {server.error}
        </p>
      )}
      <SignIn server={server} />
      <p className="mcp-rights">{server.rights}</p>
      {server.problems.length > 0 && (
        <ul className="mcp-error" aria-label={`Problems of ${server.server}`}>
          {server.problems.map((problem) => (
            <li key={problem}>{problem[0]?.toUpperCase() + problem.slice(1)}.</li>
          ))}
        </ul>
      )}
      {server.entryProblems.length > 0 && (
        <details className="mcp-error" aria-label={`What is wrong with the settings of ${server.server}`}>
          <summary>Advanced: what is wrong with its settings</summary>
          <ul>
            {server.entryProblems.map((problem) => (
              <li key={formatProblem(problem)}>{formatProblem(problem)}</li>
            ))}
          </ul>
        </details>
      )}
      {server.identity !== '' && <HintsSwitch server={server} />}
      {server.identity !== '' && <SamplingSwitch server={server} />}
      {server.tools.length >= SEARCH_FROM && (
        <ToolSearch
          label={`Search the tools of ${server.server}`}
          query={query}
          onChange={setQuery}
          shown={found.length}
          total={server.tools.length}
        />
      )}
      {server.tools.length > 0 && (
        <ul className="mcp-tools" aria-label={`Tools of ${server.server}`}>
          {server.tools.length >= SEARCH_FROM
            ? groupByEffect(found, (tool) => tool.annotations.readOnlyHint === true).map((group) => (
                <li key={group.label} className="tool-group">
                  <h4 className="tool-group-heading">{group.label}</h4>
                  <ul className="mcp-tools" aria-label={group.label}>
                    {group.tools.map(row)}
                  </ul>
                </li>
              ))
            : found.map(row)}
        </ul>
      )}
      {server.resourceTool && (
        <div className="mcp-resources">
          <p>
            It also offers documents and data to read. Agents given its tools can read them; reading them
            never asks first, since it changes nothing.
          </p>
          <details>
            <summary>Advanced: name</summary>
            Agents read them with <code>{server.resourceTool}</code>.
          </details>
        </div>
      )}
      <McpPrompts server={server} />
      {server.happenings.length > 0 && (
        <details>
          <summary>What happened</summary>
          <ul className="mcp-happenings">
            {server.happenings.map((happening, index) => (
              <li key={`${happening.time}:${index}`}>
                <time dateTime={happening.time}>{new Date(happening.time).toLocaleTimeString()}</time>{' '}
                {happening.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      <details>
        <summary>Advanced: how it is started</summary>
        <code>{server.target}</code>
      </details>
    </div>
  );
}

/**
 * Signing in to a server over HTTP that asks for it: the page opens in the person's browser and the
 * card waits until they finish there. Agents never open it: until then its tools wait.
 */
function SignIn({ server }: { server: McpServerView }) {
  const [waiting, setWaiting] = useState(false);
  const signIn = server.signIn;
  if (server.transport !== 'http' || (!signIn && server.status !== 'needs_sign_in')) return null;
  if (signIn && !signIn.byPerson)
    return (
      <p className="mcp-sign-in">
        {signIn.signedIn ? 'Signed in by the app with its own credentials' : 'Not signed in yet'}
      </p>
    );
  const start = async () => {
    setWaiting(true);
    try {
      await signInToMcp(server);
    } finally {
      setWaiting(false);
    }
  };
  return (
    <div className="mcp-sign-in" role="group" aria-label={`Sign-in to ${server.server}`}>
      {signIn?.signedIn && <p>{signIn.subject ? `Signed in as ${signIn.subject}` : 'Signed in'}</p>}
      <button
        type="button"
        className={signIn?.signedIn ? undefined : 'primary'}
        disabled={waiting}
        onClick={() => void start()}
      >
        {waiting
          ? 'Finish signing in in your browser…'
          : signIn?.signedIn
            ? 'Sign in again'
            : `Sign in to ${server.server}`}
      </button>
      {!signIn?.signedIn && !waiting && (
        <p className="muted">
          Its sign-in page opens in your browser. Its tools wait until you have signed in.
        </p>
      )}
    </div>
  );
}

/**
 * The person's choice to believe what the server says about its tools. Off, every call asks first,
 * whatever the server claims (the MCP specification calls such claims untrusted).
 */
function HintsSwitch({ server }: { server: McpServerView }) {
  const explanationId = useId();
  return (
    <div className="mcp-hints">
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={server.hintsTrusted}
          aria-describedby={explanationId}
          onChange={(event) => void trustMcpHints(server, event.target.checked)}
        />
        Trust this server&apos;s hints about which tools only read
      </label>
      <p className="muted" id={explanationId}>
        {server.hintsTrusted
          ? 'On: its tools that say they only read and stay on this computer run without asking. The server says this itself, so turn it off unless you trust this program. A tool that changes asks again.'
          : 'Off: every call of its tools asks you first, whatever the server says about them. Turn it on only if you trust this program to tell the truth about which tools only read.'}
      </p>
    </div>
  );
}

/**
 * The person's choice to let the server ask the models of the agents using it (MCP sampling). Off, the
 * server is told no; the choice reaches the server as it starts, so changing it starts the server again.
 */
function SamplingSwitch({ server }: { server: McpServerView }) {
  const explanationId = useId();
  return (
    <div className="mcp-sampling">
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={server.samplingAllowed}
          aria-describedby={explanationId}
          onChange={(event) => void allowMcpSampling(server, event.target.checked)}
        />
        Let this server ask your models
      </label>
      <p className="muted" id={explanationId}>
        When one of your agents uses this server, the server may ask that agent&apos;s model a question. The
        agent pays for it.{' '}
        {server.samplingAllowed
          ? `On: it may ask up to ${MCP_QUESTIONS_PER_CALL} questions during each call of its tools; each question is in the timeline under that call.`
          : 'Off: when it asks, it is told no. Turning this on starts the server again, so it knows.'}
      </p>
    </div>
  );
}
