import { lemming } from './lemming';
import { createServerState, type ServerState } from './server-state';

let instance: ServerState | null = null;

/** The window's one server-state layer, over `window.lemming` (set by preload, or the test harness). */
export function serverState(): ServerState {
  instance ??= createServerState(lemming());
  return instance;
}
