import { useId, useRef, useState } from 'react';
import type { IpcError, McpEntryView, McpPasteResult } from '../../../../engine/api';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Drawer } from '../../components/Dialog';
import { SecretField } from './SecretField';
import { FieldErrors, TextField } from './DrawerFields';
import { useQuery } from '../../server-state/use-query';
import { placeProblems } from '../../server-state/write';
import { pasteMcpServers, saveMcpServer } from './tool-store-writes';

type Kind = 'program' | 'address';
type Row = { key: number; name: string; value: string; saved: boolean };
type Errors = Record<string, string[]>;

/** What the person is asked to agree to before a server or a saved value is replaced. */
type Replacing = { servers: string[]; secrets: string[] };

let rowKeys = 0;
const row = (name = '', saved = false): Row => ({ key: (rowKeys += 1), name, value: '', saved });

/** An MCP server being changed: its name and its entry as the file has it (values only as set or not). */
export interface EditedServer {
  name: string;
  entry: McpEntryView;
}

/**
 * Adds an MCP server (a program on this computer, or a server on the internet) with a form or by
 * pasting its settings, or changes one. Its secret values go to the secret store and are never shown
 * again; an empty value of a saved row keeps the saved one.
 */
export function McpServerDialog({ server, onClose }: { server: EditedServer | null; onClose(): void }) {
  const [tab, setTab] = useState<'form' | 'paste'>('form');

  return (
    <Drawer
      title={server ? `Change ${server.name}` : 'Add a server'}
      className="connector-drawer mcp-server-dialog"
      onClose={onClose}
    >
      <p>
        A tool server (MCP) gives agents its tools. Add only servers you trust: a program runs on this
        computer with your rights.
      </p>
      {!server && (
        <div className="mcp-dialog-tabs" role="tablist" aria-label="How to add it">
          <button type="button" role="tab" aria-selected={tab === 'form'} onClick={() => setTab('form')}>
            Fill in a form
          </button>
          <button type="button" role="tab" aria-selected={tab === 'paste'} onClick={() => setTab('paste')}>
            Paste settings
          </button>
        </div>
      )}
      {tab === 'form' || server ? (
        <ServerForm server={server} onDone={onClose} />
      ) : (
        <PasteForm onDone={onClose} />
      )}
    </Drawer>
  );
}

