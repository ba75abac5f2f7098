import { useId } from 'react';
import { Badge } from '../../components/Badge';
import { Because } from './ReachSection';
import type { ReachLine } from './reach-words';

const WORDS = {
  secret: {
    title: 'Secrets it wants to use',
    explanation:
      'A secret (an API key, a password) is given only to the orgs you allow. Tick the ones this org may use; it gets no other. You can change this later in Settings.',
    label: (name: string) => `Let this org use the secret ${name}`,
  },
  environment: {
    title: 'Environment variables it wants to read',
    explanation:
      'Settings of your computer, often keys, that this org would read. Tick the ones it may read; it reads no other.',
    label: (name: string) => `Let this org read the variable ${name}`,
  },
} as const;

/** The secrets or variables the org names, each a checkbox the person ticks to grant it (unticked until then). */
export function GrantList({
  kind,
  lines,
  granted,
  stored,
  onTick,
}: {
  kind: 'secret' | 'environment';
  lines: ReachLine[];
  granted: string[];
  /** Names of the secrets stored on this computer; null when not known (or not secrets). */
  stored: Set<string> | null;
  onTick: (name: string, on: boolean) => void;
}) {
  const headingId = useId();
  if (lines.length === 0) return null;
  const words = WORDS[kind];
  return (
    <section className="trust-section" aria-labelledby={headingId}>
      <h3 id={headingId}>{words.title}</h3>
      <p className="trust-explanation">{words.explanation}</p>
      <ul className="trust-lines" aria-labelledby={headingId}>
        {lines.map((line) => (
          <li key={line.subject} className="trust-line trust-grant">
            <label>
              <input
                type="checkbox"
                checked={granted.includes(line.subject)}
                onChange={(event) => onTick(line.subject, event.target.checked)}
                aria-label={words.label(line.subject)}
              />
              <code className="trust-subject">{line.subject}</code>
            </label>
            {stored &&
              (stored.has(line.subject) ? (
                <Badge tone="ok">Stored on this computer</Badge>
              ) : (
                <Badge tone="neutral">Not stored yet</Badge>
              ))}
            <Because line={line} />
          </li>
        ))}
      </ul>
    </section>
  );
}
