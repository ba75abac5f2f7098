import { write } from '../server-state/write';

/** Resumes an agent paused over a budget: one more budget for the rest of the day or month. */
export function resumeOverBudget(agent: string) {
  return write(
    'credits.resume',
    { agent },
    {
      progress: `Resuming ${agent}…`,
      failure: `Could not resume ${agent}`,
      success: () => ({
        title: `Resumed ${agent}`,
        detail: 'It may spend one more budget for the rest of the day or month.',
      }),
    },
  );
}