function ServerForm({ server, onDone }: { server: EditedServer | null; onDone(): void }) {
  const entry = server?.entry.target;
  const [name, setName] = useState(server?.name ?? '');
  const [kind, setKind] = useState<Kind>(entry?.kind ?? 'program');
  const [command, setCommand] = useState(entry?.kind === 'program' ? entry.command : '');
  const [args, setArgs] = useState(entry?.kind === 'program' ? entry.args.join('\n') : '');
  const [url, setUrl] = useState(entry?.kind === 'address' ? entry.url : '');
  const [rows, setRows] = useState<Row[]>(() =>
    (entry?.kind === 'program' ? entry.env : (entry?.headers ?? [])).map((saved) =>
      row(saved.name, saved.isSet),
    ),
  );
  const [errors, setErrors] = useState<Errors>({});
  const [otherError, setOtherError] = useState<string | null>(null);
  const [replacing, setReplacing] = useState<Replacing | null>(null);
  const [busy, setBusy] = useState(false);
  // A label around a text area would take the text in it into its name.
  const argsId = useId();

  /** A field the person changes no longer shows what was wrong with what it held. */
  const editing =
    (field: string, set: (value: string) => void) =>
    (value: string): void => {
      set(value);
      setErrors(({ [field]: _fixed, ...rest }) => rest);
    };

  const save = async (agreed: Replacing = { servers: [], secrets: [] }) => {
    if (busy) return;
    const secretRows = rows
      .filter((entry) => entry.name.trim() !== '' || entry.value !== '')
      .map((entry) => ({
        name: entry.name.trim(),
        ...(entry.value !== '' || !entry.saved ? { value: entry.value } : {}),
      }));
    setBusy(true);
    const error = await saveMcpServer(
      {
        name: name.trim(),
        target:
          kind === 'program'
            ? {
                kind,
                command,
                args: args.split('\n').filter((line) => line.trim() !== ''),
                env: secretRows,
              }
            : { kind, url, headers: secretRows },
        ...(server ? { opened: { revision: server.entry.revision } } : {}),
        ...(agreed.servers.length > 0 ? { replace: true } : {}),
        ...(agreed.secrets.length > 0 ? { replaceSecrets: agreed.secrets } : {}),
      },
      serverFormFieldOf(rows.length),
    );
    setBusy(false);
    if (error?.code === 'needs_confirmation') {
      setErrors({});
      setOtherError(null);
      setReplacing(replacingOf(error, name.trim()));
      return;
    }
    const { byField, elsewhere } = error?.fields ?? { byField: {}, elsewhere: [] };
    setErrors(byField);
    setOtherError(
      error && (elsewhere.length > 0 || Object.keys(byField).length === 0)
        ? [error.message, ...elsewhere].join(' ')
        : null,
    );
    if (!error) onDone();
  };

  const rowWords =
    kind === 'program'
      ? { name: 'Name', nameHint: 'Such as API_KEY', add: 'Add a secret value' }
      : { name: 'Header', nameHint: 'Such as Authorization', add: 'Add a secret header' };
  return (
    <form
      className="drawer-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <TextField
        label="Name"
        hint="Letters, digits, - and _, such as github. Agents see it in the names of its tools."
        value={name}
        onChange={editing('name', setName)}
        errors={errors.name}
        disabled={server !== null}
      />
      <fieldset className="drawer-field">
        <legend>What is it?</legend>
        <label className="radio">
          <input
            type="radio"
            name="mcp-kind"
            checked={kind === 'program'}
            onChange={() => setKind('program')}
          />
          A program on this computer
        </label>
        <label className="radio">
          <input
            type="radio"
            name="mcp-kind"
            checked={kind === 'address'}
            onChange={() => setKind('address')}
          />
          A server on the internet
        </label>
      </fieldset>
      {kind === 'program' ? (
        <>
          <TextField
            label="Program to start"
            hint="Such as npx, uvx, docker or the full path of a program."
            value={command}
            onChange={editing('command', setCommand)}
            errors={errors.command}
          />
          <div className="drawer-field" aria-invalid={errors.args ? true : undefined}>
            <label htmlFor={argsId}>What to give it (one per line)</label>
            <textarea
              id={argsId}
              rows={3}
              value={args}
              spellCheck={false}
              aria-invalid={errors.args ? true : undefined}
              onChange={(event) => editing('args', setArgs)(event.target.value)}
            />
            <span className="muted field-hint">
              Such as -y on one line and @modelcontextprotocol/server-github on the next.
            </span>
            <FieldErrors label="What to give it" errors={errors.args} />
          </div>
        </>
      ) : (
        <TextField
          label="Address"
          hint="Such as https://mcp.example.com/mcp."
          value={url}
          onChange={editing('url', setUrl)}
          errors={errors.url}
        />
      )}
      <fieldset className="drawer-field secret-rows">
        <legend>Secret values</legend>
        <span className="muted field-hint">
          {kind === 'program'
            ? 'Keys and settings the program reads from its environment.'
            : 'Headers sent with every request, such as a key.'}{' '}
          They are kept in the secret store, outside the org folder, and never shown again.
        </span>
        {rows.map((entry, index) => (
          <div key={entry.key} className="mcp-secret-row">
            <TextField
              label={rowWords.name}
              hint={rowWords.nameHint}
              value={entry.name}
              onChange={(value) =>
                setRows((current) =>
                  current.map((item) => (item.key === entry.key ? { ...item, name: value } : item)),
                )
              }
              errors={errors[`rows.${index}.name`]}
              disabled={entry.saved}
            />
            <TextField
              label="Value"
              hint={entry.saved ? 'Saved. Leave empty to keep it.' : 'Kept in the secret store.'}
              value={entry.value}
              onChange={(value) =>
                setRows((current) =>
                  current.map((item) => (item.key === entry.key ? { ...item, value } : item)),
                )
              }
              errors={errors[`rows.${index}.value`]}
              secret
            />
            <button
              type="button"
              aria-label={`Remove ${entry.name || 'this value'}`}
              onClick={() => setRows((current) => current.filter((item) => item.key !== entry.key))}
            >
              Remove
            </button>
          </div>
        ))}
        <button type="button" onClick={() => setRows((current) => [...current, row()])}>
          {rowWords.add}
        </button>
      </fieldset>
      {otherError && (
        <p className="inline-alert" role="alert">
          Not saved: {otherError}
        </p>
      )}
      <div className="drawer-actions">
        {/* Not disabled while saving: a disabled button loses focus, which the question a refusal asks gives back. */}
        <button type="submit" className="primary" aria-disabled={busy}>
          {server ? 'Save changes' : 'Add this server'}
        </button>
      </div>
      <ReplaceDialog
        replacing={replacing}
        onCancel={() => setReplacing(null)}
        onConfirm={(agreed) => void save(agreed)}
      />
    </form>
  );
}

