import { defaultNeed, isMcp, UNKNOWN_STANDING, type ApprovalSubject } from './approval-rule';

/** Built-in tools that only read: a rehearsal runs them for real. */
const READ_ONLY_BUILT_INS: ReadonlySet<string> = new Set([
  'file_read',
  'file_list',
  'read_file',
  'list_dir',
  'grep_files',
  'list_directory',
  'grep_search',
  'glob',
  'memory_read',
  'list_agents',
]);

/**
 * Built-in tools a turn may run again without doing anything twice: they only read, or what they change
 * (memory) is kept with the turn and committed with it.
 */
const REPEATABLE_BUILT_INS: ReadonlySet<string> = new Set([...READ_ONLY_BUILT_INS, 'memory_write']);

/** An MCP tool only reads when its server says so and the person trusts what that server says. */
function mcpOnlyReads(subject: ApprovalSubject): boolean {
  const standing = subject.mcpStanding ?? UNKNOWN_STANDING;
  return standing.hintsTrusted && !standing.changeReason && subject.annotations?.readOnlyHint === true;
}

/**
 * Whether a call may change something outside its turn, so that running it again could do it twice.
 * Anything not known to only read may: the shell, file writes, an HTTP request that is not a plain
 * GET or HEAD, an MCP tool unless its server, whose hints the person trusts, says it only reads, and a
 * composed tool that ends in one of these.
 */
export function mayChangeTheWorld(subject: ApprovalSubject, args: unknown): boolean {
  if (subject.onlyReads) return false;
  if (subject.endsIn) {
    const { name, kind, method, headers } = subject.endsIn;
    // A delegate whose method is templated is judged as an unknown method, as the approval rule does.
    return mayChangeTheWorld({ name, kind }, method ? { method, headers } : {});
  }
  if (isMcp(subject)) return !mcpOnlyReads(subject);
  if (subject.name === 'http_request') return defaultNeed(subject, args).mode !== 'always';
  return !REPEATABLE_BUILT_INS.has(subject.name);
}

/**
 * Whether a call only reads, so that a rehearsal runs it for real. Fails closed: a tool is held back
 * unless it is known to only read (a built-in reader, an MCP server's resources, an MCP tool whose
 * trusted server says it only reads, a composed tool that ends in one of these). Memory writes and
 * every HTTP request (a GET reaches out too) are held back.
 */
export function onlyReads(subject: ApprovalSubject): boolean {
  if (subject.onlyReads) return true;
  if (subject.endsIn) return onlyReads({ name: subject.endsIn.name, kind: subject.endsIn.kind });
  if (isMcp(subject)) return mcpOnlyReads(subject);
  return READ_ONLY_BUILT_INS.has(subject.name);
}
