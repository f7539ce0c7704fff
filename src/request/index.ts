/**
 * `subagent-actors/request`: how model requests are built and compared. Built-in tool schemas
 * and argument parsing, presets and system configurations, task wrappers, request assembly,
 * canonical serialization and prefix metrics.
 * @packageDocumentation
 */
export { canonicalJson, CanonicalJsonError } from './canonical.js';
export {
  requestHeadHash,
  requestPrefixBytes,
  serializeHead,
  serializeMessage,
  serializeRequest,
  sharedPrefixBytes,
  sharedRequestPrefix,
} from './serialize.js';
export { BUILTIN_TOOL_NAMES, type BuiltinToolName } from './tool-names.js';
export { BUILTIN_TOOL_SCHEMAS, parseToolArguments, type AgentArgs, type ParsedToolArguments } from './tools.js';
export type { ToolArgumentError, ToolArgumentIssue } from './tool-args.js';
export { defineHostTool } from './host-tool.js';
export { PresetError, resolvePreset } from './preset.js';
export { buildSystemConfiguration, hasTool } from './system.js';
export type { ToolFilter } from './types.js';
export { forkTaskWrapper, independentTaskText } from './wrapper.js';
export { agentToolSchema, DEFAULT_ROLE_CATALOG_LIMITS, FIND_ROLES_TOOL, roleCatalog, type CatalogRole, type RoleCatalog, type RoleCatalogMode } from './role-catalog.js';
export { FIND_ROLES_SCHEMA, searchRoles, type RoleMatch } from './role-search.js';
export { checkOutput, checkOutputSchema, OutputSchemaError, outputInstruction, repairInstruction, type OutputCheck } from './output-schema.js';
export { assembleRequest, comparePrefix, type PrefixComparison, type PrefixMismatch, type PrefixSide } from './prefix.js';
export {
  estimateTokens,
  measureInheritedPrefix,
  measurePrefixReuse,
  type InheritedPrefix,
  type InheritedPrefixInput,
  type PrefixReuse,
  type PrefixReuseInput,
  type PrefixShortfall,
} from './prefix-reuse.js';
export {
  ANTHROPIC_LOOKBACK_BLOCKS,
  blockBytes,
  readableBytes,
  sharedBlocks,
  wireApiOf,
  wireRequestOf,
  type WireApi,
  type WireBlock,
  type WireBody,
  type WireRequest,
} from './wire-prefix.js';
export { wirePrefixReuse } from './wire-reuse.js';
