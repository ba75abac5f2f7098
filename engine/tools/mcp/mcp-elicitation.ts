import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import type {
  ApprovalAnswer,
  FormChoice,
  FormField,
  FormRequest,
  FormValue,
  FormValues,
} from '../../api/approval-schemas';

/** What the person is asked for, and how they answer: through the same askers as approvals. */
export type AskPerson = (form: FormRequest) => Promise<ApprovalAnswer>;

type PropertySchema = ElicitRequestFormParams['requestedSchema']['properties'][string];

const asRecord = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
const numberOr = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);
const textOr = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** `[{const, title}]` (titled choices, SEP-1330) or `enum` with the legacy `enumNames`. */
function choicesOf(schema: Record<string, unknown>): FormChoice[] | undefined {
  const titled = (schema.oneOf ?? schema.anyOf) as unknown;
  if (Array.isArray(titled))
    return titled.map((option) => {
      const { const: value, title } = asRecord(option);
      return { value: String(value), label: textOr(title) ?? String(value) };
    });
  if (Array.isArray(schema.enum)) {
    const names = Array.isArray(schema.enumNames) ? (schema.enumNames as unknown[]) : [];
    return (schema.enum as unknown[]).map((value, index) => ({
      value: String(value),
      label: textOr(names[index]) ?? String(value),
    }));
  }
  return undefined;
}

function fieldOf(name: string, property: PropertySchema, required: boolean): FormField {
  const schema = asRecord(property);
  const words = {
    name,
    required,
    ...(textOr(schema.title) ? { title: textOr(schema.title) } : {}),
    ...(textOr(schema.description) ? { description: textOr(schema.description) } : {}),
  };
  const limits = (
    min: unknown,
    max: unknown,
    minKey: 'minimum' | 'minLength',
    maxKey: 'maximum' | 'maxLength',
  ) => ({
    ...(numberOr(min) !== undefined ? { [minKey]: numberOr(min) } : {}),
    ...(numberOr(max) !== undefined ? { [maxKey]: numberOr(max) } : {}),
  });
  const fallback = schema.default;
  switch (schema.type) {
    case 'boolean':
      return { ...words, type: 'yes_no', ...(typeof fallback === 'boolean' ? { default: fallback } : {}) };
    case 'number':
    case 'integer':
      return {
        ...words,
        type: schema.type,
        ...limits(schema.minimum, schema.maximum, 'minimum', 'maximum'),
        ...(typeof fallback === 'number' ? { default: fallback } : {}),
      };
    case 'array':
      return {
        ...words,
        type: 'choices',
        choices: choicesOf(asRecord(schema.items)) ?? [],
        ...limits(schema.minItems, schema.maxItems, 'minLength', 'maxLength'),
        ...(Array.isArray(fallback) ? { default: fallback.map(String) } : {}),
      };
    default: {
      const choices = choicesOf(schema);
      if (choices)
        return {
          ...words,
          type: 'choice',
          choices,
          ...(typeof fallback === 'string' ? { default: fallback } : {}),
        };
      return {
        ...words,
        type: 'text',
        ...(textOr(schema.format) ? { format: textOr(schema.format) } : {}),
        ...limits(schema.minLength, schema.maxLength, 'minLength', 'maxLength'),
        ...(typeof fallback === 'string' ? { default: fallback } : {}),
      };
    }
  }
}

/** A server's form request (its flat schema of primitive fields, as the SDK has checked it) as the person's form. */
export function formRequest(server: string, params: ElicitRequestFormParams): FormRequest {
  const { properties, required = [] } = params.requestedSchema;
  return {
    server,
    message: params.message,
    fields: Object.entries(properties).map(([name, property]) =>
      fieldOf(name, property, required.includes(name)),
    ),
  };
}

/** The most fields and characters of a server's words a form may have to be shown to the person. */
export const FORM_MAX_FIELDS = 50;
export const FORM_MAX_TEXT = 4000;

