/**
 * The dialogue: an agent's append-only log of entries, as a persistent immutable value.
 * Every append returns a new frozen Dialogue sharing storage with the old one, so a
 * parent's dialogue, its snapshots and its subagents' seeded dialogues never copy entries.
 */
import { applyEntry, hasPendingCallsOf, isPendingCallOf, pendingCallsOf, refuseResult } from './append-rules.js';
import { heldResultOf, isHeldIn, releaseOf } from './call-order.js';
import { DialogueIndex } from './dialogue-index.js';
import { type CompactionEntry, type Entry, type ToolCall, type ToolResultEntry } from './entry.js';
import { DialogueError } from './errors.js';
import { EntryLog } from './entry-log.js';
import { EntrySeqBuilder, type EntryView } from './entry-seq.js';
import { jsonLength } from './json-length.js';
import { deepFreeze } from './freeze.js';
import { activeTurnOf, allTurns, effectiveStartOf, effectiveTurnCountOf, recentTurnsStartOf, turnAt } from './turns.js';
import type { DialogueView, EntrySeq, TurnInfo } from './types.js';

/**
 * An immutable dialogue. `append` is amortized O(1) (it pushes onto a buffer shared with
 * older versions; only appending to a version that is no longer the newest copies), and the
 * effective dialogue, the active turn and the last N turns come from small indexes in
 * O(log n) or O(compactions).
 *
 * Invariants, enforced on append with a {@link DialogueError}: a tool result answers a
 * pending call of the last assistant entry; while that entry has pending calls nothing but
 * results may follow; a compaction's anchor names a user entry at or after the previous
 * compaction's anchor (or is null). An anchor id names the latest user entry with that id.
 */
export class Dialogue implements DialogueView {
  /** Number of entries in the raw log (replaced ones included). */
  readonly length: number;
  readonly #log: EntryLog;
  readonly #index: DialogueIndex;
  /** Views built on first use (private fields stay writable on a frozen object). */
  #logView: EntryView | undefined;
  #effective: EntryView | undefined;

  private constructor(log: EntryLog, index: DialogueIndex) {
    this.#log = log;
    this.#index = index;
    this.length = log.length;
    Object.freeze(this);
  }

  /** A new empty dialogue. */
  static empty(): Dialogue {
    return new Dialogue(EntryLog.empty(), DialogueIndex.empty());
  }

  /** A dialogue holding `entries` (validated like appends). */
  static of(entries: Iterable<Entry>): Dialogue {
    return Dialogue.empty().appendAll(entries);
  }

  /**
   * A subagent's dialogue whose first entries are `seed` (a snapshot's entries), read in
   * place: the seed is kept as the log's base and appends go to an own buffer after it. The
   * seed must be immutable. It is scanned once to build the indexes (O(seed), no entry is
   * copied) and must itself be a valid transcript. A compaction at position 0 governs the
   * rest of the seed whatever its anchorId says: a snapshot starts right at the entries
   * it kept, which need not include the anchor entry.
   */
  static seeded(seed: EntrySeq): Dialogue {
    let index = DialogueIndex.empty();
    const log = EntryLog.seeded(seed, (entry, position, seedLog) => {
      deepFreeze(entry);
      index = applyEntry(index, entry, position, seedLog, { leadingSeedCompaction: position === 0 && entry.kind === 'compaction' });
    });
    return new Dialogue(log, index);
  }

  /** Length of the seed this dialogue was created with (0 for {@link Dialogue.empty}). */
  get seedLength(): number {
    return this.#log.baseLength;
  }

  /** The raw log's entries, for `JSON.stringify` (O(n)). */
  toJSON(): readonly Entry[] {
    return this.log.toArray();
  }

  /** The raw log, replaced entries included, as a view (O(1) after the first call). */
  get log(): EntrySeq {
    this.#logView ??= this.#range(0, this.length, false);
    return this.#logView;
  }

  /** The entry at log position `position` (negative counts from the end). */
  at(position: number): Entry | undefined {
    if (!Number.isInteger(position)) return undefined;
    return this.#log.at(position < 0 ? position + this.length : position);
  }

