import { z } from 'zod';

/** A top-level system folder as the host has it: a real folder, or a link such as `/bin -> usr/bin`. */
export const SystemRoot = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('directory'), path: z.string() }),
  z.object({ kind: z.literal('link'), path: z.string(), target: z.string() }),
]);
export type SystemRoot = z.infer<typeof SystemRoot>;

/** How shell commands are confined on this machine, as found by detectConfinement. */
export const Confinement = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('bubblewrap'),
    bwrapPath: z.string(),
    /**
     * The sandbox also gets a user namespace of its own, may not create further user namespaces, and
     * has a size-limited /tmp (bubblewrap 0.8 and later, where the kernel allows it).
     */
    hardened: z.boolean(),
    /**
     * Granted folders are mounted from descriptors the engine opened and checked (`--bind-fd`,
     * bubblewrap 0.8 and later), so nothing can swap one for a link between the check and the mount;
     * an older bubblewrap mounts them by path, as named when checked.
     */
    bindsOpenPlaces: z.boolean(),
    systemRoots: z.array(SystemRoot),
  }),
  z.object({ kind: z.literal('sandbox-exec'), sandboxExecPath: z.string() }),
  z.object({ kind: z.literal('none'), reason: z.string() }),
]);
export type Confinement = z.infer<typeof Confinement>;
export type BubblewrapConfinement = Extract<Confinement, { kind: 'bubblewrap' }>;
export type SandboxExecConfinement = Extract<Confinement, { kind: 'sandbox-exec' }>;

/** A folder (or file) of the host that a confined command may see, at `target` inside the sandbox. */
export interface ShellMount {
  /** Its real path, with no link in it. */
  source: string;
  target: string;
  writable: boolean;
  /** `lstat`'s dev and ino of `source` when it was checked, as decimal text: what is mounted must be it. */
  device: string;
  inode: string;
}

/** Where a command runs and what it may see when confined. */
export interface ShellPlaces {
  workingDirectory: string;
  /** Parents before the folders inside them, so an inner grant is laid over an outer one. */
  mounts: ShellMount[];
}