/** Whether the form is more than a person could read and fill in (then it is declined unasked). */
export function formTooLarge(form: FormRequest): boolean {
  const words = [
    form.message,
    ...form.fields.flatMap((field) => [field.title ?? '', field.description ?? '']),
  ];
  return form.fields.length > FORM_MAX_FIELDS || words.some((text) => text.length > FORM_MAX_TEXT);
}

/** The values given, with each omitted field that has a default given its default (SEP-1034). */
export function withDefaults(form: FormRequest, values: FormValues): FormValues {
  const filled: FormValues = {};
  for (const field of form.fields) {
    const value = values[field.name] ?? field.default;
    if (value !== undefined) filled[field.name] = value;
  }
  return filled;
}

const FORMATS: Record<string, { test: (text: string) => boolean; words: string }> = {
  email: { test: (text) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text), words: 'an email address' },
  uri: { test: (text) => URL.canParse(text), words: 'a web address (with https:// or the like)' },
  date: {
    test: (text) => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(text)),
    words: 'a date like 2026-01-31',
  },
  'date-time': {
    test: (text) => !Number.isNaN(Date.parse(text)) && /^\d{4}-\d{2}-\d{2}T/.test(text),
    words: 'a date and time like 2026-01-31T09:30:00Z',
  },
};

function valueProblem(field: FormField, value: FormValue): string | null {
  const allowed = new Set((field.choices ?? []).map((choice) => choice.value));
  switch (field.type) {
    case 'yes_no':
      return typeof value === 'boolean' ? null : 'must be yes or no';
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
      if (field.type === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
      if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
      if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
      return null;
    }
    case 'choice':
      return typeof value === 'string' && allowed.has(value) ? null : 'must be one of the choices';
    case 'choices': {
      if (!Array.isArray(value) || value.some((item) => !allowed.has(item)))
        return 'must be some of the choices';
      if (field.minLength !== undefined && value.length < field.minLength)
        return `needs at least ${field.minLength} chosen`;
      if (field.maxLength !== undefined && value.length > field.maxLength)
        return `allows at most ${field.maxLength} chosen`;
      return null;
    }
    case 'text': {
      if (typeof value !== 'string') return 'must be text';
      if (field.minLength !== undefined && value.length < field.minLength)
        return `needs at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength)
        return `allows at most ${field.maxLength} characters`;
      const format = field.format ? FORMATS[field.format] : undefined;
      if (format && !format.test(value)) return `must be ${format.words}`;
      return null;
    }
  }
}

/** What is wrong with the values for the form (defaults applied), one problem per field; empty when none. */
export function formProblems(form: FormRequest, values: FormValues): { field: string; message: string }[] {
  const known = new Set(form.fields.map((field) => field.name));
  const filled = withDefaults(form, values);
  return [
    ...Object.keys(values)
      .filter((name) => !known.has(name))
      .map((name) => ({ field: name, message: 'is not a field of this form' })),
    ...form.fields.flatMap((field) => {
      const value = filled[field.name];
      if (value === undefined)
        return field.required ? [{ field: field.name, message: 'must be filled in' }] : [];
      const problem = valueProblem(field, value);
      return problem ? [{ field: field.name, message: problem }] : [];
    }),
  ];
}

/** The person's answer as the server is told it: accepted with the values (defaults applied), declined, or cancelled. */
export function elicitResult(form: FormRequest, answer: ApprovalAnswer): ElicitResult {
  if (answer.answer === 'deny') return { action: answer.dismissed ? 'cancel' : 'decline' };
  return { action: 'accept', content: withDefaults(form, answer.values ?? {}) };
}

/** A form with no one to fill it in (an unattended run, a call no person started): declined, saying why. */
export const UNATTENDED_FORM: ApprovalAnswer = {
  answer: 'deny',
  source: 'unattended',
  reason: 'No one was there to fill in the form (an unattended run).',
};
