import { z } from 'zod';

/** Every way a call across IPC can fail; the renderer switches on `code`, people read `message`. */
export const IpcErrorCode = z.enum([
  'invalid_input',
  'unknown_channel',
  'forbidden_sender',
  'no_org_open',
  'org_not_found',
  /** The folder is there but is not an org (no `agents` folder); the user may create one there. */
  'not_an_org',
  /** The org folder is there but its timeline or a config file the engine needs cannot be used. */
  'org_unusable',
  'agent_not_found',
  /** Something with that name is already there. */
  'already_exists',
  /** The change would leave a file invalid; nothing was written. `issues` says where. */
  'invalid_change',
  /** The run is in a phase where this cannot be done now. */
  'busy',
  /** Refused for a reason the user can act on (a secret store that cannot encrypt, a tool no setting can enable). */
  'refused',
  /** The change reaches beyond what was asked (the whole org); nothing was written until the user agrees. */
  'needs_confirmation',
  /** The org would start programs, contact addresses or use secrets, and its person has not trusted it (as it is now). */
  'not_trusted',
  'not_found',
  'internal',
]);
export type IpcErrorCode = z.infer<typeof IpcErrorCode>;

export const IpcIssue = z.object({ path: z.string(), message: z.string() });
export type IpcIssue = z.infer<typeof IpcIssue>;

export const IpcError = z.object({
  code: IpcErrorCode,
  message: z.string(),
  issues: z.array(IpcIssue).optional(),
  /** What to do about it, when there is something. */
  fix: z.string().optional(),
});
export type IpcError = z.infer<typeof IpcError>;

/** The one shape of an answer that can fail: the value, or the error, always under `error`. */
export type Result<T, E> = { ok: true; value: T } | { ok: false; error: E };

/** A Result whose success carries more beside its value (a config read's `warnings`, whether the file `exists`). */
export type ResultWith<T, E, Extra extends object> =
  (Extract<Result<T, E>, { ok: true }> & Extra) | Extract<Result<T, E>, { ok: false }>;

/** A use-case's answer, as IPC and the CLI carry it. */
export type IpcResult<T> = Result<T, IpcError>;

export function ipcResultSchema<T extends z.ZodType>(value: T) {
  return z.discriminatedUnion('ok', [
    z.object({ ok: z.literal(true), value }),
    z.object({ ok: z.literal(false), error: IpcError }),
  ]);
}

export const ok = <T>(value: T): IpcResult<T> => ({ ok: true, value });

export const fail = (
  code: IpcErrorCode,
  message: string,
  issues?: IpcIssue[],
  fix?: string,
): IpcResult<never> => ({
  ok: false,
  error: { code, message, ...(issues ? { issues } : {}), ...(fix ? { fix } : {}) },
});

/** Zod issues as `field.path: message` pairs a person can act on. */
export function issuesFromZod(error: z.ZodError): IpcIssue[] {
  return error.issues.map((issue) => ({
    path: issue.path.length ? issue.path.map(String).join('.') : '(input)',
    message: issue.message,
  }));
}
