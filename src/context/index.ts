/**
 * `subagent-actors/context`: context values (`none`, `all`, a turn count, `summary`), mode
 * precedence and snapshot selection, as the runtime applies them to spawns.
 * @packageDocumentation
 */
export { ContextNotAllowedError, ContextSpecError, SnapshotError } from './errors.js';
export { ACCEPTED_CONTEXT_VALUES, contextLabel, contextModeOf, isContextSpec, parseContextSpec } from './parse.js';
export { resolveContextSpec, type ResolveContextInput } from './resolve.js';
export { selectSnapshot, type SelectOptions } from './select.js';
export type { ContextSnapshot, SnapshotSource } from './types.js';
