/**
 * The directory of one runtime's agents: the registry's records and the retained results,
 * and the only code that reads agents' actor snapshots (context, dialogue, state, and
 * busy or idle from the state's `meta`).
 */
import type { AnyActorRef } from 'xstate';
import type { AgentContext } from '../../machines/agent.types.js';
import { mergeStateMeta, type AgentStateMeta } from '../../machines/agent.meta.js';
import type { DialogueView } from '../dialogue/types.js';
import { stateValueString } from '../text/state-value.js';
import { RuntimeError } from './errors.js';
import type { Registry } from './registry.js';
import type { RetentionStore } from './retention.js';
import type { AgentInfo } from './types.js';

/** What an agent's snapshot is read for. */
export interface AgentSnapshot {
  readonly value: unknown;
  readonly context: AgentContext;
  getMeta(): Record<string, unknown>;
}

/** The merged `meta` of the state a snapshot is in. */
export function stateMetaOf(snapshot: Pick<AgentSnapshot, 'getMeta'>): AgentStateMeta {
  return mergeStateMeta(snapshot.getMeta() as Record<string, AgentStateMeta | undefined>);
}

/** Doing work: neither waiting for input nor settled (reserved and preparing agents are busy). */
export function isBusy(meta: AgentStateMeta): boolean {
  return meta.waitsForInput !== true && meta.settles !== true;
}

/** In a turn: published and not waiting for input. */
export function inTurn(meta: AgentStateMeta): boolean {
  return meta.addressable === true && meta.waitsForInput === false;
}

/** Agents by path, live (the registry) and settled (the retention store). */
export class Directory {
  /**
   * Merged meta by state string: a state's meta is fixed by the machine, so it is merged once
   * per state (a runtime runs one machine; bounded by its number of states).
   */
  private readonly metaByState = new Map<string, AgentStateMeta>();

  constructor(
    private readonly registry: Registry,
    private readonly retention: RetentionStore,
    private readonly now: () => number,
  ) {}

  private snapshotOf(path: string): AgentSnapshot | undefined {
    const actor: AnyActorRef | undefined = this.registry.get(path)?.actor;
    return actor ? (actor.getSnapshot() as AgentSnapshot) : undefined;
  }

  /** The merged state `meta` of a live agent. */
  metaOf(path: string): AgentStateMeta | undefined {
    const snapshot = this.snapshotOf(path);
    return snapshot ? this.metaIn(snapshot, stateValueString(snapshot.value)) : undefined;
  }

  /** The merged `meta` of `snapshot`, whose state string is `state`. */
  metaIn(snapshot: Pick<AgentSnapshot, 'getMeta'>, state: string): AgentStateMeta {
    let meta = this.metaByState.get(state);
    // Stryker disable next-line ConditionalExpression: a cache; merging the state's meta again gives an equal value, only slower
    if (!meta) {
      meta = stateMetaOf(snapshot);
      // Stryker disable next-line CallExpression: the same cache left empty merges each time, with an equal value
      this.metaByState.set(state, meta);
    }
    return meta;
  }

  /** The live context of an agent. Throws when the path is not held. */
  contextOf(path: string): AgentContext {
    const snapshot = this.snapshotOf(path);
    if (!snapshot) throw new RuntimeError('unknown_agent', `no live agent at ${path}`);
    return snapshot.context;
  }

  /** The dialogue of a live agent. */
  dialogueOf(path: string): DialogueView | undefined {
    const actor = this.registry.get(path)?.actor;
    return actor ? (actor.getSnapshot() as { context: AgentContext }).context.dialogue : undefined;
  }

  /**
   * The final dialogue of a settled agent, while the retention policy keeps it (the frozen
   * value it ended with, not a copy). Undefined for live, unknown, released or trimmed paths.
   */
  settledDialogue(path: string): DialogueView | undefined {
    return this.retention.settledDialogue(path);
  }

  /**
   * Drops what is retained about a settled agent (its result and final dialogue). Returns
   * whether anything was retained. A live agent cannot be released: cancel or close it first.
   */
  release(path: string): boolean {
    if (this.registry.get(path)) throw new RuntimeError('invalid_arguments', `agent ${path} is still live; cancel or close it before releasing it`);
    return this.retention.release(path);
  }

  /** The state string of a live agent. */
  stateOf(path: string): string | undefined {
    const actor = this.registry.get(path)?.actor;
    return actor ? stateValueString((actor.getSnapshot() as { value: unknown }).value) : undefined;
  }

  /** The own session id of a live agent, or of a settled one whose result is retained. */
  sessionIdOf(path: string): string | undefined {
    const actor = this.registry.get(path)?.actor;
    if (actor) return (actor.getSnapshot() as { context: AgentContext }).context.input.sessionId;
    return this.retention.get(path)?.result.sessionId;
  }

  /** Live agents, in reservation order (the root first). */
  list(): AgentInfo[] {
    const now = this.now();
    return [...this.registry.all()].map((r) => ({
      path: r.path,
      role: r.role,
      state: this.stateOf(r.path) ?? 'reserved',
      context: r.contextLabel,
      delivery: r.delivery,
      lifetime: r.lifetime,
      lastTask: r.task,
      elapsedMs: now - r.reservedAt,
      turns: (r.actor?.getSnapshot() as AgentSnapshot | undefined)?.context.turnsCompleted ?? 0,
    }));
  }
}
