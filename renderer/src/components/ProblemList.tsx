import type { IpcIssue } from '../../../engine/api';

/** Problems said with where each is (`field: message`), as a list under a form or inside an alert. */
export function ProblemList({
  problems,
  label,
}: {
  problems: readonly (string | IpcIssue)[];
  label?: string;
}) {
  if (problems.length === 0) return null;
  return (
    <ul className="problem-list" aria-label={label}>
      {problems.map((problem, index) => (
        <li key={index}>
          {typeof problem === 'string' ? (
            problem
          ) : (
            <>
              <code>{problem.path}</code>: {problem.message}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}
