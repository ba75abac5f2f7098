import { join } from 'node:path';
import type { FileAccess } from '../../../sandbox/access-policy';
import { AgentSandbox, type AgentSandboxOptions } from '../../../sandbox/agent-sandbox';
import type { SandboxWorld, WorldFactory } from '../../../sandbox/test-support/sandbox-world';
import type { ToolResult } from '../../tool-result';
import type { FsProfileTool, FsToolContext } from '../shared/fs-tool';
import { createRedactor, type Redaction } from '../../../secrets/redactor';

/** An agent's sandbox in a fresh world (on disk or in memory), with helpers to fill its workspace. */
export interface ToolWorld {
  world: SandboxWorld;
  sandbox: AgentSandbox;
  context: FsToolContext;
  /** Absolute path in the agent's workspace. */
  inWorkspace(...names: string[]): string;
  /** Creates a workspace file (and its folders). */
  put(relative: string, content: string | Uint8Array): Promise<void>;
  /** A workspace file's exact text (a byte-order mark kept), or null when there is no such file. */
  text(relative: string): Promise<string | null>;
  call(tool: FsProfileTool, args: unknown): Promise<ToolResult>;
  dispose(): Promise<void>;
}

export async function openToolWorld(
  factory: WorldFactory,
  options: { fileAccess?: FileAccess; redaction?: Redaction } & Pick<
    AgentSandboxOptions,
    'maxReadBytes' | 'maxWriteBytes' | 'checkAccess'
  > = {},
): Promise<ToolWorld> {
  const world = await factory.create();
  await world.mkdir(world.workspace);
  await world.mkdir(world.shared);
  const { redaction = createRedactor(), ...sandboxOptions } = options;
  const sandbox = new AgentSandbox({
    orgPath: world.org,
    agentDir: world.agentDir,
    fs: world.fs,
    ...sandboxOptions,
  });
  const context: FsToolContext = { sandbox, redaction };
  const inWorkspace = (...names: string[]) => join(world.workspace, ...names);
  return {
    world,
    sandbox,
    context,
    inWorkspace,
    put: (relative, content) => world.writeFile(inWorkspace(relative), content),
    async text(relative) {
      const path = inWorkspace(relative);
      if ((await world.fs.stat(path))?.kind !== 'file') return null;
      const bytes = await (world.fs.readBinaryFile as (path: string) => Promise<Uint8Array>)(path);
      return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    },
    call: (tool, args) => tool.run(args, context),
    dispose: () => world.dispose(),
  };
}
