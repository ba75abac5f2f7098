/**
 * LeMMing's human pseudo-agent: the folder whose outbox holds the messages the person running the org
 * sends. It never takes a turn, so budgets, tool switches and agent choices leave it out.
 */
export const HUMAN_OPERATOR = 'human';

export function isHumanOperator(agent: string): boolean {
  return agent === HUMAN_OPERATOR;
}
