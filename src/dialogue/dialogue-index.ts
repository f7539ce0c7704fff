/**
 * The small append-only indexes a dialogue keeps beside its log, so that turns, the
 * active turn and the effective dialogue are found by binary search instead of a scan.
 * Each index is a {@link GrowSlice}, sharing its buffer between versions like the log.
 */
import type { ToolCall, ToolResultEntry } from './entry.js';
import { GrowSlice } from './grow-slice.js';

/** A compaction entry's log position and the log position its anchor resolved to. */
export interface CompactionMark {
  readonly position: number;
  /** First log position the compaction leaves visible (its own position for `anchorId: null`). */
  readonly anchor: number;
}

/**
 * The calls of the last assistant entry, by id, and where each was answered. `answeredAt` is
 * shared by every version that extends the same assistant entry (like the log's buffer), so
 * recording a result is O(1); a version trusts a position only when it lies in its own
 * answered range and its entry there answers that call, and scans that range otherwise.
 */
export interface StepCalls {
  readonly calls: ReadonlyMap<string, ToolCall>;
  /** The calls in the order the reply listed them (the order their results are written in). */
  readonly order: readonly ToolCall[];
  readonly answeredAt: Map<string, number>;
  /**
   * Where a result that arrived before an earlier call's was held: its index in the version's
   * `held` slice. Shared like `answeredAt`, and trusted the same way (only when the version's
   * slice holds that result there).
   */
  readonly heldAt: Map<string, number>;
}

/**
 * A map no step ever writes: the answers of a step without calls. A result is refused before
 * it is recorded unless it answers one of the step's calls, so these stay empty; `set` throws
 * all the same, so a write that slipped past would fail loudly instead of sharing state.
 */
function sealedPositions(): Map<string, number> {
  const map = new Map<string, number>();
  map.set = () => {
    throw new Error('internal error: a step without tool calls recorded an answer');
  };
  return Object.freeze(map);
}

const NO_CALLS: ReadonlyMap<string, ToolCall> = sealedPositions() as unknown as ReadonlyMap<string, ToolCall>;
const NO_ANSWERS = sealedPositions();

/** The step of a dialogue without an assistant entry. */
export const NO_STEP: StepCalls = Object.freeze({ calls: NO_CALLS, order: Object.freeze([]), answeredAt: NO_ANSWERS, heldAt: NO_ANSWERS });

/**
 * The step of an assistant entry without tool calls (most final replies): the one shared,
 * empty step, so an agent waiting after a final answer keeps no step or empty maps of its own.
 */
export function stepWithoutCalls(): StepCalls {
  return NO_STEP;
}

/** The per-version index state of a dialogue. Immutable by construction; internal, so not frozen (appends are hot). */
export class DialogueIndex {
  /** Log positions of turn-opening user entries, ascending. */
  readonly openers: GrowSlice<number>;
  /** Compactions in log order (positions and anchors both ascend). */
  readonly compactions: GrowSlice<CompactionMark>;
  /** Log position of the last assistant entry, or -1. */
  readonly lastAssistant: number;
  /** How many results answer the last assistant entry; they sit right after it, in a row. */
  readonly answered: number;
  /** Log position of the last entry that is not a compaction, or -1. */
  readonly lastContent: number;
  /** The last assistant entry's calls and their answers. */
  readonly step: StepCalls;
  /**
   * Results of the step that arrived before the result of an earlier call and wait for it
   * (written in call order, see call-order.ts), in arrival order. Entries stay in the slice
   * once written; `answeredAt` tells which were.
   */
  readonly held: GrowSlice<ToolResultEntry>;
  /** How many of the step's calls, in call order, are known to have their result written. */
  readonly ordered: number;

  constructor(
    openers: GrowSlice<number>,
    compactions: GrowSlice<CompactionMark>,
    lastAssistant: number,
    answered: number,
    lastContent: number,
    step: StepCalls,
    held: GrowSlice<ToolResultEntry>,
    ordered: number,
  ) {
    this.openers = openers;
    this.compactions = compactions;
    this.lastAssistant = lastAssistant;
    this.answered = answered;
    this.lastContent = lastContent;
    this.step = step;
    this.held = held;
    this.ordered = ordered;
  }

  /** A fresh index for an empty log (fresh buffers: each dialogue owns its own). */
  static empty(): DialogueIndex {
    return new DialogueIndex(GrowSlice.empty(), GrowSlice.empty(), -1, 0, -1, NO_STEP, GrowSlice.empty(), 0);
  }

  /** A copy with some fields replaced. */
  with(patch: Partial<Pick<DialogueIndex, 'openers' | 'compactions' | 'lastAssistant' | 'answered' | 'lastContent' | 'step' | 'held' | 'ordered'>>): DialogueIndex {
    return new DialogueIndex(
      patch.openers ?? this.openers,
      patch.compactions ?? this.compactions,
      patch.lastAssistant ?? this.lastAssistant,
      patch.answered ?? this.answered,
      patch.lastContent ?? this.lastContent,
      patch.step ?? this.step,
      patch.held ?? this.held,
      patch.ordered ?? this.ordered,
    );
  }

  /** Index in `compactions` of the first compaction at log position `>= position`. */
  firstCompactionFrom(position: number): number {
    return this.compactions.lowerBound(position, (m) => m.position);
  }

  /** Index in `openers` of the first opener at log position `>= position`. */
  firstOpenerFrom(position: number): number {
    return this.openers.lowerBound(position, (p) => p);
  }
}