function PasteForm({ onDone }: { onDone(): void }) {
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<string[] | undefined>();
  const [otherError, setOtherError] = useState<string | null>(null);
  const [replacing, setReplacing] = useState<Replacing | null>(null);
  const [outcome, setOutcome] = useState<McpPasteResult | null>(null);
  const [busy, setBusy] = useState(false);
  const file = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const textId = useId();

  const add = async (agreed: Replacing = { servers: [], secrets: [] }) => {
    if (busy) return;
    setBusy(true);
    const answer = await pasteMcpServers({
      text,
      ...(agreed.servers.length > 0 ? { replaceServers: agreed.servers } : {}),
      ...(agreed.secrets.length > 0 ? { replaceSecrets: agreed.secrets } : {}),
    });
    setBusy(false);
    if (!answer.ok && answer.error.code === 'needs_confirmation') {
      setReplacing(replacingOf(answer.error, null));
      return;
    }
    const { byField, elsewhere } = placeProblems(answer.ok ? null : answer.error, (path) =>
      path === 'text' ? path : null,
    );
    const textErrors = byField.text ?? [];
    setErrors(textErrors.length > 0 ? textErrors : undefined);
    setOtherError(
      !answer.ok && (textErrors.length === 0 || elsewhere.length > 0)
        ? [answer.error.message, ...elsewhere].join(' ')
        : null,
    );
    if (!answer.ok) return;
    if (answer.value.skipped.length === 0 && answer.value.toAsk.length === 0) onDone();
    else setOutcome(answer.value);
  };

  return (
    <form
      className="drawer-form"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void add();
      }}
    >
      <div className="drawer-field" aria-invalid={errors ? true : undefined}>
        <label htmlFor={textId}>Settings</label>
        <textarea
          id={textId}
          rows={12}
          value={text}
          spellCheck={false}
          autoFocus
          className="mcp-paste"
          aria-describedby={hintId}
          aria-invalid={errors ? true : undefined}
          onChange={(event) => {
            setText(event.target.value);
            setOutcome(null);
          }}
        />
        <span className="muted field-hint" id={hintId}>
          Paste the settings from a server&apos;s instructions, or from Claude Desktop, Cursor, VS Code or LM
          Studio. Keys in them go to the secret store, never into a file.
        </span>
        <FieldErrors label="Settings" errors={errors} />
      </div>
      <div>
        <button type="button" onClick={() => file.current?.click()}>
          Import from a file…
        </button>
        <input
          ref={file}
          type="file"
          accept=".json,application/json"
          hidden
          aria-label="Settings file"
          onChange={(event) => {
            const picked = event.target.files?.[0];
            event.target.value = '';
            if (picked)
              void picked.text().then((read) => {
                setText(read);
                setOutcome(null);
              });
          }}
        />
      </div>
      {otherError && (
        <p className="inline-alert" role="alert">
          Not added: {otherError}
        </p>
      )}
      {outcome && (
        <p role="status">
          {outcome.imported.length > 0 ? `Added ${outcome.imported.join(', ')}.` : 'No server was added.'}
          {outcome.skipped.length > 0 &&
            ` Left out: ${outcome.skipped.map((server) => `${server.name} (${server.reason})`).join('; ')}.`}
        </p>
      )}
      {outcome && outcome.toAsk.length > 0 && <ValuesToGive asks={outcome.toAsk} />}
      <div className="drawer-actions">
        <button
          type="submit"
          className="primary"
          disabled={text.trim() === '' || outcome !== null}
          aria-disabled={busy}
        >
          Add these servers
        </button>
      </div>
      <ReplaceDialog
        replacing={replacing}
        onCancel={() => setReplacing(null)}
        onConfirm={(agreed) => void add(agreed)}
      />
    </form>
  );
}

