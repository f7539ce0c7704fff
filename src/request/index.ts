/**
 * The request layer: tool schemas, presets and system configurations, task wrappers, request
 * assembly, canonical serialization and prefix metrics. Pure: no runtime, machine or XState
 * imports. This barrel is for the library's own folders; the public API is `src/index.ts`.
 */
export type { Effort, JsonObject, ModelRequest, SystemConfiguration, ToolSchema } from './types.js';
export { canonicalJson, CanonicalJsonError } from './canonical.js';
export {
  requestHeadHash,
  requestPrefixBytes,
  serializeHead,
  serializeMessage,
  serializeMessages,
  serializeModelFrame,
  serializeRequest,
  serializeSystemPrompt,
  serializeTool,
  sharedPrefixBytes,
  sharedRequestPrefix,
} from './serialize.js';
export { BUILTIN_TOOL_NAMES, SEND_MESSAGE_TOOL, type BuiltinToolName } from './tool-names.js';
export {
  defineTool,
  describeValue,
  TOOL_NAME_PATTERN,
  type DefinedTool,
  type FieldHints,
  type ToolArgumentError,
  type ToolArgumentIssue,
  type ToolParseResult,
} from './tool-args.js';
export { AGENT_PATH_PATTERN, TASK_NAME_PATTERN } from './tool-schemas.js';
export {
  BUILTIN_TOOL_SCHEMAS,
  BUILTIN_TOOLS,
  isBuiltinTool,
  parseToolArguments,
  type AgentArgs,
  type BuiltinToolCall,
  type CancelAgentArgs,
  type CloseAgentArgs,
  type ListAgentsArgs,
  type ParsedToolArguments,
  type SendMessageArgs,
} from './tools.js';
export { defineHostTool, type HostTool } from './host-tool.js';
export { createToolRegistry } from './registry.js';
export {
  PresetError,
  resolvePreset,
  type ForkLifetime,
  type Preset,
  type PresetCatalog,
  type PresetDefaults,
  type PresetDefinition,
  type PresetErrorCode,
} from './preset.js';
export { buildSystemConfiguration, hasTool, type SystemConfigurationInput, type ToolFilter, type ToolRegistry } from './system.js';
export {
  forkTaskWrapper,
  independentTaskText,
  type DelegatedRole,
  type ForkTaskInput,
  type IndependentTaskInput,
} from './wrapper.js';
export { composeInitialTask, type TaskFraming } from './compose-task.js';
export { assembleRequest, comparePrefix, type PrefixComparison, type PrefixMismatch, type PrefixSide, type RequestInput } from './prefix.js';
