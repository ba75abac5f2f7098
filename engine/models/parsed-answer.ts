import type { Result } from '../api/result';
import type { z } from 'zod';
import { errorDetail } from './http-json';
import { isPlainObject } from './json-values';
import type { ModelResponse } from './types';

/** A provider's body read into a response, or what is wrong with it; bad model output is never thrown here. */
export type ParsedAnswer = Result<Omit<ModelResponse, 'latencyMs'>, string>;

/** Some servers answer 200 with an error object instead of an error status. */
export function errorInBody(body: unknown): ParsedAnswer | null {
  if (!isPlainObject(body) || body.error === undefined || body.error === null) return null;
  return { ok: false, error: `answered with an error: ${errorDetail(JSON.stringify(body))}` };
}

export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'unexpected shape';
  const path = issue.path.map(String).join('.');
  return path ? `${path}: ${issue.message}` : issue.message;
}
