import { useId, useState } from 'react';
import { BUNDLE_CHOICES, type BundleChoice } from '../../../../engine/api';
import { Advanced } from '../../components/Advanced';
import { Dialog } from '../../components/Dialog';
import { toast } from '../../components/toast-store';
import { useQuery } from '../../server-state/use-query';
import { valueOf, write } from '../../server-state/write';
import './bundle.css';

const CHOICE_WORDS: Record<BundleChoice, { label: string; detail: string }> = {
  structure: {
    label: 'Structure only',
    detail: 'The agents, their instructions, tools and settings. Nothing they learned or wrote.',
  },
  memory: {
    label: 'With memory',
    detail: 'Also what each agent remembers and the messages in their outboxes.',
  },
  everything: {
    label: 'Everything',
    detail: 'Also their logs and the files in their workspaces and the shared folder.',
  },
};

/**
 * Export the open org (or one department) as a bundle file to share: the choice of what goes in, a
 * preview of every file that goes in and everything left out (secrets by name), then the save dialog.
 */
export function ExportBundleDialog({ onClose }: { onClose: () => void }) {
  const [choice, setChoice] = useState<BundleChoice>('structure');
  const [department, setDepartment] = useState('');
  const [busy, setBusy] = useState(false);
  const choiceName = useId();
  const input = {
    includes: BUNDLE_CHOICES[choice],
    ...(department ? { department } : {}),
  };
  const { result } = useQuery('bundle.preview', input);
  const preview = result?.ok ? result.value : null;

  const exportIt = async () => {
    setBusy(true);
    const written = await write('bundle.export', input, {
      progress: 'Exporting the org…',
      failure: 'The org could not be exported',
    }).then(valueOf);
    setBusy(false);
    if (!written?.path) return;
    toast.success('Exported the org', written.path);
    onClose();
  };

  return (
    <Dialog
      title="Export this org as a bundle"
      className="bundle-export-dialog"
      onClose={onClose}
      actions={
        <>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="primary"
            disabled={busy || !preview}
            onClick={() => void exportIt()}
          >
            Export…
          </button>
        </>
      }
    >
      <p>
        A bundle is one file you can share. It never holds your secrets or this computer’s run state; whoever
        opens it must trust it before anything of it runs.
      </p>
      <fieldset className="bundle-choices">
        <legend>What goes in</legend>
        {(Object.keys(CHOICE_WORDS) as BundleChoice[]).map((key) => (
          <label key={key} className="bundle-choice">
            <input type="radio" name={choiceName} checked={choice === key} onChange={() => setChoice(key)} />
            <span>
              <strong>{CHOICE_WORDS[key].label}</strong>
              <span className="muted small"> {CHOICE_WORDS[key].detail}</span>
            </span>
          </label>
        ))}
      </fieldset>
      {preview && preview.departments.length > 0 && (
        <label className="bundle-department">
          Export
          <select value={department} onChange={(event) => setDepartment(event.target.value)}>
            <option value="">the whole org</option>
            {preview.departments.map((name) => (
              <option key={name} value={name}>
                the department {name}
              </option>
            ))}
          </select>
        </label>
      )}
      {result && !result.ok && <p role="alert">{result.error.message}</p>}
      {preview && (
        <div className="bundle-preview">
          <p>
            <strong>{preview.goesIn.length} files go in.</strong>{' '}
            {preview.secrets.length > 0 &&
              `Secrets it uses, left out (the person who opens it sets them): ${preview.secrets.join(', ')}.`}
          </p>
          <h3>Left out</h3>
          {preview.leftOut.length === 0 ? (
            <p className="muted small">Nothing.</p>
          ) : (
            <ul className="bundle-left-out">
              {preview.leftOut.map((item) => (
                <li key={`${item.path}:${item.why}`}>
                  <code>{item.path}</code> — {item.why}
                </li>
              ))}
            </ul>
          )}
          <Advanced label="Every file that goes in">
            <ul className="bundle-goes-in">
              {preview.goesIn.map((file) => (
                <li key={file.path}>
                  <code>{file.path}</code>
                </li>
              ))}
            </ul>
          </Advanced>
        </div>
      )}
    </Dialog>
  );
}
