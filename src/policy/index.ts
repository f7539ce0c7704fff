/**
 * The policy layer: agent definitions, allowed context modes, tool filters, capability
 * confirmation, project context and spawn limits. Pure with respect to the runtime; only
 * the loaders touch the file system.
 */
export type { AgentDefinition, Delivery, DefinitionSource, Lifetime } from './definition.js';
export { AGENT_NAME_PATTERN, isValidAgentName } from './definition.js';
export type { DefinitionErrorCode, DefinitionErrorInit } from './definition-error.js';
export { DefinitionError } from './definition-error.js';
export type { ParseDefinitionOptions } from './parse-definition.js';
export { KNOWN_DEFINITION_KEYS, parseDefinition } from './parse-definition.js';
export type { DefinitionDirectory, LoadedDefinitions } from './load.js';
export { loadDefinitions } from './load.js';
export { RoleRegistry, UnknownRoleError } from './registry.js';
export type {
  AccessCapability,
  CapabilityCatalog,
  CapabilityCatalogInput,
  CapabilityTag,
  ConfirmationInput,
  ParentGrants,
  RequiredCapability,
} from './capabilities.js';
export {
  CAPABILITY_LABELS,
  CAPABILITY_TAGS,
  COMMON_TOOL_CAPABILITIES,
  createCapabilityCatalog,
  requiredConfirmations,
} from './capabilities.js';
export type { ConfirmCallback, ConfirmationDecision, ConfirmationRequest } from './confirmation.js';
export { describeConfirmation } from './confirmation.js';
export type { EffectiveTools, ToolFilter } from './tool-filter.js';
export { effectiveToolNames, isToolAllowed } from './tool-filter.js';
export type { ProjectContext, ProjectContextOptions } from './project-context.js';
export { loadProjectContext } from './project-context.js';
export type { LimitCheck, LimitErrorCode, Limits, LimitUsage } from './limits.js';
export { checkLimits, DEFAULT_LIMITS, LimitError, resolveLimits } from './limits.js';
