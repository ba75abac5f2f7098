import type { Redaction } from '../secrets/redactor';
import { PROTECTED_PLACES_IN_WORDS } from '../sandbox/protected-places';
import type { Confinement } from '../sandbox/shell/confinement';
import { runShellCommand, type ShellCommandRun, type StreamText } from '../sandbox/shell/run-shell-command';
import { shellPlaces } from '../sandbox/shell/shell-places';
import { toolFailure, type ToolResult } from './tool-result';
import type { ToolSpec } from './tool-spec';

export const DEFAULT_SHELL_TIMEOUT_MS = 30_000;
export const DEFAULT_SHELL_OUTPUT_BYTES = 64 * 1024;
export const DEFAULT_SHELL_STOP_AFTER_BYTES = 32 * 1024 * 1024;
export const MAX_COMMAND_BYTES = 64 * 1024;

export interface ShellToolOptions {
  /** From detectConfinement: how commands are confined here, or why they are not. */
  confinement: Confinement;
  timeoutMs?: number;
  /** Bytes kept of stdout, and separately of stderr. */
  maxOutputBytes?: number;
  /** Output (both streams) after which a command is stopped instead of drained until its timeout. */
  stopAfterBytes?: number;
}

interface ShellLimits {
  timeoutMs: number;
  maxOutputBytes: number;
  stopAfterBytes: number;
}

/** Whether shell commands are confined here, in words for the agent, the user and the policy explainer. */
export function confinementNote(confinement: Confinement): string {
  const sees = `they see the system's programs and only the folders you may use (your workspace and, if you have it, the shared folder at ../../../shared), have no network, and get a clean environment without secrets; whatever the grants, ${PROTECTED_PLACES_IN_WORDS}`;
  switch (confinement.kind) {
    case 'bubblewrap':
      return `Shell commands are confined with bubblewrap: ${sees}.`;
    case 'sandbox-exec':
      return `Shell commands are confined by the macOS sandbox: ${sees}.`;
    case 'none':
      return `Shell access is not confined on this machine (${confinement.reason}): commands run with the app user's rights, can read and change any file that user can and can reach the network; only their environment is cleaned of secrets.`;
  }
}

/** How shell commands are confined here, in words for people (confinementNote names the sandbox and the folders). */
export function confinementSummary(confinement: Confinement): string {
  if (confinement.kind === 'none')
    return 'Shell commands are not walled off on this computer: they can read and change anything your user account can, and reach the internet. Give this tool only to agents you trust.';
  const walledOff =
    "Shell commands run walled off: they see only the agent's own folders and the shared folder, cannot reach the internet, never see your keys, and cannot change the org's settings or other agents' files.";
  return confinement.kind === 'bubblewrap' && !confinement.bindsOpenPlaces
    ? `${walledOff} This computer's bubblewrap is older than version 0.8, though: an agent that may change the shared folder could trick another agent's commands into writing outside the org. Updating bubblewrap closes that gap.`
    : walledOff;
}

/** The shell tool as the person reads it. */
export const SHELL_TOOL_TITLE = 'Run a shell command';

/**
 * LeMMing's `shell {command}`, run by `/bin/sh -c` in the agent's workspace with no stdin, a clean
 * environment, a timeout that stops everything the command started, and capped output; confined where
 * this machine allows (see detectConfinement), and saying so in its description when it is not.
 */
