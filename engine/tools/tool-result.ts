import { ToolResult } from '../api/timeline-events';

export { ToolResult };

export const toolSuccess = (output: string): ToolResult => ({ success: true, output, error: null });
export const toolFailure = (error: string): ToolResult => ({ success: false, output: null, error });
