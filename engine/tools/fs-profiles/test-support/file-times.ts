import { utimes } from 'node:fs/promises';
import type { MemoryAgentFilesystem } from '../../../sandbox/memory-agent-filesystem';
import type { ToolWorld } from './tool-world';

/**
 * Gives workspace files modification times in the order listed, oldest first: on disk with utimes
 * (`ageMs` before now, one second apart), in memory by rewriting them in that order (its clock is a
 * counter).
 */
export async function ageInOrder(
  tools: ToolWorld,
  relatives: readonly string[],
  ageMs = 60_000,
): Promise<void> {
  for (const [index, relative] of relatives.entries()) {
    const path = tools.inWorkspace(relative);
    if (tools.world.kind === 'disk') {
      const time = new Date(Date.now() - ageMs + index * 1000);
      await utimes(path, time, time);
    } else {
      const fs = tools.world.fs as MemoryAgentFilesystem;
      fs.addFile(path, (await tools.text(relative)) ?? '');
    }
  }
}
