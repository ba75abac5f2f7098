export type { ComposedTool, Dialect, HttpCall, Delegation, ToolSource } from './composed-tool';
export { loadComposedTools, type ComposedToolLoad } from './loader';
export {
  netHttpPrimitive,
  type ComposedHttpCall,
  type HttpPrimitive,
  type NetworkSettings,
} from './http-primitive';
export { runComposedTool, type ComposedRunEnvironment, type DelegateTarget } from './run';
export {
  composedToolReadiness,
  describeMissingSecrets,
  missingSecrets,
  requiredSecrets,
  type SecretLookup,
} from './secrets';
export {
  composedCatalogEntries,
  composedToolSpecs,
  type ComposedToolEntry,
  type ComposedToolset,
  type ComposedToolsetOptions,
} from './tool-specs';
export { MAX_DELEGATION_DEPTH, type ToolSetProblem } from './tool-set';
