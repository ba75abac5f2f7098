import { useEffect } from 'react';
import { lemming } from '../../lemming';
import { useLiveAnswers } from './live-answers-store';

/**
 * Keeps the live answers current: pieces arrive with `turn.progress`, which also says whose turn
 * committed (their entry goes); all go when the tick ends or the org changes.
 */
export function useLiveAnswerFeed(): void {
  useEffect(() => {
    const { receive, clear, clearAll } = useLiveAnswers.getState();
    const stops = [
      lemming().on('turn.progress', ({ progress, ended }) => {
        receive(progress);
        clear(ended);
      }),
      lemming().on('run.state', ({ tickInProgress }) => {
        if (tickInProgress === null) clearAll();
      }),
      lemming().on('org.changed', () => clearAll()),
    ];
    return () => {
      for (const stop of stops) stop();
    };
  }, []);
}
