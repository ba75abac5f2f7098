import { joinUrl, requireApiKey, type HttpEndpoint } from './endpoint';
import { postJson } from './http-json';
import { ModelCallError, redactSecrets } from './model-call-error';
import type { ParsedAnswer } from './parsed-answer';
import type { ServerModel } from '../api/model-setup-schemas';
import type { ProgressDelta } from '../api/model-event-schemas';
import type { ModelProvider, ModelRequest, ModelResponse } from './types';

/**
 * A provider whose API is one JSON POST per call (OpenAI-compatible, Anthropic, Ollama): the key
 * lookup, transport (retries, deadline, redaction of the key) and the refusal of an answer that does
 * not parse are the same for all; each API says only where it posts, how it authenticates, and how it
 * writes requests and reads answers.
 */
export abstract class JsonApiProvider implements ModelProvider {
  readonly name: string;
  readonly nativeTools: boolean;
  readonly continuesAssistantMessage: boolean = false;

  constructor(protected readonly endpoint: HttpEndpoint) {
    this.name = endpoint.providerName;
    this.nativeTools = endpoint.nativeTools;
  }

  /** The path under the endpoint's base URL. */
  protected abstract readonly path: string;
  protected abstract authHeaders(key: string | undefined): Record<string, string>;
  /** The request in the API's words; `stream` asks for the answer in pieces. */
  protected abstract requestBody(request: ModelRequest, stream: boolean): Record<string, unknown>;
  protected abstract parseAnswer(body: unknown): ParsedAnswer;
  /**
   * Reads a streamed answer, reporting each piece, and returns it assembled into the body the API
   * would have sent unstreamed, so `parseAnswer` reads both. `warn` says what it read past (words
   * that follow the service's name).
   */
  protected abstract assembleStream(
    chunks: AsyncIterable<Buffer>,
    emit: (delta: ProgressDelta) => void,
    warn: (warning: string) => void,
  ): Promise<unknown>;
  /** Where the server lists its models (GET), and how to read that list; null when it is not one. */
  protected abstract readonly modelsPath: string;
  protected abstract parseModelList(body: unknown): ServerModel[] | null;
  /** Extra headers a streamed request needs. */
  protected streamHeaders(): Record<string, string> {
    return { accept: 'text/event-stream' };
  }

  async complete(request: ModelRequest): Promise<ModelResponse> {
    const key = requireApiKey(this.endpoint);
    const started = performance.now();
    const onProgress = this.endpoint.stream ? request.onProgress : undefined;
    const secrets = key ? [key] : [];
    // Only the attempt that is taken as the answer speaks: when one fails and another follows, its
    // warnings go and the pieces it showed are declared void.
    let warnings: string[] = [];
    let shownPieces = false;
    const readStream = (onPiece: (delta: ProgressDelta) => void) => (chunks: AsyncIterable<Buffer>) => {
      const emit = (delta: ProgressDelta) => {
        shownPieces = true;
        onPiece(delta);
      };
      return this.assembleStream(chunks, emit, (warning) =>
        warnings.push(redactSecrets(`${this.endpoint.service} ${warning}`, secrets)),
      );
    };
    const onRetry = () => {
      warnings = [];
      if (shownPieces) onProgress?.({ type: 'restart' });
      shownPieces = false;
    };
    const { body, attempts } = await postJson({
      service: this.endpoint.service,
      url: joinUrl(this.endpoint.baseUrl, this.path),
      headers: {
        ...(onProgress ? this.streamHeaders() : {}),
        ...this.endpoint.headers,
        ...this.authHeaders(key),
      },
      body: this.requestBody(
        { ...this.endpoint.sampling, ...definedOnly(request) },
        onProgress !== undefined,
      ),
      ...(onProgress ? { readStream: readStream(onProgress), onRetry } : {}),
      timeoutMs: this.endpoint.timeoutMs,
      maxRetries: this.endpoint.maxRetries,
      ...(request.serverCalls ? { watch: request.serverCalls } : {}),
      signal: request.signal,
      dispatcher: this.endpoint.dispatcher,
      timing: this.endpoint.timing,
      secrets,
    });
    const parsed = this.parseAnswer(body);
    if (!parsed.ok) {
      throw new ModelCallError({
        kind: 'bad_response',
        message: `${this.endpoint.service} ${parsed.error}`,
        attempts,
      });
    }
    return {
      ...parsed.value,
      ...(warnings.length > 0 ? { warnings } : {}),
      latencyMs: performance.now() - started,
    };
  }

  /** Who this provider calls, for messages. */
  describe(): { service: string; baseUrl: string } {
    return { service: this.endpoint.service, baseUrl: this.endpoint.baseUrl };
  }

  /** The models the server offers (OpenAI's /models, Anthropic's /v1/models, Ollama's /api/tags). */
  async listModels(signal?: AbortSignal): Promise<ServerModel[]> {
    const key = requireApiKey(this.endpoint);
    const { body, attempts } = await postJson({
      service: this.endpoint.service,
      method: 'GET',
      url: joinUrl(this.endpoint.baseUrl, this.modelsPath),
      headers: { ...this.endpoint.headers, ...this.authHeaders(key) },
      timeoutMs: this.endpoint.timeoutMs,
      maxRetries: 0,
      ...(signal ? { signal } : {}),
      dispatcher: this.endpoint.dispatcher,
      timing: this.endpoint.timing,
      secrets: key ? [key] : [],
    });
    const models = this.parseModelList(body);
    if (!models) {
      throw new ModelCallError({
        kind: 'bad_response',
        attempts,
        message: `${this.endpoint.service} answered with something that is not a list of models`,
      });
    }
    return models.sort((a, b) => a.id.localeCompare(b.id));
  }
}

/** The request without keys set to undefined, so they do not hide the model's own settings. */
function definedOnly(request: ModelRequest): ModelRequest {
  return Object.fromEntries(
    Object.entries(request).filter(([, value]) => value !== undefined),
  ) as ModelRequest;
}
