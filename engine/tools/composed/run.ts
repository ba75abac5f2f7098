import type { HttpResponse } from '../../net/http-request';
import { REDACTED, redactText, secretSpellings } from '../../net/redact';
import { cutRedacted } from '../../secrets/cut-redacted';
import type { Redaction } from '../../secrets/redactor';
import { allNotGranted, describeNotGranted, type GrantRefusal } from '../../api/grant-refusal';
import { failureOfHttpStatus } from '../../api/failure';
import { failureOfHttpError } from '../../net/http-error';
import { toolFailure, toolSuccess, type ToolResult } from '../tool-result';
import type { ToolContext, ToolSpec } from '../tool-spec';
import { isHttpCall, type ComposedTool, type Delegation, type HttpCall } from './composed-tool';
import type { HttpPrimitive } from './http-primitive';
import { checkArguments, compileParameterSchema } from './parameter-schema';
import { describeMissingSecrets, missingSecrets, refusedSecrets, type SecretLookup } from './secrets';
import { renderArguments, renderHttpRequest, renderResponseText, type RenderScope } from './template';
import { MAX_DELEGATION_DEPTH } from './tool-set';
import { sendsSecrets } from './validate';

/** What a delegating tool may call: another composed tool, or a registered tool such as a primitive. */
export type DelegateTarget = { kind: 'composed'; tool: ComposedTool } | { kind: 'tool'; spec: ToolSpec };

export interface ComposedRunEnvironment {
  lookup: SecretLookup;
  /** Which secret the tool names is refused to the org: the tool then sends nothing. */
  refusal: GrantRefusal;
  http: HttpPrimitive;
  resolve(name: string): DelegateTarget | undefined;
}

/** Responses larger than this are cut; the model sees at most OUTPUT_BODY_LIMIT characters of them. */
const MAX_RESPONSE_BYTES = 1024 * 1024;
const OUTPUT_BODY_LIMIT = 32 * 1024;
const ERROR_BODY_LIMIT = 500;

/**
 * Runs a composed tool: checks the arguments against its schema (filling in defaults), renders its
 * templates, calls its delegate and shapes the answer. Never throws; every secret value the tool
 * sent is redacted from what it returns. `chain` holds the composed tools already on the call stack.
 */
export async function runComposedTool(
  tool: ComposedTool,
  args: unknown,
  context: ToolContext,
  environment: ComposedRunEnvironment,
  chain: readonly string[] = [],
): Promise<ToolResult> {
  const sensitive = new Set<string>();
  let result: ToolResult;
  try {
    result = await runChecked(tool, args, context, environment, chain, sensitive);
  } catch {
    result = toolFailure(`${tool.name} failed unexpectedly`);
  }
  return redactResult(result, [...sensitive]);
}

async function runChecked(
  tool: ComposedTool,
  args: unknown,
  context: ToolContext,
  environment: ComposedRunEnvironment,
  chain: readonly string[],
  sensitive: Set<string>,
): Promise<ToolResult> {
  if (chain.includes(tool.name)) return toolFailure(`delegation cycle: ${[...chain, tool.name].join(' → ')}`);
  if (chain.length >= MAX_DELEGATION_DEPTH)
    return toolFailure(
      `delegation is deeper than ${MAX_DELEGATION_DEPTH} tools: ${[...chain, tool.name].join(' → ')}`,
    );
  const refused = refusedSecrets(tool, environment.refusal);
  if (refused.length > 0)
    return toolFailure(`${tool.name} cannot run: ${describeNotGranted(allNotGranted(refused))}`, {
      kind: 'not_granted',
    });
  const missing = missingSecrets(tool, environment.lookup);
  if (missing.length > 0)
    return toolFailure(`${tool.name} is not set up: ${describeMissingSecrets(missing)}`, {
      kind: 'missing_key',
    });
  const schema = compileParameterSchema(tool.parameters);
  if (!schema.ok) return toolFailure(`${tool.name} has an invalid parameter schema: ${schema.error}`);
  const checked = checkArguments(schema.value, args);
  if (!checked.ok) return toolFailure(`invalid arguments for ${tool.name}: ${checked.error}`);
  const scope: RenderScope = { args: checked.value, lookup: environment.lookup, sensitive };
  const implementation = tool.implementation;
  return isHttpCall(implementation)
    ? callHttp(tool, implementation, scope, environment, context)
    : delegate(tool, implementation, scope, context, environment, chain);
}

