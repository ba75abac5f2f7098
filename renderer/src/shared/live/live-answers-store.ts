import { create } from 'zustand';
import type { TurnProgress } from '../../../../engine/api';

/** What a running agent's model is writing right now. */
export interface LiveAnswer {
  turn: string;
  round: number;
  text: string;
  /** The tool the model is asking to call, while it forms the call. */
  tool: string | null;
}

interface LiveAnswersStore {
  byAgent: Record<string, LiveAnswer>;
  receive(progress: readonly TurnProgress[]): void;
  /** The agent's turn ended (or a new one starts): its live answer is gone; the timeline has the whole. */
  clear(names: readonly string[]): void;
  clearAll(): void;
}

/**
 * The live answer grows only from pieces; a new model call (round) or turn starts it afresh, and so
 * does a call tried again (a restart: the failed attempt's pieces are void).
 */
export const useLiveAnswers = create<LiveAnswersStore>((set) => ({
  byAgent: {},
  receive(progress) {
    set(({ byAgent }) => {
      const next = { ...byAgent };
      for (const piece of progress) {
        const current = next[piece.agent];
        let answer: LiveAnswer =
          current && current.turn === piece.turn && current.round === piece.round
            ? { ...current }
            : { turn: piece.turn, round: piece.round, text: '', tool: null };
        for (const delta of piece.deltas) {
          if (delta.type === 'restart') answer = { ...answer, text: '', tool: null };
          else if (delta.type === 'text') answer = { ...answer, text: answer.text + delta.text };
          else if (delta.name) answer = { ...answer, tool: delta.name };
        }
        next[piece.agent] = answer;
      }
      return { byAgent: next };
    });
  },
  clear(names) {
    set(({ byAgent }) => {
      if (!names.some((name) => name in byAgent)) return { byAgent };
      const next = { ...byAgent };
      for (const name of names) delete next[name];
      return { byAgent: next };
    });
  },
  clearAll() {
    set({ byAgent: {} });
  },
}));

export function useLiveAnswer(agent: string): LiveAnswer | undefined {
  return useLiveAnswers((store) => store.byAgent[agent]);
}
