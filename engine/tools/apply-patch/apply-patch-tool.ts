import { basename } from 'node:path';
import { z } from 'zod';
import type { ToolDefinition } from '../../models/types';
import { toolFailure, toolSuccess, type ToolResult } from '../tool-result';
import { applyPatchPlan } from './apply-patch-plan';
import {
  APPLY_PATCH_FREEFORM_DESCRIPTION,
  APPLY_PATCH_INPUT_DESCRIPTION,
  APPLY_PATCH_JSON_DESCRIPTION,
  APPLY_PATCH_LARK_GRAMMAR,
} from './apply-patch-texts';
import { parsePatch } from './parse-patch';
import type { PatchFilesystem } from './patch-filesystem';
import { planPatch, type PatchSummary } from './plan-patch';
import { resolvePatchPaths, type PatchPathResolver } from './resolve-patch-paths';

/** ljk's cap: a patch over 1 MiB (counted in UTF-8 bytes) is refused before it is parsed. */
export const DEFAULT_MAX_PATCH_BYTES = 1024 * 1024;

/** A tool whose input is raw text constrained by a grammar (OpenAI's custom tools). */
export const FreeformToolDefinition = z.object({
  name: z.string(),
  description: z.string(),
  format: z.object({ type: z.literal('grammar'), syntax: z.literal('lark'), definition: z.string() }),
});
export type FreeformToolDefinition = z.infer<typeof FreeformToolDefinition>;

export interface ApplyPatchContext {
  /** Every path of the patch goes through this before anything is read or written. */
  resolvePath: PatchPathResolver;
  fs: PatchFilesystem;
  maxPatchBytes?: number;
}

/**
 * apply_patch with codex-rs's grammar, matching and texts, made all-or-nothing: the whole patch is
 * parsed, its paths resolved and every file's new content computed before anything is written, and
 * then every file changes or none does. Results use LeMMing's `{success, output, error}`; the output is
 * codex's "Success. Updated the following files:" summary and errors carry codex's texts.
 */
export const applyPatchTool = {
  name: 'apply_patch',
  kind: 'file',
  freeform: {
    name: 'apply_patch',
    description: APPLY_PATCH_FREEFORM_DESCRIPTION,
    format: { type: 'grammar', syntax: 'lark', definition: APPLY_PATCH_LARK_GRAMMAR },
  } satisfies FreeformToolDefinition,
  json: {
    name: 'apply_patch',
    description: APPLY_PATCH_JSON_DESCRIPTION,
    parameters: {
      type: 'object',
      properties: { input: { type: 'string', description: APPLY_PATCH_INPUT_DESCRIPTION } },
      required: ['input'],
      additionalProperties: false,
    },
  } satisfies ToolDefinition,
  /** `input` is the patch text (freeform call) or `{input: <patch text>}` (JSON call). Never throws. */
  async run(input: unknown, context: ApplyPatchContext): Promise<ToolResult> {
    const patch = patchTextOf(input);
    if (patch === null) {
      return toolFailure('apply_patch expects the patch text, or {"input": "<the patch text>"} in JSON');
    }
    try {
      return await applyPatchText(patch, context);
    } catch (error) {
      return toolFailure(`apply_patch failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  },
} as const;

const JsonCall = z.object({ input: z.string() });

function patchTextOf(input: unknown): string | null {
  if (typeof input === 'string') return input;
  const call = JsonCall.safeParse(input);
  return call.success ? call.data.input : null;
}

async function applyPatchText(patch: string, context: ApplyPatchContext): Promise<ToolResult> {
  const limit = context.maxPatchBytes ?? DEFAULT_MAX_PATCH_BYTES;
  const size = Buffer.byteLength(patch, 'utf8');
  if (size > limit) return toolFailure(`patch rejected: patch too large (${size} bytes > ${limit} bytes)`);

  const parsed = parsePatch(patch);
  if (!parsed.ok) return toolFailure(`apply_patch verification failed: ${parsed.error}`);
  if (parsed.value.length === 0) return toolFailure('patch rejected: empty patch');

  const resolved = await resolvePatchPaths(parsed.value, context.resolvePath);
  if (!resolved.ok) return toolFailure(`patch rejected: ${resolved.error}`);

  const planned = await planPatch(resolved.value, (path) => context.fs.readText(path));
  if (!planned.ok) return toolFailure(`apply_patch verification failed: ${planned.error}`);

  const applied = await applyPatchPlan(planned.value, context.fs);
  if (!applied.ok) return toolFailure(`apply_patch failed: ${applied.error}`);
  const note =
    applied.value.length === 0
      ? ''
      : `Note: could not remove backup file(s) ${applied.value.map((path) => basename(path)).join(', ')}\n`;
  return toolSuccess(summaryText(planned.value.summary) + note);
}

/** codex-rs `print_summary`. */
export function summaryText({ added, modified, deleted }: PatchSummary): string {
  const lines = [
    'Success. Updated the following files:',
    ...added.map((path) => `A ${path}`),
    ...modified.map((path) => `M ${path}`),
    ...deleted.map((path) => `D ${path}`),
  ];
  return lines.map((line) => `${line}\n`).join('');
}