async function callHttp(
  tool: ComposedTool,
  call: HttpCall,
  scope: RenderScope,
  environment: ComposedRunEnvironment,
  { signal, redaction }: Pick<ToolContext, 'signal' | 'redaction'>,
): Promise<ToolResult> {
  const request = renderHttpRequest(call, scope, { hostFixed: sendsSecrets(tool) });
  if (!request.ok) return toolFailure(`${tool.name}: ${request.error}`);
  const answer = await environment.http({
    request: { method: call.method, ...request.value },
    allowedHosts: call.allowedHosts,
    secretValues: [...scope.sensitive],
    deadlineMs: call.timeoutMs,
    maxResponseBytes: MAX_RESPONSE_BYTES,
    ...(signal ? { signal } : {}),
  });
  if (!answer.ok)
    return toolFailure(
      `${tool.name}: the request was not completed (${answer.error.code}): ${answer.error.message}`,
      failureOfHttpError(answer.error.code),
    );
  return shapeResponse(call, answer.value, scope, redaction);
}

/** The response as the model sees it: status, OpenClaw's summary or error text, and the body. */
function shapeResponse(
  call: HttpCall,
  response: HttpResponse,
  scope: RenderScope,
  redaction: Redaction,
): ToolResult {
  // The primitive redacted the values this call sent, its byte cap included; the stored secrets it did not send are redacted here.
  const received = response.body.toString('utf8');
  const text = response.truncated ? redaction.redactCut(received) : received;
  const parsed = parseJson(text, response.headers['content-type']);
  const fields = responseFields(response.status, text, parsed);
  const responseScope: RenderScope = { ...scope, response: fields };
  const succeeded = response.status >= 200 && response.status < 300;
  const cut = (limit: number) => {
    const redacted = redaction.redactText(redactText(text, [...scope.sensitive]));
    if (redacted.length <= limit) return redacted;
    // The first characters of a value this call sent, then of any stored secret, at the cut edge.
    return redaction.redactCut(cutRedacted(redacted, limit, secretSpellings([...scope.sensitive]), REDACTED));
  };
  if (!succeeded) {
    const custom = call.errorTemplate ? renderResponseText(call.errorTemplate, responseScope) : null;
    const failure = failureOfHttpStatus(response.status);
    if (custom?.ok) return toolFailure(custom.value, failure);
    const excerpt = text.length > ERROR_BODY_LIMIT ? `${cut(ERROR_BODY_LIMIT)}…` : text;
    return toolFailure(`HTTP ${response.status}${excerpt.trim() === '' ? '' : `: ${excerpt}`}`, failure);
  }
  const summary = call.summary ? renderResponseText(call.summary, responseScope) : null;
  const fitsAsJson = parsed !== undefined && text.length <= OUTPUT_BODY_LIMIT;
  const truncated = response.truncated || (!fitsAsJson && text.length > OUTPUT_BODY_LIMIT);
  return toolSuccess(
    JSON.stringify({
      status: response.status,
      ...(summary?.ok ? { summary: summary.value } : {}),
      body: fitsAsJson ? parsed : cut(OUTPUT_BODY_LIMIT),
      ...(truncated ? { truncated: true } : {}),
    }),
  );
}

function parseJson(text: string, contentType: string | string[] | undefined): unknown {
  const type = Array.isArray(contentType) ? contentType[0] : contentType;
  if (!type || !/[/+]json\b/i.test(type)) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * What `{{response.x}}` reads: the top-level fields of a JSON object body, or the body as `value`
 * and `message` otherwise. `status` is always the HTTP status, whatever the body holds.
 */
function responseFields(status: number, text: string, parsed: unknown): Record<string, unknown> {
  const body =
    typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : { value: parsed ?? text, message: text };
  return { ...body, status };
}

async function delegate(
  tool: ComposedTool,
  delegation: Delegation,
  scope: RenderScope,
  context: ToolContext,
  environment: ComposedRunEnvironment,
  chain: readonly string[],
): Promise<ToolResult> {
  const target = environment.resolve(delegation.primitive);
  if (!target) return toolFailure(`${tool.name} calls ${delegation.primitive}, which is not available here`);
  const args = renderArguments(delegation.args, scope);
  if (!args.ok) return toolFailure(`${tool.name}: ${args.error}`);
  return target.kind === 'composed'
    ? runComposedTool(target.tool, args.value, context, environment, [...chain, tool.name])
    : target.spec.run(args.value, context);
}

/** Redacts every spelling of each secret the call sent (the output is JSON, so JSON-escaped ones too). */
function redactResult(result: ToolResult, secrets: readonly string[]): ToolResult {
  if (secrets.length === 0) return result;
  const spellings = secretSpellings([
    ...new Set(secrets.flatMap((secret) => [secret, JSON.stringify(secret).slice(1, -1)])),
  ]);
  return {
    success: result.success,
    output: result.output === null ? null : redactText(result.output, spellings),
    error: result.error === null ? null : redactText(result.error, spellings),
    ...(result.failure ? { failure: result.failure } : {}),
  };
}