  /**
   * This dialogue with `entry` appended; this one is unchanged. The entry is deep-frozen
   * (snapshots promise deeply frozen values). Throws a {@link DialogueError} when the entry
   * breaks an invariant.
   */
  append(entry: Entry): Dialogue {
    const index = applyEntry(this.#index, entry, this.length, this.#log);
    return new Dialogue(this.#log.push(deepFreeze(entry)), index);
  }

  /**
   * This dialogue with a tool result of the current step written in call order: the result
   * is written now if every earlier call of the step (in the order the reply listed them) has
   * its result, together with the results of later calls held until then; otherwise it is
   * held, outside the log, until they have. So a step's results reach the log (and the
   * journal, and every later request) in call order, whatever order the calls finished in.
   *
   * Throws a {@link DialogueError} when `result` answers no pending call of the last assistant
   * entry (`unknown_tool_call`), or a call that already has its result, written or held
   * (`duplicate_tool_result`). Amortized O(1) per result.
   *
   * @example
   * ```ts
   * // The reply asked for calls c1 then c2; c2 finished first.
   * const held = dialogue.appendInCallOrder(toolResultEntry({ callId: 'c2', toolName: 'read', content: 'b' }));
   * held.length === dialogue.length; // c2 waits for c1
   * const both = held.appendInCallOrder(toolResultEntry({ callId: 'c1', toolName: 'read', content: 'a' }));
   * both.length === dialogue.length + 2; // c1's result, then c2's
   * ```
   */
  appendInCallOrder(result: ToolResultEntry): Dialogue {
    refuseResult(this.#index, result, this.length, this.#log);
    if (heldResultOf(this.#index, result.callId) !== undefined) {
      throw new DialogueError('duplicate_tool_result', `Tool result ${result.id} answers call "${result.callId}", whose result already arrived and waits for an earlier call's.`, this.length);
    }
    const release = releaseOf(this.#index, this.#log, result);
    if (release.write.length === 0) {
      this.#index.step.heldAt.set(result.callId, this.#index.held.length);
      return new Dialogue(this.#log, this.#index.with({ held: this.#index.held.push(deepFreeze(result)) }));
    }
    const dialogue = this.appendAll(release.write);
    return new Dialogue(dialogue.#log, dialogue.#index.with({ ordered: release.ordered }));
  }

  /**
   * The result of `callId`, a call of the last assistant entry, if it has one: written, or
   * held by {@link appendInCallOrder} until an earlier call's result arrives.
   */
  resultOf(callId: string): ToolResultEntry | undefined {
    const held = heldResultOf(this.#index, callId);
    if (held !== undefined) return held;
    if (!this.#index.step.calls.has(callId)) return undefined;
    const first = this.#index.lastAssistant + 1;
    const end = first + this.#index.answered;
    // Where the step recorded the answer (O(1)); a version that answered it elsewhere scans.
    const at = this.#index.step.answeredAt.get(callId);
    if (at === undefined) return undefined;
    if (at >= first && at < end) {
      const entry = this.#log.at(at) as ToolResultEntry;
      if (entry.callId === callId) return entry;
    }
    for (let p = first; p < end; p++) {
      const entry = this.#log.at(p) as ToolResultEntry;
      if (entry.callId === callId) return entry;
    }
    return undefined;
  }

  /**
   * This dialogue with every entry of `entries` appended in order; all or nothing. After a
   * failure, the next append to this version copies its buffer once (the rejected batch's
   * earlier entries were already pushed past this version's end).
   */
  appendAll(entries: Iterable<Entry>): Dialogue {
    let dialogue: Dialogue | undefined;
    for (const entry of entries) dialogue = (dialogue ?? this).append(entry);
    return dialogue ?? this;
  }

  /** What the model sees: the latest compaction, then the non-compaction entries from its anchor on. */
  effective(): EntrySeq {
    if (this.#effective === undefined) {
      const latest = this.#index.compactions.last();
      this.#effective = latest === undefined ? (this.log as EntryView) : this.#range(latest.anchor, this.length, true, this.#log.at(latest.position));
    }
    return this.#effective;
  }

  /**
   * The summed JSON length ({@link jsonLength}) of the entries of {@link effective}: what a
   * budget estimate measures a request's messages by. Amortized O(entries appended since the
   * last call on this dialogue or an earlier version of it), so an agent's estimates cost O(1)
   * per entry over its whole life rather than O(dialogue) per request.
   *
   * @example
   * ```ts
   * const d = Dialogue.empty().append(userEntry({ text: 'hi' }));
   * d.effectiveJsonLength() === JSON.stringify(d.effective().toArray()).length - 2; // no commas or brackets
   * ```
   */
  effectiveJsonLength(): number {
    const latest = this.#index.compactions.last();
    if (latest === undefined) return this.#log.contentJsonLength(0);
    return jsonLength(this.#log.at(latest.position)) + this.#log.contentJsonLength(latest.anchor);
  }

  /** The latest compaction entry, if any. */
  latestCompaction(): CompactionEntry | undefined {
    const latest = this.#index.compactions.last();
    return latest === undefined ? undefined : (this.#log.at(latest.position) as CompactionEntry);
  }

  /**
   * Tool calls of the last assistant entry that have no result in the log yet, in call order
   * (O(calls)); a result held by {@link appendInCallOrder} is not in the log yet.
   */
  pendingCalls(): readonly ToolCall[] {
    return pendingCallsOf(this.#index, this.#log);
  }

  /** Whether the last assistant entry has a call without a result (O(1)). */
  hasPendingCalls(): boolean {
    return hasPendingCallsOf(this.#index);
  }

  /**
   * Whether `callId` is a call of the last assistant entry still waiting for its result: none
   * written, and none held by {@link appendInCallOrder} (O(1)).
   */
  isPendingCall(callId: string): boolean {
    return isPendingCallOf(this.#index, this.#log, callId) && !isHeldIn(this.#index, this.#log, callId);
  }

  /** The turn in progress (the last turn, when not finished), if any. O(1). */
  activeTurn(): TurnInfo | undefined {
    return activeTurnOf(this.#index, this.#log);
  }

  /** All turns of the raw log, oldest first (O(turns)). */
  turns(): readonly TurnInfo[] {
    return allTurns(this.#index, this.#log);
  }

  /** Number of turns in the raw log (O(1)). */
  get turnCount(): number {
    return this.#index.openers.length;
  }

  /** The turn numbered `i` (negative counts from the end), O(1). */
  turn(i: number): TurnInfo | undefined {
    return Number.isInteger(i) ? turnAt(this.#index, this.#log, i < 0 ? i + this.turnCount : i) : undefined;
  }

  /** Log position of the last assistant entry, or -1. */
  lastAssistantPosition(): number {
    return this.#index.lastAssistant;
  }

  /** Log position where the effective dialogue's entries start (after its summary). */
  effectiveStart(): number {
    return effectiveStartOf(this.#index);
  }

  /** Number of turns in the effective dialogue, a leading partial turn counted as one. */
  effectiveTurnCount(): number {
    return effectiveTurnCountOf(this.#index, this.length);
  }

  /** Log position where the last `n` turns of the effective dialogue start. */
  recentTurnsStart(n: number): number {
    return recentTurnsStartOf(this.#index, this.length, n);
  }

  /** The non-compaction entries of log positions `[from, to)`, as a view (O(log n + compactions in range)). */
  contentRange(from: number, to: number = this.length): EntrySeq {
    return this.#range(Math.max(0, from), Math.min(to, this.length), true);
  }

  /** A view of `[from, to)`, optionally skipping compaction entries, optionally led by `lead`. */
  #range(from: number, to: number, skipCompactions: boolean, lead?: Entry): EntryView {
    const builder = new EntrySeqBuilder();
    if (lead !== undefined) builder.entry(lead);
    let cursor = from;
    if (skipCompactions) {
      const compactions = this.#index.compactions;
      for (let i = this.#index.firstCompactionFrom(from); i < compactions.length; i++) {
        const position = (compactions.at(i) as { position: number }).position;
        if (position >= to) break;
        this.#log.addRange(builder, cursor, position);
        cursor = position + 1;
      }
    }
    this.#log.addRange(builder, cursor, to);
    return builder.build();
  }
}
