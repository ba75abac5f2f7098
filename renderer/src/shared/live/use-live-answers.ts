import { useEffect } from 'react';
import { serverState } from '../../server-state/instance';
import { useLiveAnswers } from './live-answers-store';

/**
 * Keeps the live answers current: pieces arrive with `turn.progress`, which also says whose turn
 * committed (their entry goes); all go when the tick ends or the org changes.
 */
export function useLiveAnswerFeed(): void {
  useEffect(() => {
    const { receive, clear, clearAll } = useLiveAnswers.getState();
    const stops = [
      serverState().on('turn.progress', ({ progress, ended }) => {
        receive(progress);
        clear(ended);
      }),
      serverState().on('run.state', ({ tickInProgress }) => {
        if (tickInProgress === null) clearAll();
      }),
      serverState().on('org.changed', () => clearAll()),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }, []);
}
