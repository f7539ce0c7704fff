/**
 * The retention store: what the runtime keeps about agents after they settle.
 *
 * A settled agent's actor is gone, but hosts still ask for its result (`runtime.result`,
 * `runtime.results`) and its final dialogue (the transcript). The store keeps both, the
 * dialogue as the frozen value the agent ended with (a reference, never a copy), under the
 * host's {@link RetentionPolicy}: at most `maxSettled` settled agents (1,000 by default), the
 * oldest dropped first, and any one dropped on demand with `release(path)`.
 */
import type { AgentResult } from '../../machines/agent.types.js';
import type { DialogueView } from '../dialogue/types.js';

/**
 * Settled agents a runtime keeps by default: the most recent 1,000. A session rarely settles
 * more, so it still finds every result; a host that runs for days keeps a bounded amount
 * (each settled agent costs its result and its final dialogue: about 5.4 KB for a short one,
 * its transcript's size for a long one) instead of everything it ever ran.
 */
export const DEFAULT_MAX_SETTLED = 1_000;

/**
 * How many settled agents a runtime keeps (their results and final dialogues).
 *
 * @example
 * ```ts
 * // Keep only the last 100 settled agents; release others by hand.
 * createRuntime({ model, retention: { maxSettled: 100 } });
 * // Keep every settled agent for the runtime's life (the behaviour before the bound).
 * createRuntime({ model, retention: { maxSettled: Infinity } });
 * ```
 */
export interface RetentionPolicy {
  /**
   * Settled agents kept; when one more settles, the oldest kept one is dropped. Default
   * {@link DEFAULT_MAX_SETTLED} (1,000). `Infinity` keeps every one. `0` keeps none: results
   * are then only seen through `on('result')` and the promises already waiting for them.
   */
  readonly maxSettled?: number;
}

/** One settled agent as retained: its result and the dialogue it ended with. */
export interface SettledAgent {
  readonly result: AgentResult;
  /** The agent's final dialogue (undefined when it ended before it had one). */
  readonly dialogue: DialogueView | undefined;
}

/** Validates a policy; throws a TypeError naming the bad value. */
function maxSettledOf(policy: RetentionPolicy | undefined): number {
  const max = policy?.maxSettled ?? DEFAULT_MAX_SETTLED;
  if (typeof max !== 'number' || Number.isNaN(max) || max < 0 || (Number.isFinite(max) && !Number.isInteger(max))) {
    throw new TypeError(`retention.maxSettled must be a non-negative integer or Infinity (got ${String(max)})`);
  }
  return max;
}

/**
 * Settled agents in settlement order, bounded by the policy. A path reused by a later
 * agent (same name after the first one settled) has one entry per settlement; lookups by
 * path see the latest.
 */
export class RetentionStore {
  private readonly maxSettled: number;
  /** Settlement sequence number → entry; Map order is settlement order. */
  private readonly entries = new Map<number, SettledAgent>();
  /** Path → sequence numbers of its retained entries, oldest first. */
  private readonly byPath = new Map<string, number[]>();
  private nextSeq = 0;
  private cachedResults: readonly AgentResult[] | undefined;

  constructor(policy?: RetentionPolicy) {
    this.maxSettled = maxSettledOf(policy);
  }

  /** Keeps a settled agent, dropping the oldest when over the bound. */
  add(result: AgentResult, dialogue: DialogueView | undefined): void {
    if (this.maxSettled === 0) return;
    const seq = this.nextSeq++;
    this.entries.set(seq, { result, dialogue });
    const list = this.byPath.get(result.path);
    if (list) list.push(seq);
    else this.byPath.set(result.path, [seq]);
    this.cachedResults = undefined;
    while (this.entries.size > this.maxSettled) this.dropOldest();
  }

  /** The latest retained settlement of `path`. */
  get(path: string): SettledAgent | undefined {
    const list = this.byPath.get(path);
    return list ? this.entries.get(list[list.length - 1]!) : undefined;
  }

  /** The final dialogue of the latest retained settlement of `path`. */
  settledDialogue(path: string): DialogueView | undefined {
    return this.get(path)?.dialogue;
  }

  /** Drops everything retained about `path`; returns whether anything was. */
  release(path: string): boolean {
    const list = this.byPath.get(path);
    if (!list) return false;
    for (const seq of list) this.entries.delete(seq);
    this.byPath.delete(path);
    this.cachedResults = undefined;
    return true;
  }

  /** Retained results in settlement order (a frozen array, rebuilt only after a change). */
  results(): readonly AgentResult[] {
    if (!this.cachedResults) this.cachedResults = Object.freeze([...this.entries.values()].map((e) => e.result));
    return this.cachedResults;
  }

  /** Number of retained settlements. */
  get size(): number {
    return this.entries.size;
  }

  private dropOldest(): void {
    const seq = this.entries.keys().next().value as number;
    const path = this.entries.get(seq)!.result.path;
    this.entries.delete(seq);
    const list = this.byPath.get(path)!;
    list.shift();
    if (list.length === 0) this.byPath.delete(path);
  }
}
