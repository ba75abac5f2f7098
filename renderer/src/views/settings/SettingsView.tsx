import { useId } from 'react';
import { GlossaryList } from '../../components/Glossary';
import { TrustSettingsSection } from '../../shared/TrustSettingsSection';
import { ModelsSection } from './ModelsSection';
import { RunSettingsSection } from './RunSettingsSection';
import { SecretsSection } from './SecretsSection';
import { UpdatesSection } from './UpdatesSection';
import { DesktopSection } from './DesktopSection';
import './settings.css';

/** The org's trust, providers and models, API keys (write-only) and what the org may use of them, the org's run settings and the app's own updates. */
export function SettingsView() {
  const glossaryId = useId();
  return (
    <div className="settings">
      <h2 className="view-title">Settings</h2>
      <TrustSettingsSection />
      <ModelsSection />
      <SecretsSection />
      <RunSettingsSection />
      <DesktopSection />
      <UpdatesSection />
      <section className="panel" aria-labelledby={glossaryId}>
        <h3 id={glossaryId}>Words the app uses</h3>
        <GlossaryList />
      </section>
    </div>
  );
}
