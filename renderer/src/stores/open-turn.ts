import { create } from 'zustand';
import { useNavigation } from './navigation-store';

/** What the inspector shows: one agent's turn at a tick, every turn of a tick, or a rehearsal (its record's seq). */
export type InspectorTarget =
  { agent: string; tick: number } | { tick: number; agent?: undefined } | { rehearsal: number };

export const useInspectorTarget = create<{ target: InspectorTarget | null }>(() => ({ target: null }));

/**
 * The inspector's entry point for every screen that links to a turn (a timeline row, a graph node,
 * the agent page, the inbox): shows `agent`'s turn at `tick` as a tree.
 */
export function openTurn(agent: string, tick: number): void {
  useInspectorTarget.setState({ target: { agent, tick } });
  useNavigation.getState().go('inspector');
}

/** Shows every turn of `tick` as a waterfall. */
export function openTick(tick: number): void {
  useInspectorTarget.setState({ target: { tick } });
  useNavigation.getState().go('inspector');
}

/** Shows a rehearsal: what the turn would have done, and the turn as it played. */
export function openRehearsal(seq: number): void {
  useInspectorTarget.setState({ target: { rehearsal: seq } });
  useNavigation.getState().go('inspector');
}
