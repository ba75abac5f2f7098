import type { Command } from '../command';
import { agentsCommand } from './agents';
import { connectorsCommand } from './connectors';
import { initCommand } from './init';
import { inboxCommand, sendCommand } from './messages';
import { runCommand, tickCommand } from './run';
import { secretCommand } from './secrets';
import { creditsCommand, statusCommand } from './status';
import { exportCommand, importCommand, timelineCommand } from './timeline';
import { callCommand, toolsCommand } from './tools';
import { turnCommand } from './turn';
import { validateCommand } from './validate';

export const commands: readonly Command[] = [
  initCommand,
  validateCommand,
  runCommand,
  tickCommand,
  sendCommand,
  statusCommand,
  agentsCommand,
  inboxCommand,
  timelineCommand,
  turnCommand,
  exportCommand,
  importCommand,
  creditsCommand,
  toolsCommand,
  callCommand,
  connectorsCommand,
  secretCommand,
];
