import { useState } from 'react';
import type { AgentDetail, IpcError } from '../../../engine/api';
import { ErrorAlert } from '../components/ErrorAlert';
import { serverState } from '../server-state/instance';
import './agent-switch.css';

/**
 * The person's on/off switch for an agent: switched off, it takes no turns, and each turn it was due is
 * recorded as skipped ("switched off").
 */
export function AgentSwitch({
  agent,
  switchedOff,
  onChanged,
}: {
  agent: string;
  switchedOff: boolean;
  onChanged?(detail: AgentDetail): void;
}) {
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<IpcError | null>(null);

  const flip = async (on: boolean) => {
    setSaving(true);
    const result = await serverState().write('agent.update', { agent, patch: { switched_off: !on } });
    setSaving(false);
    if (!result.ok) return setError(result.error);
    setError(null);
    onChanged?.(result.value);
  };

  return (
    <div className="agent-switch">
      <label>
        <input
          type="checkbox"
          role="switch"
          checked={!switchedOff}
          disabled={saving}
          aria-label={`${agent} takes its turns`}
          onChange={(event) => void flip(event.target.checked)}
        />{' '}
        {switchedOff ? 'Off: it takes no turns' : 'On: it takes its turns'}
      </label>
      {error && (
        <ErrorAlert error={error} title={`Could not switch ${agent} ${switchedOff ? 'on' : 'off'}.`} />
      )}
    </div>
  );
}
