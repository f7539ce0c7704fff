/**
 * A tool call's arguments, checked once, as the reply that holds them arrives: plain JSON
 * (finite numbers, no `undefined`, no class instances), within the depth and size limits.
 * A call that fails is kept in the dialogue with `{}` for arguments and the reason in
 * `argumentsError`, so the reply stays valid for every later request and the model gets a
 * typed tool error for that call alone; nothing is reserved or run for it.
 */
import type { ToolCall } from '../dialogue/entry.js';
import { describeJsonProblem, jsonProblem } from './json-bounds.js';
import { argumentBounds, type InputLimits } from './input-limits.js';

const LIMIT_NAMES = { maxDepth: 'maxArgumentDepth', maxBytes: 'maxArgumentBytes' } as const;

/**
 * Why `args` cannot be a tool call's arguments under `limits`, or `undefined` when they can.
 *
 * @example
 * ```ts
 * argumentsProblem({ x: Infinity }, DEFAULT_INPUT_LIMITS); // '$.x: Infinity is not a finite number'
 * ```
 */
export function argumentsProblem(args: unknown, limits: InputLimits): string | undefined {
  const found = jsonProblem(args, argumentBounds(limits));
  if (found === undefined) return undefined;
  const limit = found.bound === undefined ? '' : ` (limit ${LIMIT_NAMES[found.bound]})`;
  return `${describeJsonProblem(found)}${limit}`;
}

/**
 * The call as the dialogue may hold it: itself when its arguments pass, else a copy with `{}`
 * for arguments and `argumentsError` saying what was refused.
 *
 * @example
 * ```ts
 * admitToolCall({ id: 'c1', name: 'echo', arguments: { n: Number.NaN } }, DEFAULT_INPUT_LIMITS);
 * // { id: 'c1', name: 'echo', arguments: {}, argumentsError: '$.n: NaN is not a finite number' }
 * ```
 */
export function admitToolCall(call: ToolCall, limits: InputLimits): ToolCall {
  const problem = argumentsProblem(call.arguments, limits);
  if (problem === undefined) return call;
  return {
    id: call.id,
    name: call.name,
    arguments: {},
    ...(call.providerMetadata === undefined ? {} : { providerMetadata: call.providerMetadata }),
    argumentsError: problem,
  };
}

/** What a model reads for a call whose arguments were refused (without the error code, which the host adds). */
export function refusedArgumentsText(call: ToolCall): string {
  return `the arguments of this ${call.name} call were refused before it ran: ${call.argumentsError ?? 'not plain JSON'}. Call ${call.name} again with plain JSON arguments (finite numbers, no undefined values, bounded nesting and size).`;
}
