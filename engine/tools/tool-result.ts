import { z } from 'zod';

/** LeMMing's tool result shape; prompts written for LeMMing read these three fields. */
export const ToolResult = z.object({
  success: z.boolean(),
  output: z.string().nullable(),
  error: z.string().nullable(),
});
export type ToolResult = z.infer<typeof ToolResult>;

export const toolSuccess = (output: string): ToolResult => ({ success: true, output, error: null });
export const toolFailure = (error: string): ToolResult => ({ success: false, output: null, error });
