import { ModelsSection } from './ModelsSection';
import { RunSettingsSection } from './RunSettingsSection';
import { SecretsSection } from './SecretsSection';
import { UpdatesSection } from './UpdatesSection';
import './settings.css';

/** Providers and models, API keys (write-only), the org's run settings and the app's own updates. */
export function SettingsView() {
  return (
    <div className="settings">
      <h2 className="view-title">Settings</h2>
      <ModelsSection />
      <SecretsSection />
      <RunSettingsSection />
      <UpdatesSection />
    </div>
  );
}
