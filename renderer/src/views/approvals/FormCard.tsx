import { useId, useState } from 'react';
import type {
  AnswerApprovalInput,
  ApprovalRequest,
  FormField,
  FormRequest,
  FormValue,
  FormValues,
} from '../../../../engine/api';
import { write } from '../../server-state/write';
import { useComesIntoView } from './use-comes-into-view';

/** What a field's input holds while the person types: text for text and numbers, the value otherwise. */
type Draft = Record<string, string | boolean | string[]>;

function startingDraft(form: FormRequest): Draft {
  const draft: Draft = {};
  for (const field of form.fields) {
    if (field.type === 'yes_no') draft[field.name] = field.default === true;
    else if (field.type === 'choices') draft[field.name] = Array.isArray(field.default) ? field.default : [];
    else draft[field.name] = field.default === undefined ? '' : String(field.default);
  }
  return draft;
}

/** The values to send: a field left empty is left out, so the server's default applies (SEP-1034). */
function valuesOf(form: FormRequest, draft: Draft): FormValues {
  const values: FormValues = {};
  for (const field of form.fields) {
    const typed = draft[field.name];
    if (typed === undefined || typed === '') continue;
    let value: FormValue = typed;
    if ((field.type === 'integer' || field.type === 'number') && typeof typed === 'string')
      value = Number(typed);
    values[field.name] = value;
  }
  return values;
}

/**
 * A form an MCP server asks the person to fill in while an agent uses it, on the approval cards:
 * its fields from the server's schema with the server's defaults filled in; "Send" sends them,
 * "Decline" tells the server no, "Not now" closes it without a choice (the server hears "cancel").
 */
export function FormCard({ request, onAnswered }: { request: ApprovalRequest; onAnswered(): void }) {
  const form = request.form!;
  const headingId = useId();
  const card = useComesIntoView();
  const [draft, setDraft] = useState<Draft>(() => startingDraft(form));
  const [issues, setIssues] = useState<Record<string, string[]>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const deadline = new Date(request.expires_at).toLocaleTimeString();
  const send = async (input: AnswerApprovalInput) => {
    const result = await write('approvals.answer', input, {
      failure: 'Your answer could not be given',
      fieldOf: (path) => (form.fields.some((field) => field.name === path) ? path : null),
    });
    if (result.ok) return onAnswered();
    setIssues(result.error.fields.byField);
    setProblem(result.error.message);
  };
  return (
    <article
      ref={card}
      className="approval-card form-card"
      role="alertdialog"
      aria-labelledby={headingId}
      data-request-id={request.id}
      tabIndex={-1}
    >
      <h2 id={headingId}>{form.server} asks you to fill in a form</h2>
      <p className="approval-why">{request.reason}</p>
      <p className="form-message">“{form.message}”</p>
      <p className="muted">
        This is the tool server’s own question. Only fill in what you are happy for {form.server} to know.
      </p>
      <form
        className="form-fields"
        // The engine checks the answers and says what is wrong, by field, in the app's own words.
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void send({ id: request.id, answer: 'approve_once', values: valuesOf(form, draft) });
        }}
      >
        {form.fields.map((field) => (
          <FieldInput
            key={field.name}
            field={field}
            value={draft[field.name]}
            problem={issues[field.name]?.[0]}
            onChange={(value) => setDraft({ ...draft, [field.name]: value })}
          />
        ))}
        {problem && (
          <p className="form-problem" role="alert">
            {problem}
          </p>
        )}
        <p className="muted">
          {request.agent} waits for your answer. If you do not answer by {deadline}, the form is closed
          unanswered.
        </p>
        <div className="approval-actions">
          <button type="submit" className="primary">
            Send
          </button>
          <button type="button" onClick={() => void send({ id: request.id, answer: 'deny' })}>
            Decline
          </button>
          <button
            type="button"
            onClick={() => void send({ id: request.id, answer: 'deny', dismissed: true })}
          >
            Not now
          </button>
        </div>
      </form>
    </article>
  );
}

function FieldInput({
  field,
  value,
  problem,
  onChange,
}: {
  field: FormField;
  value: string | boolean | string[] | undefined;
  problem: string | undefined;
  onChange(value: string | boolean | string[]): void;
}) {
  const id = useId();
  const label = (
    <>
      {field.title ?? field.name}
      {field.required && <span className="form-required"> (required)</span>}
    </>
  );
  const about = field.description && <span className="form-about">{field.description}</span>;
  const shownProblem = problem && (
    <span className="form-problem" role="alert">
      {field.title ?? field.name} {problem}
    </span>
  );
  if (field.type === 'yes_no')
    return (
      <div className="form-field">
        <label>
          <input
            type="checkbox"
            checked={value === true}
            onChange={(event) => onChange(event.target.checked)}
          />{' '}
          {label}
        </label>
        {about}
        {shownProblem}
      </div>
    );
  if (field.type === 'choices') {
    const chosen = Array.isArray(value) ? value : [];
    return (
      <fieldset className="form-field">
        <legend>{label}</legend>
        {about}
        {(field.choices ?? []).map((choice) => (
          <label key={choice.value}>
            <input
              type="checkbox"
              checked={chosen.includes(choice.value)}
              onChange={(event) =>
                onChange(
                  event.target.checked
                    ? [...chosen, choice.value]
                    : chosen.filter((item) => item !== choice.value),
                )
              }
            />{' '}
            {choice.label}
          </label>
        ))}
        {shownProblem}
      </fieldset>
    );
  }
  return (
    <div className="form-field">
      <label htmlFor={id}>{label}</label>
      {about}
      {field.type === 'choice' ? (
        <select
          id={id}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">{field.required ? 'Choose one' : '(none)'}</option>
          {(field.choices ?? []).map((choice) => (
            <option key={choice.value} value={choice.value}>
              {choice.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          id={id}
          type={
            field.type === 'integer' || field.type === 'number'
              ? 'number'
              : field.format === 'email'
                ? 'email'
                : field.format === 'date'
                  ? 'date'
                  : 'text'
          }
          step={field.type === 'integer' ? 1 : 'any'}
          min={field.minimum}
          max={field.maximum}
          value={typeof value === 'string' ? value : ''}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      {shownProblem}
    </div>
  );
}
