/**
 * The context folder's API: spec parsing, precedence, and snapshot selection.
 */
export { ContextNotAllowedError, ContextSpecError, SnapshotError, type ContextSource } from './errors.js';
export { ACCEPTED_CONTEXT_VALUES, contextLabel, contextModeOf, isContextSpec, parseContextSpec } from './parse.js';
export { resolveContextSpec, type ResolveContextInput } from './resolve.js';
export { selectSnapshot, type SelectOptions } from './select.js';
export type { ContextLabel, ContextMode, ContextSnapshot, ContextSpec, SnapshotSource } from './types.js';
