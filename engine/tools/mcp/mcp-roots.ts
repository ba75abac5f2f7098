import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileGrants, type FileAccess } from '../../sandbox/access-policy';
import { agentLayout, isWithin } from '../../sandbox/sandbox-layout';
import { isStdioServer, type McpServerConfig } from './mcp-config';

/**
 * The roots LeMMing offers a server (the specification's `roots/list`), which a server that follows
 * roots (the reference filesystem server does) works in instead of the folders it was started with:
 * those of its folders inside the org's shared folder (never wider than it was given), and the shared
 * folder itself in place of any other (the org, another agent's workspace, a folder of the person's).
 */
export function offeredRoots(config: McpServerConfig, orgPath: string): string[] {
  const shared = existingFolder(resolve(orgPath, 'shared')) ?? resolve(orgPath, 'shared');
  const started = startedFolders(config, orgPath);
  const inside = started.filter((folder) => isWithin(shared, folder));
  if (inside.length > 0 && inside.length === started.length) return inside;
  return [shared, ...inside.filter((folder) => folder !== shared)];
}

/**
 * Each argument of a program that names an existing folder (from the org folder, where it starts):
 * how a filesystem-like server takes its roots. Real paths, so a link cannot hide where one leads.
 */
function startedFolders(config: McpServerConfig, orgPath: string): string[] {
  if (!isStdioServer(config)) return [];
  return config.args.flatMap((arg) => {
    const value = arg.startsWith('--') && arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : arg;
    return existingFolder(resolve(orgPath, value)) ?? [];
  });
}

function existingFolder(path: string): string | null {
  try {
    return statSync(path).isDirectory() ? realpathSync(path) : null;
  } catch {
    return null;
  }
}

/** A folder a server works in: one it was started with, or one LeMMing offers it. */
export interface ServerFolder {
  path: string;
  startedWith: boolean;
}

/**
 * The folders a program on this computer may work in: those it was started with (a server may ignore
 * the roots it is offered) and those offered. None for a server over HTTP: what it reads is its own.
 */
export function serverFolders(config: McpServerConfig, orgPath: string): ServerFolder[] {
  if (!isStdioServer(config)) return [];
  const started = startedFolders(config, orgPath).map((path) => ({ path, startedWith: true }));
  const offered = offeredRoots(config, orgPath).map((path) => ({ path, startedWith: false }));
  const seen = new Set<string>();
  return [...started, ...offered].filter(({ path }) => !seen.has(path) && seen.add(path));
}

/** An agent that may use the server, with its folder and the file grants of its resume. */
export interface AgentReading {
  name: string;
  agentDir: string;
  fileAccess: FileAccess | undefined;
}

/**
 * In plain words, for the server's card: each folder the server works in that reaches past what an
 * agent using it may read with its own file tools (its `file_access`, or its workspace and shared/).
 */
export function reachPastGrants(
  folders: readonly ServerFolder[],
  agents: readonly AgentReading[],
  orgPath: string,
): string[] {
  const offered = folders.filter((folder) => !folder.startedWith).map((folder) => folder.path);
  return folders.flatMap(({ path, startedWith }) => {
    const past = agents.filter((agent) => !readRoots(agent, orgPath).some((root) => isWithin(root, path)));
    if (past.length === 0) return [];
    const how = startedWith
      ? `it was started with that folder; LeMMing asks it to keep to ${offered.join(' and ')}, but cannot make it`
      : 'LeMMing offers it that folder';
    return [
      `Agents using this server can read everything under ${path}, more than they are given (${past.map((agent) => agent.name).join(', ')}): ${how}.`,
    ];
  });
}

function readRoots(agent: AgentReading, orgPath: string): string[] {
  return fileGrants(agentLayout(orgPath, agent.agentDir), agent.fileAccess?.allow_read).map(
    (grant) => existingFolder(grant.lexicalPath) ?? grant.lexicalPath,
  );
}