export function createShellTool(options: ShellToolOptions): ToolSpec {
  const limits: ShellLimits = {
    timeoutMs: options.timeoutMs ?? DEFAULT_SHELL_TIMEOUT_MS,
    maxOutputBytes: options.maxOutputBytes ?? DEFAULT_SHELL_OUTPUT_BYTES,
    stopAfterBytes: options.stopAfterBytes ?? DEFAULT_SHELL_STOP_AFTER_BYTES,
  };
  const { confinement } = options;
  return {
    name: 'shell',
    kind: 'shell',
    title: SHELL_TOOL_TITLE,
    definition: {
      name: 'shell',
      description: [
        'Run a command with /bin/sh in your workspace (pipes, redirections and variables work) and get what it prints.',
        `It gets no input, nothing it starts in the background outlives it, it is stopped after ${seconds(limits.timeoutMs)}, and the first ${limits.maxOutputBytes} bytes of its output and of its errors are kept.`,
        confinementNote(confinement),
      ].join(' '),
      parameters: {
        type: 'object',
        properties: {
          command: {
            type: 'string',
            description: 'The command line, e.g. "ls -la" or "grep -c TODO notes.md".',
          },
        },
        required: ['command'],
        additionalProperties: false,
      },
    },
    run: async (args, context) => {
      try {
        const command = commandArgument(args);
        if (typeof command !== 'string') return command;
        const places = await shellPlaces(context.sandbox);
        if (!places.ok) return toolFailure(`The shell cannot run: ${places.error}`);
        const result = await runShellCommand({
          command,
          confinement,
          places: places.value,
          ...limits,
          ...(context.signal === undefined ? {} : { signal: context.signal }),
        });
        if (!result.ok) return toolFailure(`Command could not be started: ${result.error}`);
        return shellResult(result.value, limits, context.redaction);
      } catch (error) {
        return toolFailure(`Tool shell failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },
  };
}

/** The command, or the failed result that says what is wrong with it (LeMMing's texts where it has them). */
function commandArgument(args: unknown): string | ToolResult {
  const given =
    typeof args === 'object' && args !== null && !Array.isArray(args) && Object.hasOwn(args, 'command')
      ? (args as Record<string, unknown>).command
      : undefined;
  if (given === undefined || given === null || given === '')
    return toolFailure("Missing 'command' parameter");
  if (typeof given !== 'string') return toolFailure('Command must be a string');
  if (given.trim() === '') return toolFailure('Empty command');
  if (given.includes('\0')) return toolFailure('Command must not contain NUL characters');
  const bytes = Buffer.byteLength(given, 'utf8');
  if (bytes > MAX_COMMAND_BYTES)
    return toolFailure(`Command too long (${bytes} bytes). Max size is ${MAX_COMMAND_BYTES} bytes.`);
  return given;
}

/**
 * LeMMing's shape: exit 0 is a success with stdout as output; otherwise stdout is the output and stderr
 * the error. Unlike LeMMing, stderr of a success is kept, the exit code and any stop are said, and cut
 * output says how much there was.
 */
function shellResult(run: ShellCommandRun, limits: ShellLimits, redaction: Redaction): ToolResult {
  const output = shown(run.stdout, redaction);
  const errors = shown(run.stderr, redaction);
  if (run.exitCode === 0 && run.stopped === null)
    return { success: true, output, error: errors === '' ? null : errors };
  return { success: false, output, error: joinLines(errors, ending(run, limits)) };
}

function ending(run: ShellCommandRun, limits: ShellLimits): string {
  switch (run.stopped) {
    case 'timeout':
      return `Command timed out after ${seconds(limits.timeoutMs)}; it and everything it started were stopped`;
    case 'output_limit':
      return `Command was stopped after it printed more than ${limits.stopAfterBytes} bytes`;
    case 'aborted':
      return 'Command was cancelled';
    case null:
      return run.exitCode === null
        ? `Command was killed by signal ${run.exitSignal ?? 'unknown'}`
        : `Exit code ${run.exitCode}`;
  }
}

/** What a stream printed; output cut at the byte cap is redacted here, so no secret's first characters stay at the cut. */
function shown(stream: StreamText, redaction: Redaction): string {
  if (!stream.truncated) return stream.text;
  const kept = Buffer.byteLength(stream.text, 'utf8');
  return `${redaction.redactCut(stream.text)}\n[truncated: ${stream.totalBytes} bytes were printed, the first ${kept} are shown]`;
}

function joinLines(first: string, second: string): string {
  const head = first.replace(/\n+$/, '');
  return head === '' ? second : `${head}\n${second}`;
}

function seconds(ms: number): string {
  const value = ms / 1000;
  return `${value} second${value === 1 ? '' : 's'}`;
}
