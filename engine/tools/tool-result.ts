import type { Failure } from '../api/failure';
import { ToolResult } from '../api/timeline-events';

export { ToolResult };

/** An image or sound a tool gave, with its bytes (base64) while the turn holds it; kept by its sha256. */
export interface ToolMedia {
  kind: 'image' | 'audio';
  mimeType: string;
  /** base64 */
  data: string;
  bytes: number;
  sha256: string;
}

/**
 * What a tool run gives: its result, and the bytes of the images and sounds `attachments` refers to,
 * which the turn keeps beside the timeline and gives to a model that takes them (never into an event).
 */
export type ToolOutcome = ToolResult & { media?: ToolMedia[] };

export const toolSuccess = (output: string): ToolResult => ({ success: true, output, error: null });
export const toolFailure = (error: string, failure?: Failure): ToolResult => ({
  success: false,
  output: null,
  error,
  ...(failure ? { failure } : {}),
});
