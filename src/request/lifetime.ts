/**
 * The two choices that shape a subagent's life beside its context: how long it lives and where
 * its result goes. Definitions, presets, spawn requests and the agent machine all use these
 * types; they live in the request layer because a preset's defaults name a lifetime.
 */

import type { ContextMode } from '../context/types.js';

/**
 * Whether a subagent settles after its first turn (`one-shot`) or goes idle after each turn
 * and takes follow-ups until it is closed (`continuable`).
 *
 * @example
 * ```ts
 * const lifetime: Lifetime = 'continuable';
 * ```
 */
export type Lifetime = 'one-shot' | 'continuable';

/**
 * How a subagent's result reaches its parent: `caller` resolves the parent's pending `Agent`
 * tool call; `parent` sends a settlement notice to the parent's inbox.
 *
 * @example
 * ```ts
 * const delivery: Delivery = 'parent';
 * ```
 */
export type Delivery = 'caller' | 'parent';

/**
 * The lifetime of a subagent nothing else chose one for, in every host: a fork (`all` or N
 * turns) is continuable, so a follow-up reuses the prefix it already paid for; any other
 * subagent is one-shot.
 *
 * @example
 * ```ts
 * defaultLifetime('all'); // 'continuable'
 * defaultLifetime('none'); // 'one-shot'
 * ```
 */
export function defaultLifetime(mode: ContextMode): Lifetime {
  return mode === 'all' || mode === 'turns' ? 'continuable' : 'one-shot';
}
