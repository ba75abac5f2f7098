import { useState, type FormEvent } from 'react';
import { useOrgStore } from '../../stores/org-store';

export function OpenOrgForm() {
  const state = useOrgStore((store) => store.state);
  const open = useOrgStore((store) => store.open);
  const pickAndOpen = useOrgStore((store) => store.pickAndOpen);
  const [path, setPath] = useState('');
  const busy = state.status === 'opening';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (path.trim()) void open(path.trim());
  };

  return (
    <form className="open-org" onSubmit={submit} aria-label="Open an org">
      <button type="button" className="primary" onClick={() => void pickAndOpen()} disabled={busy}>
        Choose org folder…
      </button>
      <span className="or">or</span>
      <label className="path-field">
        <span className="visually-hidden">Org folder path</span>
        <input
          type="text"
          name="org-path"
          placeholder="Paste a folder path, e.g. /Users/me/my-org"
          value={path}
          onChange={(event) => setPath(event.target.value)}
          spellCheck={false}
          autoComplete="off"
        />
      </label>
      <button type="submit" disabled={busy || !path.trim()}>
        {busy ? 'Opening…' : 'Open'}
      </button>
    </form>
  );
}
