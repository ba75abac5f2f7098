import { problemLocation, type Problem } from '../../../../engine/api/problem';

/** Problems that make a resume invalid (or warnings), each with where it is and what to do. */
export function AgentProblems({
  problems,
  tone,
  label,
  formShown = false,
}: {
  problems: Problem[];
  /** Whether the form below can repair them (a resume that reads as one). */
  formShown?: boolean;
  tone: 'error' | 'warning';
  label: string;
}) {
  if (problems.length === 0) return null;
  return (
    <section className={`agent-problems agent-problems-${tone}`} aria-label={label}>
      <h3>
        <span aria-hidden="true">{tone === 'error' ? '✗ ' : '⚠ '}</span>
        {label}
      </h3>
      <ul>
        {problems.map((problem, index) => (
          <li key={index}>
            <code>{problemLocation(problem)}</code>
            {problem.field && (
              <>
                {' '}
                — field <code>{problem.field}</code>
              </>
            )}
            : {problem.message}
          </li>
        ))}
      </ul>
      {tone === 'error' && (
        <p>
          To fix it, {formShown ? 'change the field named above in the form below and save, or ' : ''}edit the
          file in a text editor (its text is under <strong>Show the resume file</strong>). LeMMing skips this
          agent until it is valid.
        </p>
      )}
    </section>
  );
}
