/**
 * Context precedence: runtime default, then the role's default, then the spawn's value.
 * A role may restrict the modes it accepts; only the value that ends up
 * effective is checked against that list.
 */
import { ContextNotAllowedError, ContextSpecError, type ContextSource } from './errors.js';
import { contextLabel, contextModeOf, isContextSpec, parseContextSpec } from './parse.js';
import { quote } from './quote.js';
import type { ContextMode, ContextSpec } from './types.js';

/** What {@link resolveContextSpec} reads. */
export interface ResolveContextInput {
  /** The runtime's default; `none` when omitted. */
  readonly runtimeDefault?: ContextSpec;
  /** The role (agent definition) the spawn names, if any. */
  readonly role?: {
    readonly name: string;
    readonly context?: ContextSpec;
    readonly contexts?: readonly ContextMode[];
  };
  /** The spawn's raw `context` value; `undefined` means omitted (null is an invalid value). */
  readonly requested?: unknown;
}

/**
 * Resolves the effective context spec of a spawn. Throws {@link ContextSpecError} for an
 * unparsable spawn value (or a malformed configured default) and
 * {@link ContextNotAllowedError} when the role lists allowed modes and the effective one is
 * not among them.
 */
export function resolveContextSpec(input: ResolveContextInput): ContextSpec {
  let spec: ContextSpec = input.runtimeDefault ?? 'none';
  let source: ContextSource = 'runtime default';
  if (input.role?.context !== undefined) {
    spec = input.role.context;
    source = 'role default';
  }
  if (input.requested !== undefined) {
    spec = parseContextSpec(input.requested);
    source = 'spawn';
  } else if (!isContextSpec(spec)) {
    throw new ContextSpecError(`Invalid context in the ${source}${source === 'role default' ? ` of role "${input.role?.name}"` : ''}: ${quote(spec)} is not a context spec.`, spec);
  }
  const allowed = input.role?.contexts;
  if (input.role !== undefined && allowed !== undefined && !allowed.includes(contextModeOf(spec))) {
    const list = allowed.length === 0 ? 'it allows no context mode' : `allowed modes: ${allowed.join(', ')}`;
    throw new ContextNotAllowedError(
      input.role.name,
      allowed,
      spec,
      source,
      `Role "${input.role.name}" does not allow context "${contextLabel(spec)}" (mode ${contextModeOf(spec)}, from the ${source}); ${list}.`,
    );
  }
  return spec;
}
