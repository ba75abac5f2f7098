import { useEffect, useState } from 'react';
import type { LocalServer, ModelList, ProviderInfo } from '../../../../engine/api';
import { serverState } from '../../server-state/instance';
import { ModelForm } from './ModelForm';

/**
 * Adding a model: the one model form, opened at once when a model server runs on this computer (it is
 * offered first).
 */
export function ModelSetupForm({
  providers,
  onAdded,
}: {
  providers: ProviderInfo[];
  onAdded: (list: ModelList) => void;
}) {
  const [local, setLocal] = useState<LocalServer[]>([]);

  useEffect(() => {
    let live = true;
    void serverState()
      .write('models.detectLocal', {})
      .then((result) => {
        if (live && result.ok) setLocal(result.value.servers);
      });
    return () => {
      live = false;
    };
  }, []);

  return (
    <details className="add-model" open={local.length > 0 || undefined}>
      <summary>Add a model</summary>
      <ModelForm mode="add" providers={providers} onSaved={onAdded} localServers={local} />
    </details>
  );
}
