export type {
  ChatMessage,
  ChatRole,
  CallContext,
  ModelProvider,
  ModelRequest,
  ModelResponse,
  TokenUsage,
  ToolCall,
  ToolDefinition,
} from './types';
export { ModelCallError, isModelCallError, redactSecrets, failureOfModelCall } from './model-call-error';
export {
  MODELS_FILE,
  PROVIDER_NAMES,
  findModelEntry,
  isProviderName,
  parseModelsFile,
  readModelsFile,
  type ModelEntry,
  type ModelsFile,
  type ModelsFileProblem,
  type ProviderConfig,
  type ProviderName,
} from './models-file';
export {
  createProvider,
  DEFAULT_CLI_TIMEOUT_MS,
  DEFAULT_MAX_RETRIES,
  DEFAULT_TIMEOUT_MS,
  type ProviderDeps,
} from './create-provider';
export { cliEnvironment } from './cli-provider';
export { estimateTokens } from './scripted-provider';
export {
  loadScript,
  parseScript,
  selectRule,
  type Script,
  type ScriptProblem,
  type ScriptResult,
} from './scripted-script';
export { DEFAULT_RETRY_TIMING, type RetryTiming } from './retry-timing';
