/**
 * `subagent-actors/policy`: the pure rules behind agent definitions, for hosts that apply them
 * outside the runtime: parsing one definition, role lookup, which confirmations a spawn needs,
 * tool filtering, permission patterns and modes, model aliases, tool name mapping and limit
 * resolution. Loading definitions and the project context from disk
 * is in the main entry.
 * @packageDocumentation
 */
export { parseDefinition } from './parse-definition.js';
export { RoleRegistry } from './registry.js';
export { requiredConfirmations } from './capabilities.js';
export { effectiveToolNames, isToolAllowed, type EffectiveTools } from './tool-filter.js';
export { checkToolCall, type CallVerdict, type CallCheckInput, type PermissionLayer } from './tool-permissions.js';
export type { PathAnchors } from './permission-pattern.js';
export { PERMISSION_MODES, PERMISSION_MODE_RULES, type PermissionModeRules } from './permission-mode.js';
export { CLAUDE_MODEL_ALIASES, INHERIT_MODEL, resolveModelName, type ModelResolution } from './model-alias.js';
export { mapToolEntry } from './tool-mapping.js';
export { AGENT_TOOL, LEGACY_AGENT_TOOL, checkSpawnRole, normalizeAgentEntry } from './agent-entries.js';
export { resolveLimits } from './limits.js';
