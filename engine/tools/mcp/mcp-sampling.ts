import { createHash } from 'node:crypto';
import type {
  CreateMessageRequestParams,
  CreateMessageResult,
  SamplingMessageContentBlock,
} from '@modelcontextprotocol/sdk/types.js';
import type { Result } from '../../api/result';
import { MCP_QUESTIONS_PER_CALL } from '../../api/tool-schemas';
import type { ToolMedia } from '../tool-result';

/**
 * MCP sampling: a server asks a model a question while one of its tools runs. Only servers the person
 * allowed (in their own record, never the org's files) may; the question goes to the model of the agent
 * whose tool call the server is serving, and that agent pays for it (docs/ARCHITECTURE.md, “MCP servers”).
 */

/**
 * A server's question declined, with MCP's code for a request the user declined (the specification's
 * sampling example uses it). Its message goes to the server as it is (McpError would prefix its code).
 */
export class QuestionDeclined extends Error {
  readonly code = -1;
}

/** A server's question as the engine puts it to the agent's model. */
export interface ServerQuestion {
  /** The server's name in the org's mcp.json. */
  server: string;
  systemPrompt: string | null;
  messages: { role: 'user' | 'assistant'; text: string; media: ToolMedia[] }[];
  /** As the server asked; the agent's own limit caps it. */
  maxTokens: number;
  temperature: number | null;
  /** What the server asked for that is not done, kept for the record: context from other conversations, model hints. */
  includeContext: string | null;
  modelPreferences: unknown;
}

export interface ModelAnswer {
  text: string;
  /** The model's name, as the server is told it. */
  model: string;
  /** The answer reached the agent's token limit. */
  cut: boolean;
}

/**
 * The model of the agent whose tool call is running, as its turn lends it to that call's server: each
 * question is a model call of the turn (recorded, charged to the agent); a question refused before any
 * model is asked is recorded with why.
 */
export interface ModelAsker {
  ask(question: ServerQuestion): Promise<Result<ModelAnswer, string>>;
  refused(server: string, reason: string): void;
}

/**
 * The most a question may hold: its words (system prompt included) and its images and sounds. A question
 * is recorded whole in the timeline, so a server cannot fill it (nor a free local model's context) unasked.
 */
export const QUESTION_MAX_CHARACTERS = 100_000;
export const QUESTION_MAX_MEDIA = 8;

/** Why a server that is not allowed is told no, naming how the person can allow it. */
export function notAllowedReason(server: string): string {
  return `the person using this app has not let the MCP server ${server} ask their models. They can allow it with "Let this server ask your models" on its card in the Tool Store, or with lemming connectors <org> --allow-sampling ${server}`;
}

export const OUTSIDE_A_CALL =
  'it asked while none of its tool calls was running; a server may ask only during a tool call, and the model of the agent that made the call answers';
export const SEVERAL_CALLS =
  "several calls of its tools are running at once, so which agent's model should answer is not known";
export const OUTSIDE_A_TURN =
  "its tool was called outside an agent's turn (tried by hand), so there is no agent's model to answer";
export const TOO_MANY_QUESTIONS = `it already asked ${MCP_QUESTIONS_PER_CALL} questions during this one tool call, the most one call may ask (so a server asking again and again cannot use up the agent's credits)`;

const mediaOf = (kind: 'image' | 'audio', mimeType: string, data: string): ToolMedia => {
  const bytes = Buffer.from(data, 'base64');
  return {
    kind,
    mimeType,
    data,
    bytes: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
};

/** One message's content as words and media; null when it holds a tool's use or result. */
function contentOf(
  content: SamplingMessageContentBlock | SamplingMessageContentBlock[],
): { text: string; media: ToolMedia[] } | null {
  const blocks = Array.isArray(content) ? content : [content];
  const words: string[] = [];
  const media: ToolMedia[] = [];
  for (const block of blocks) {
    if (block.type === 'text') words.push(block.text);
    else if (block.type === 'image' || block.type === 'audio')
      media.push(mediaOf(block.type, block.mimeType, block.data));
    else return null;
  }
  return { text: words.join('\n'), media };
}

/**
 * The server's request as a question for the model, or why it is refused: tool use is not offered to
 * servers (the client does not declare `sampling.tools`), nor answers given later as a task.
 */
export function serverQuestion(
  server: string,
  params: CreateMessageRequestParams,
): Result<ServerQuestion, string> {
  if (params.tools !== undefined || params.toolChoice !== undefined)
    return {
      ok: false,
      error: 'it asked to let the model use tools, which this app does not let servers do',
    };
  if (!(params.maxTokens >= 1))
    return { ok: false, error: `it asked for an answer of ${params.maxTokens} tokens, which is no answer` };
  if (params.task !== undefined)
    return { ok: false, error: 'it asked to be answered later as a task, which this app does not do' };
  const messages: ServerQuestion['messages'] = [];
  for (const message of params.messages) {
    const content = contentOf(message.content);
    if (!content)
      return {
        ok: false,
        error: "its messages hold a tool's use or result, which this app does not let servers send",
      };
    messages.push({ role: message.role, ...content });
  }
  const characters = messages.reduce(
    (sum, message) => sum + message.text.length,
    params.systemPrompt?.length ?? 0,
  );
  if (characters > QUESTION_MAX_CHARACTERS)
    return {
      ok: false,
      error: `its question has ${characters} characters, more than the ${QUESTION_MAX_CHARACTERS} a server may ask`,
    };
  const media = messages.reduce((sum, message) => sum + message.media.length, 0);
  if (media > QUESTION_MAX_MEDIA)
    return {
      ok: false,
      error: `its question has ${media} images and sounds, more than the ${QUESTION_MAX_MEDIA} a server may send`,
    };
  return {
    ok: true,
    value: {
      server,
      systemPrompt: params.systemPrompt ?? null,
      messages,
      maxTokens: params.maxTokens,
      temperature: params.temperature ?? null,
      includeContext: params.includeContext ?? null,
      modelPreferences: params.modelPreferences ?? null,
    },
  };
}

/** The model's answer as the server is told it. */
export function samplingResult(answer: ModelAnswer): CreateMessageResult {
  return {
    role: 'assistant',
    content: { type: 'text', text: answer.text },
    model: answer.model,
    stopReason: answer.cut ? 'maxTokens' : 'endTurn',
  };
}
