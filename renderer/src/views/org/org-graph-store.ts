import { create } from 'zustand';
import type { IpcError, OrgGraph, Position } from '../../../../engine/api';
import { lemming } from '../../lemming';

interface OrgGraphStore {
  graph: OrgGraph | null;
  error: IpcError | null;
  /** Fetches org.graph; calls made while one is in flight are served by one more fetch after it. */
  load(): Promise<void>;
  savePositions(positions: Record<string, Position>): Promise<IpcError | null>;
}

let inFlight: Promise<void> | null = null;
let again = false;

export const useOrgGraph = create<OrgGraphStore>((set) => {
  async function fetchUntilSettled() {
    do {
      again = false;
      const result = await lemming().org.graph();
      if (result.ok) set({ graph: result.value, error: null });
      else set({ error: result.error });
    } while (again);
  }

  return {
    graph: null,
    error: null,

    load() {
      if (inFlight) {
        again = true;
        return inFlight;
      }
      inFlight = fetchUntilSettled().finally(() => {
        inFlight = null;
      });
      return inFlight;
    },

    async savePositions(positions) {
      if (Object.keys(positions).length === 0) return null;
      const result = await lemming().org.savePositions({ positions });
      return result.ok ? null : result.error;
    },
  };
});
