import { contract, isChannel, type Channel } from '../../engine/api/contract';
import { fail, issuesFromZod, type IpcResult } from '../../engine/api/result';
import type { Handlers } from './handlers';

export type Dispatch = (channel: unknown, input: unknown) => Promise<IpcResult<unknown>>;

export interface DispatchOptions {
  /** Where unexpected errors go; their text never crosses to the renderer. */
  logError?: (channel: Channel, error: unknown) => void;
  /**
   * Applied to every answer before it leaves main (the engine host's redactor): whatever a handler
   * returns, no secret value reaches the renderer.
   */
  redact?: <T>(value: T) => T;
}

/**
 * Validates a call against the contract and runs its handler. Never throws: every failure becomes
 * a typed `{ ok: false, error }` result.
 */
export function createDispatch(handlers: Handlers, options: DispatchOptions = {}): Dispatch {
  const redact = options.redact ?? (<T>(value: T) => value);
  return async (channel, input) => {
    if (!isChannel(channel))
      return fail('unknown_channel', `There is no channel named ${JSON.stringify(String(channel))}.`);
    const parsed = contract[channel].input.safeParse(input);
    if (!parsed.success) {
      return redact(fail('invalid_input', `Invalid input for ${channel}.`, issuesFromZod(parsed.error)));
    }
    try {
      const handler = handlers[channel] as (input: unknown) => Promise<IpcResult<unknown>>;
      return redact(await handler(parsed.data));
    } catch (error) {
      options.logError?.(channel, error);
      return fail('internal', `${channel} failed unexpectedly. Details are in the app log.`);
    }
  };
}

/**
 * Answers the channels `local` has a handler for here and passes every other call on to `remote`
 * (the engine thread), which validates it against the contract itself.
 */
export function createRelay(
  local: Partial<Handlers>,
  remote: Dispatch,
  options: DispatchOptions = {},
): Dispatch {
  const here = createDispatch(local as Handlers, options);
  return (channel, input) =>
    isChannel(channel) && local[channel] ? here(channel, input) : remote(channel, input);
}
