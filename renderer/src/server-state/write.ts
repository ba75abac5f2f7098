import type { ChannelInput, ChannelOutput, IpcError, Result } from '../../../engine/api';
import { useActivity } from '../components/activity-store';
import { toast } from '../components/toast-store';
import { serverState } from './instance';
import type { WriteChannel } from './stale-map';

/** The problems of a refused write, placed: each form field's messages, and the ones no field takes. */
export interface FieldProblems {
  byField: Record<string, string[]>;
  /** Said with where they are (`servers.notes: …`), for a list under the form. */
  elsewhere: string[];
}

/** A refused write: main's error, its issues placed on the form's fields. */
export type WriteError = IpcError & { fields: FieldProblems };

/** A toast's title, or its title with a line under it. */
type Toasted = string | { title: string; detail?: string };

export interface WriteOptions<T> {
  /** The error toast's title when the write is refused (and the form shows none of its problems). */
  failure: string;
  /** The success toast: its title, or one made from the answer (with a line under it); nothing said when it gives undefined. */
  success?: Toasted | ((value: T) => Toasted | undefined);
  /** The header's "in progress" words while the write is on its way. */
  progress?: string;
  /**
   * Which form field an issue's path belongs to (null: none). With it, the form shows the refusal (its
   * problems at its fields, the others and the message under it), so it is not toasted.
   */
  fieldOf?: (path: string) => string | null;
}

/**
 * THE one place main's `IpcError.issues` become form fields: every form passes only how its field
 * names are spelled in an issue's path.
 */
export function placeProblems(
  error: IpcError | null,
  fieldOf: (path: string) => string | null,
): FieldProblems {
  const byField: Record<string, string[]> = {};
  const elsewhere: string[] = [];
  for (const { path, message } of error?.issues ?? []) {
    const field = fieldOf(path);
    if (field === null) elsewhere.push(`${path}: ${message}`);
    else byField[field] = [...(byField[field] ?? []), message];
  }
  return { byField, elsewhere };
}

/**
 * One write to main, the way every form and button writes: the header shows it is on its way, what it
 * changed is stale at once, success and failure are toasted through one path (a failure only when no
 * form shows it), and the answer comes back as a value with its problems placed.
 */
export async function write<C extends WriteChannel>(
  channel: C,
  input: ChannelInput<C>,
  { failure, success, progress, fieldOf }: WriteOptions<ChannelOutput<C>>,
): Promise<Result<ChannelOutput<C>, WriteError>> {
  const activity = useActivity.getState();
  const id = activity.begin(progress ?? 'Saving…');
  const result = await serverState().write(channel, input);
  activity.end(id, result.ok);
  if (result.ok) {
    const said = typeof success === 'function' ? success(result.value) : success;
    if (typeof said === 'string') toast.success(said);
    else if (said) toast.success(said.title, said.detail);
    return result;
  }
  const fields = placeProblems(result.error, fieldOf ?? (() => null));
  // A form shows its own refusals, and asks for the person's yes when a write needs it.
  if (!fieldOf && result.error.code !== 'needs_confirmation') toast.error(failure, result.error);
  return { ok: false, error: { ...result.error, fields } };
}

/** A write's value, or null when it was refused (the refusal was already said): `write(…).then(valueOf)`. */
export const valueOf = <T>(result: Result<T, WriteError>): T | null => (result.ok ? result.value : null);
