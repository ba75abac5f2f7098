import type { McpServerView } from '../../../../engine/api';
import { Badge, type BadgeTone } from '../../components/Badge';

const STATUS: Record<McpServerView['status'], { words: string; tone: BadgeTone }> = {
  running: { words: 'Running', tone: 'ok' },
  starting: { words: 'Starting', tone: 'info' },
  restarting: { words: 'Restarting after a crash', tone: 'warn' },
  stopped: { words: 'Stopped', tone: 'neutral' },
  failed: { words: 'Failed', tone: 'bad' },
  disabled: { words: 'Turned off', tone: 'neutral' },
  not_trusted: { words: 'Not started: this org is not trusted yet', tone: 'warn' },
};

const HINTS: {
  key: 'readOnlyHint' | 'destructiveHint' | 'idempotentHint' | 'openWorldHint';
  words: string;
}[] = [
  { key: 'readOnlyHint', words: 'only reads' },
  { key: 'destructiveHint', words: 'may delete or overwrite' },
  { key: 'idempotentHint', words: 'safe to repeat' },
  { key: 'openWorldHint', words: 'reaches outside this computer' },
];

/** An MCP server's card body: its state, what it may do on this computer, its tools and what happened to it. */
export function McpServerDetails({ server }: { server: McpServerView }) {
  const status = STATUS[server.status];
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
      <p className="mcp-rights">{server.rights}</p>
      {server.tools.length > 0 && (
        <ul className="mcp-tools" aria-label={`Tools of ${server.server}`}>
          {server.tools.map((tool) => {
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
                <details>
                  <summary>Advanced: name and input</summary>
                  <p>
                    Agents call it <code>{tool.grantName}</code>. It takes:
                  </p>
                  <pre>{JSON.stringify(tool.inputSchema, null, 2)}</pre>
                </details>
              </li>
            );
          })}
        </ul>
      )}
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
