import { useId } from 'react';
import { becauseWords, type ReachLine } from './reach-words';

/** One kind of reach (programs, addresses, agents' free hands), each line with why; nothing when empty. */
export function ReachSection({
  title,
  explanation,
  lines,
}: {
  title: string;
  explanation: string;
  lines: ReachLine[];
}) {
  const headingId = useId();
  if (lines.length === 0) return null;
  return (
    <section className="trust-section" aria-labelledby={headingId}>
      <h3 id={headingId}>{title}</h3>
      <p className="trust-explanation">{explanation}</p>
      <ul className="trust-lines" aria-labelledby={headingId}>
        {lines.map((line) => (
          <li key={`${line.kind}:${line.subject}`} className="trust-line">
            <ReachWhat line={line} />
            <Because line={line} />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A command line, an address or a name exactly as the org writes it (monospace); an agent's free hand in words. */
export function ReachWhat({ line }: { line: ReachLine }) {
  if (line.kind === 'shell' || line.kind === 'web') return <span>{line.because.join('; ')}</span>;
  return <code className="trust-subject">{line.subject}</code>;
}

export function Because({ line }: { line: ReachLine }) {
  const words = becauseWords(line);
  return words ? <span className="trust-because">{words}</span> : null;
}
