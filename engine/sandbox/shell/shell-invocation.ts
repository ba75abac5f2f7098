import type { PinnedPlace } from '../../processes/child-starters';
import { bubblewrapArgs, bubblewrapPlaces } from './bubblewrap-args';
import type { Confinement, ShellPlaces } from './confinement';
import { sandboxExecArgs } from './macos-sandbox-profile';

export interface ShellInvocation {
  file: string;
  args: string[];
  /** Places the program starter opens, checks and passes to the program (bubblewrap's `--bind-fd`). */
  places: PinnedPlace[];
}

/** The program to start for `/bin/sh -c command`: the shell itself, or the sandbox that wraps it. */
export function shellInvocation(
  confinement: Confinement,
  places: ShellPlaces,
  command: string,
  env: Readonly<Record<string, string>>,
): ShellInvocation {
  switch (confinement.kind) {
    case 'bubblewrap':
      return {
        file: confinement.bwrapPath,
        args: bubblewrapArgs({
          confinement,
          mounts: places.mounts,
          workingDirectory: places.workingDirectory,
          env,
          command,
        }),
        places: bubblewrapPlaces(confinement, places.mounts),
      };
    case 'sandbox-exec':
      return {
        file: confinement.sandboxExecPath,
        args: sandboxExecArgs({ confinement, mounts: places.mounts, command }),
        places: [],
      };
    case 'none':
      return { file: '/bin/sh', args: ['-c', command], places: [] };
  }
}
