import { z } from 'zod';
import { AgentListItem, AppInfo, OrgSummary } from './schemas';

const NoInput = z.object({}).strict();

function channel<I extends z.ZodType, O extends z.ZodType>(definition: {
  summary: string;
  input: I;
  output: O;
}) {
  return definition;
}

/**
 * The one definition of every renderer → main call. Main validates inputs against it, preload and the
 * test harness build `window.lemming` from it, and the renderer's types derive from it.
 */
export const contract = {
  'app.info': channel({
    summary: 'Versions of the app and the runtimes it is built on.',
    input: NoInput,
    output: AppInfo,
  }),
  'org.pickFolder': channel({
    summary: 'Ask the user for an org folder with the system dialog; null when they cancel.',
    input: NoInput,
    output: z.object({ path: z.string().nullable() }),
  }),
  'org.open': channel({
    summary: 'Open the org folder at `path` and make it the current org.',
    input: z.object({ path: z.string().min(1, 'Enter the path of an org folder.') }).strict(),
    output: OrgSummary,
  }),
  'org.agents': channel({
    summary: "The current org's agents, valid or not, with the reasons a resume is invalid.",
    input: NoInput,
    output: z.array(AgentListItem),
  }),
} as const;

export type Contract = typeof contract;
export type Channel = keyof Contract;
export type ChannelInput<C extends Channel> = z.input<Contract[C]['input']>;
export type ChannelParsedInput<C extends Channel> = z.output<Contract[C]['input']>;
export type ChannelOutput<C extends Channel> = z.output<Contract[C]['output']>;

export const channels = Object.keys(contract) as Channel[];

export function isChannel(name: unknown): name is Channel {
  return typeof name === 'string' && Object.hasOwn(contract, name);
}
