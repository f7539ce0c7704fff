/**
 * fast-check arbitraries of valid dialogues. Operations are drawn as plain numbers and
 * interpreted against the dialogue built so far, so every generated log is valid and
 * shrinks well: turns opened, user entries injected, replies with 0..3 parallel calls,
 * results in random order, compactions anchored at random eligible user entries (or null),
 * and optionally a final active turn whose last reply holds the triggering `Agent` call
 * and sibling calls, some of them answered.
 */
import fc from 'fast-check';
import { assistantEntry, compactionEntry, toolResultEntry, userEntry, type Entry, type ToolCall } from '../../src/dialogue/entry.js';

/** One drawn operation: `kind` picks what to do, `pick` chooses among candidates, `count` sizes it. */
export interface Op {
  readonly kind: number;
  readonly pick: number;
  readonly count: number;
}

/** The optional final active turn. */
export interface Finale {
  readonly openTurn: boolean;
  readonly siblings: number;
  readonly answered: readonly boolean[];
  readonly order: number;
  readonly triggerAnswered: boolean;
  readonly text: boolean;
}

/** A generated log and, when it ends in a spawn step, the triggering call's id. */
export interface Generated {
  readonly entries: readonly Entry[];
  readonly trigger: string | null;
}

/** Builds valid logs from drawn operations, tracking only what validity needs. */
export class Interpreter {
  readonly entries: Entry[] = [];
  pending: ToolCall[] = [];
  #n = 0;
  #anchor = 0;

  #id(prefix: string): string {
    return `${prefix}${++this.#n}`;
  }

  /** Appends what `op` asks for, or the nearest valid thing (a result while calls are pending). */
  apply(op: Op): void {
    if (this.pending.length > 0) return this.answer(op.pick);
    const k = op.kind % 100;
    if (k < 30) this.push(userEntry({ id: this.#id('u'), text: 'task', opensTurn: true }));
    else if (k < 40) this.push(userEntry({ id: this.#id('m'), text: 'message', opensTurn: false, origin: { kind: 'message', from: '/root/peer' } }));
    else if (k < 85) this.reply(op.count % 4, op.pick % 3 === 0 ? '' : 'text');
    else this.compact(op.pick);
  }

  /** Answers one pending call, chosen by `pick`. */
  answer(pick: number): void {
    const [c] = this.pending.splice(pick % this.pending.length, 1) as [ToolCall];
    this.push(toolResultEntry({ id: this.#id('r'), callId: c.id, toolName: c.name, content: 'ok' }));
  }

  /** A reply with `calls` new calls (named `tool`), returned. */
  reply(calls: number, text: string, extra: readonly ToolCall[] = []): ToolCall[] {
    const toolCalls = [...extra, ...Array.from({ length: calls }, () => ({ id: this.#id('c'), name: 'tool', arguments: { q: this.#n } }))];
    this.push(assistantEntry({ id: this.#id('a'), text, toolCalls }));
    this.pending = [...toolCalls];
    return toolCalls;
  }

  /** A compaction anchored at an eligible user entry chosen by `pick`, or null. */
  compact(pick: number): void {
    const eligible = this.entries.flatMap((e, p) => (e.kind === 'user' && p >= this.#anchor ? [{ id: e.id, p }] : []));
    const choice = eligible[pick % (eligible.length + 1)];
    const position = this.entries.length;
    this.push(compactionEntry({ id: this.#id('s'), summary: 'summary', anchorId: choice?.id ?? null }));
    this.#anchor = choice?.p ?? position;
  }

  /** Ends with an active turn whose last reply holds the triggering Agent call; returns its id. */
  finale(f: Finale): string {
    while (this.pending.length > 0) this.answer(0);
    const hasOpener = this.entries.some((e) => e.kind === 'user' && e.opensTurn);
    if (f.openTurn || !hasOpener) this.push(userEntry({ id: this.#id('u'), text: 'task', opensTurn: true }));
    const trigger: ToolCall = { id: this.#id('agent'), name: 'Agent', arguments: { task_name: 'sub', message: 'go', context: 'all' } };
    const siblings: ToolCall[] = Array.from({ length: f.siblings }, () => ({ id: this.#id('c'), name: 'tool', arguments: {} }));
    const calls: ToolCall[] = [...siblings];
    calls.splice(f.order % (siblings.length + 1), 0, trigger);
    this.push(assistantEntry({ id: this.#id('a'), text: f.text ? 'spawning' : '', toolCalls: calls }));
    this.pending = [...calls];
    const toAnswer = siblings.filter((_, i) => f.answered[i] === true);
    if (f.triggerAnswered) toAnswer.push(trigger);
    for (const c of toAnswer) {
      this.pending = this.pending.filter((p) => p !== c);
      this.push(toolResultEntry({ id: this.#id('r'), callId: c.id, toolName: c.name, content: 'done' }));
    }
    return trigger.id;
  }

  push(entry: Entry): void {
    this.entries.push(entry);
  }
}

/** Drawn operations. */
export const opsArb = (maxLength = 60): fc.Arbitrary<Op[]> =>
  fc.array(fc.record({ kind: fc.nat(99), pick: fc.nat(1000), count: fc.nat(3) }), { maxLength, size: 'max' });

/** The optional finale. */
export const finaleArb: fc.Arbitrary<Finale | null> = fc.option(
  fc.record({
    openTurn: fc.boolean(),
    siblings: fc.nat(3),
    answered: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
    order: fc.nat(3),
    triggerAnswered: fc.nat(4).map((n) => n === 0), // rarely: the trigger must be dropped even when realized
    text: fc.boolean(),
  }),
  { freq: 2 },
);

/** A valid log, optionally ending in a spawn step. */
export const dialogueArb = (maxOps = 60): fc.Arbitrary<Generated> =>
  fc.tuple(opsArb(maxOps), finaleArb).map(([ops, finale]) => {
    const it = new Interpreter();
    for (const op of ops) it.apply(op);
    const trigger = finale === null ? null : it.finale(finale);
    return { entries: Object.freeze([...it.entries]), trigger };
  });
