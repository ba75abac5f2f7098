import { ModelsSection } from './ModelsSection';
import { RunSettingsSection } from './RunSettingsSection';
import { SecretsSection } from './SecretsSection';
import './settings.css';

/** Providers and models, API keys (write-only) and the org's run settings. */
export function SettingsView() {
  return (
    <div className="settings">
      <h2 className="view-title">Settings</h2>
      <ModelsSection />
      <SecretsSection />
      <RunSettingsSection />
    </div>
  );
}
