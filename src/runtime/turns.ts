/**
 * Awaitable prompts: what `runtime.prompt` resolves with. A prompt waits for the end of the
 * turn that answers it (the turn it opens, or the turn in progress it joins) and resolves
 * with that turn's outcome: text, status, stop reason, usage (the agent's own and its
 * subtree's, counted from the prompt) and the results of subagents that settled meanwhile.
 */
import type { AgentResult, TurnReport } from '../../machines/agent.types.js';
import { subtractUsage, ZERO_USAGE, type Usage } from '../model/adapter.js';
import { isWithin } from './paths.js';
import type { CancelReport, TurnOutcome } from './types.js';

/**
 * Model requests a turn may make when nothing else is configured (the AI SDK agent's
 * default). Reaching the cap ends the turn with status `max_steps`.
 */
export const DEFAULT_MAX_STEPS = 20;

/** What the waiter needs from the runtime: an agent's usage account. */
export interface TurnSource {
  /** A live agent's own usage so far and its subtree's (itself included). */
  usageOf(path: string): { readonly usage: Usage; readonly subtreeUsage: Usage } | undefined;
}

/** One prompt waiting for its turn to end. */
export interface Waiter {
  readonly resolve: (outcome: TurnOutcome) => void;
  readonly reject: (error: Error) => void;
  readonly own: Usage;
  readonly subtree: Usage;
  /** Results of subagents that settled since the prompt. */
  readonly subagents: AgentResult[];
  cancelled: CancelReport | undefined;
  detach: (() => void) | undefined;
}

/**
 * Prompt waiters of one runtime, per agent path. Each waiter collects the results settling
 * under its agent while it waits, so outcomes do not depend on how many results the
 * runtime retains; usage comes from the runtime's usage accounts.
 */
export class TurnWaiters {
  private readonly waiters = new Map<string, Waiter[]>();

  constructor(private readonly source: TurnSource) {}

  /** Registers a prompt to `path`; call before the prompt's inbox item is sent. */
  wait(path: string): { readonly outcome: Promise<TurnOutcome>; readonly waiter: Waiter } {
    let resolve!: (outcome: TurnOutcome) => void;
    let reject!: (error: Error) => void;
    const outcome = new Promise<TurnOutcome>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    const before = this.source.usageOf(path);
    const waiter: Waiter = {
      resolve,
      reject,
      own: before?.usage ?? ZERO_USAGE,
      subtree: before?.subtreeUsage ?? ZERO_USAGE,
      subagents: [],
      cancelled: undefined,
      detach: undefined,
    };
    const list = this.waiters.get(path) ?? [];
    list.push(waiter);
    this.waiters.set(path, list);
    return { outcome, waiter };
  }

  /** Number of agents prompts wait on. */
  get size(): number {
    return this.waiters.size;
  }

  /** Records what an abort stopped, for every prompt waiting on `path`. */
  noteCancelled(path: string, report: CancelReport): void {
    for (const waiter of this.waiters.get(path) ?? []) waiter.cancelled ??= report;
  }

  /** A turn of `path` ended: every prompt waiting on it resolves. */
  turnEnded(report: TurnReport): void {
    this.settle(report.path, (w) => ({
      path: report.path,
      turn: report.turn,
      text: report.text,
      status: report.status,
      stopReason: report.stopReason,
      ...(report.error !== undefined ? { error: report.error } : {}),
      ...this.measure(w, report.usage, report.subtreeUsage),
    }));
  }

  /**
   * An agent settled or was cancelled: prompts waiting on an agent above it note its
   * result; prompts waiting on the agent itself resolve with it.
   */
  agentFinished(result: AgentResult): void {
    if (this.waiters.size === 0) return;
    for (const [path, list] of this.waiters) {
      if (path === result.path || !isWithin(result.path, path)) continue;
      for (const w of list) w.subagents.push(result);
    }
    this.settle(result.path, (w) => ({
      path: result.path,
      turn: result.turns,
      text: result.text,
      status: result.status === 'failed' && result.stopReason === 'max_steps' ? 'max_steps' : result.status,
      stopReason: result.stopReason,
      ...(result.error !== undefined ? { error: result.error } : {}),
      ...this.measure(w, result.usage, result.subtreeUsage),
    }));
  }

  /** The session halted (its store failed): every waiting prompt rejects with `error`. */
  failAll(error: Error): void {
    const lists = [...this.waiters.values()];
    this.waiters.clear();
    for (const list of lists) {
      for (const waiter of list) {
        waiter.detach?.();
        waiter.reject(error);
      }
    }
  }

  /** Usage since the prompt, from the usage the report or result carries. */
  private measure(w: Waiter, own: Usage, subtree: Usage): Pick<TurnOutcome, 'usage' | 'subagents' | 'cancelled'> {
    return {
      usage: { own: subtractUsage(own, w.own), subtree: subtractUsage(subtree, w.subtree) },
      subagents: w.subagents,
      ...(w.cancelled ? { cancelled: w.cancelled } : {}),
    };
  }

  private settle(path: string, outcomeOf: (w: Waiter) => TurnOutcome): void {
    const list = this.waiters.get(path);
    if (!list) return;
    this.waiters.delete(path);
    for (const waiter of list) {
      waiter.detach?.();
      waiter.resolve(outcomeOf(waiter));
    }
  }
}
