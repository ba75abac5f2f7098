import type { Command } from '../command';
import { inboxCommand, sendCommand } from './messages';
import { runCommand, tickCommand } from './run';
import { creditsCommand, statusCommand } from './status';
import { exportCommand, importCommand, timelineCommand } from './timeline';
import { validateCommand } from './validate';

export const commands: readonly Command[] = [
  validateCommand,
  runCommand,
  tickCommand,
  sendCommand,
  statusCommand,
  inboxCommand,
  timelineCommand,
  exportCommand,
  importCommand,
  creditsCommand,
];
