/**
 * `subagent-actors/policy`: the pure rules behind agent definitions, for hosts that apply them
 * outside the runtime: parsing one definition, role lookup, which confirmations a spawn needs,
 * tool filtering and limit resolution. Loading definitions and the project context from disk
 * is in the main entry.
 * @packageDocumentation
 */
export { parseDefinition } from './parse-definition.js';
export { RoleRegistry } from './registry.js';
export { requiredConfirmations } from './capabilities.js';
export { effectiveToolNames, isToolAllowed } from './tool-filter.js';
export { resolveLimits } from './limits.js';