/** Asks before servers of the org or saved values are replaced; the answer is what the person agreed to. */
/**
 * The values pasted settings ask the person for (VS Code's inputs) and do not hold: each is given here,
 * straight to the secret store, as VS Code would ask for it when the server starts.
 */
function ValuesToGive({ asks }: { asks: McpPasteResult['toAsk'] }) {
  const { result: secretList } = useQuery('secrets.list', {});
  const secrets = secretList?.ok ? secretList.value.secrets : [];
  return (
    <section aria-label="Values to give" className="drawer-secrets">
      <p>
        {asks.length === 1 ? 'This value is' : 'These values are'} asked for by the settings and not in them.
        Give {asks.length === 1 ? 'it' : 'them'} here; {asks.length === 1 ? 'it goes' : 'they go'} to the
        secret store.
      </p>
      {asks.map((ask) => (
        <SecretField
          key={ask.name}
          name={ask.name}
          description={`${ask.server}: ${ask.description}`}
          isSet={secrets.some((secret) => secret.name === ask.name && secret.isSet)}
        />
      ))}
    </section>
  );
}

function ReplaceDialog({
  replacing,
  onCancel,
  onConfirm,
}: {
  replacing: Replacing | null;
  onCancel(): void;
  onConfirm(agreed: Replacing): void;
}) {
  const servers = replacing?.servers ?? [];
  const secrets = replacing?.secrets ?? [];
  return (
    <ConfirmDialog
      open={replacing !== null}
      title="Replace what you have?"
      confirmLabel="Replace them"
      destructive
      onCancel={onCancel}
      onConfirm={() => replacing && onConfirm(replacing)}
    >
      {servers.length > 0 && <p>This org already has {servers.join(', ')}: adding replaces its settings.</p>}
      {secrets.length > 0 && (
        <p>
          The secret store already has {secrets.join(', ')} with another value: adding replaces it, and the
          old value cannot be recovered.
        </p>
      )}
    </ConfirmDialog>
  );
}

/** The servers (`name`, `servers.X`) and secrets (`secrets.X`) an answer asks to replace. */
function replacingOf(error: IpcError, formName: string | null): Replacing {
  const servers: string[] = [];
  const secrets: string[] = [];
  for (const { path } of error.issues ?? []) {
    if (path === 'name' && formName) servers.push(formName);
    else if (path.startsWith('servers.')) servers.push(path.slice('servers.'.length));
    else if (path.startsWith('secrets.')) secrets.push(path.slice('secrets.'.length));
  }
  return { servers, secrets };
}

/** `name`, `command`, `args.2`, `env.0.value`, `headers.1.name`… → the form's fields (rows as `rows.N.…`). */
function serverFormFieldOf(rowCount: number): (path: string) => string | null {
  return (path) => {
    const rowField = /^(?:env|headers)\.(\d+)\.(name|value)$/.exec(path);
    if (rowField && Number(rowField[1]) < rowCount) return `rows.${rowField[1]}.${rowField[2]}`;
    if (/^args\.\d+$/.test(path)) return 'args';
    return ['name', 'command', 'url'].includes(path) ? path : null;
  };
}
