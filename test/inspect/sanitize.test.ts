/**
 * What inspection may carry: entry counts and the last entry (clipped), never a dialogue,
 * a snapshot's entries, a request head's schemas or a long text in full.
 */
import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { selectSnapshot } from '../../src/context/select.js';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { assistantEntry, compactionEntry, toolResultEntry, userEntry } from '../../src/dialogue/entry.js';
import { describeEntry, sanitizeContext, sanitizeInspectionEvent } from '../../src/inspect/sanitize.js';

const LONG = 'L'.repeat(500);
const dialogue = Dialogue.of([
  userEntry({ text: `first ${LONG}` }),
  assistantEntry({ text: 'calling', toolCalls: [{ id: 'c1', name: 'lookup', arguments: { q: 'x' } }] }),
  toolResultEntry({ callId: 'c1', toolName: 'lookup', content: LONG }),
  assistantEntry({ text: 'done' }),
]);
const system = { preset: 'default', systemPrompt: 'PROMPT', tools: [{ name: 'Agent', description: 'd', inputSchema: {} }] };
const context = { path: '/root/a', dialogue, snapshot: selectSnapshot(dialogue, 'all'), system, background: LONG, step: 2 };

describe('describeEntry', () => {
  it('describes each kind briefly, clipping long texts', () => {
    expect(describeEntry(dialogue.at(0))).toEqual({ kind: 'user', origin: 'person', text: `first ${'L'.repeat(194)}… (506 chars)` });
    expect(describeEntry(dialogue.at(1))).toEqual({ kind: 'assistant', text: 'calling', toolCalls: ['lookup'] });
    expect(describeEntry(dialogue.at(2))).toEqual({ kind: 'tool_result', tool: 'lookup', isError: false, content: `${'L'.repeat(200)}… (500 chars)` });
    expect(describeEntry(compactionEntry({ summary: 'sum', anchorId: null }))).toEqual({ kind: 'compaction', summary: 'sum' });
    expect(describeEntry(undefined)).toBeNull();
  });
});

describe('sanitizeContext', () => {
  const out = sanitizeContext(context) as Record<string, unknown>;

  it('replaces the dialogue with its size and last entry', () => {
    expect(out.dialogue).toEqual({ entries: 4, last: { kind: 'assistant', text: 'done', toolCalls: [] } });
    expect(sanitizeContext({ dialogue: Dialogue.empty() })).toEqual({ dialogue: { entries: 0, last: null } });
  });

  it('replaces the snapshot, the head and the background with summaries', () => {
    expect(out.snapshot).toEqual({ mode: 'all', entries: 4, summarizerInput: 0 });
    expect(out.system).toEqual({ preset: 'default', tools: ['Agent'] });
    expect(out.background).toBe(`${'L'.repeat(200)}… (500 chars)`);
    expect(out.path).toBe('/root/a');
    expect(out.step).toBe(2);
    expect(JSON.stringify(out)).not.toContain('L'.repeat(201));
  });

  it('passes non-objects through', () => {
    expect(sanitizeContext(undefined)).toBeUndefined();
    expect(sanitizeContext(3)).toBe(3);
  });
});

describe('sanitizeInspectionEvent', () => {
  const ref = { sessionId: 'x:0', id: '/root' };
  const base = { actorRef: ref, rootId: 'x:0' };

  it('sanitizes snapshot contexts and the events that caused them', () => {
    const event = { ...base, type: '@xstate.snapshot', snapshot: { status: 'active', value: 'idle', context }, event: { type: 'tool.result', content: LONG } } as unknown as InspectionEvent;
    const out = sanitizeInspectionEvent(event) as unknown as { snapshot: { context: Record<string, unknown>; value: string }; event: { content: string } };
    expect(out.snapshot.value).toBe('idle');
    expect(out.snapshot.context.dialogue).toEqual({ entries: 4, last: expect.any(Object) });
    expect(out.event.content).toHaveLength(200 + '… (500 chars)'.length);
  });

  it('clips inbox texts, hides model replies and sanitizes init inputs', () => {
    const send = (event: object) => (sanitizeInspectionEvent({ ...base, type: '@xstate.event', sourceRef: undefined, event } as unknown as InspectionEvent) as { event: Record<string, unknown> }).event;
    expect(send({ type: 'inbox', item: { text: LONG, origin: { kind: 'person' } } })).toEqual({ type: 'inbox', item: { text: `${'L'.repeat(200)}… (500 chars)`, origin: { kind: 'person' } } });
    expect(send({ type: 'xstate.done.actor.model', output: { response: { text: LONG }, compaction: undefined } })).toEqual({
      type: 'xstate.done.actor.model',
      output: { response: { text: `${'L'.repeat(200)}… (500 chars)` } },
    });
    expect(send({ type: 'xstate.init', input: { dialogue } })).toEqual({ type: 'xstate.init', input: { dialogue: { entries: 4, last: expect.any(Object) } } });
    expect(send({ type: 'close' })).toEqual({ type: 'close' });
  });

  it('wraps the actor ref so an inspector reading getSnapshot() gets it sanitized', () => {
    const live = { status: 'active', value: 'idle', context };
    const ref = { id: '/root/a', getSnapshot: () => live };
    const actor = { ...base, actorRef: ref, type: '@xstate.actor' } as unknown as InspectionEvent;
    const out = sanitizeInspectionEvent(actor);
    const seen = (out.actorRef as unknown as { id: string; getSnapshot(): { context: { dialogue: unknown } } });
    expect(seen.id).toBe('/root/a');
    expect(seen.getSnapshot().context.dialogue).toEqual({ entries: 4, last: expect.any(Object) });
    expect(ref.getSnapshot().context.dialogue).toBe(dialogue);
  });
});

describe('sanitizeContext: nesting and idempotence', () => {
  it('sanitizes the creation input nested in an agent context', () => {
    const nested = sanitizeContext({ input: { path: '/root/a', system, snapshot: selectSnapshot(dialogue, 'all') }, dialogue, step: 1 }) as {
      input: { path: string; system: unknown; snapshot: unknown };
      dialogue: unknown;
    };
    expect(nested.input.path).toBe('/root/a');
    expect(nested.input.system).toEqual({ preset: system.preset, tools: system.tools.map((t) => t.name) });
    expect(nested.input.snapshot).toEqual({ mode: 'all', entries: 4, summarizerInput: 0 });
    expect(nested.dialogue).toEqual({ entries: 4, last: expect.any(Object) });
    expect(sanitizeContext(nested)).toBe(nested);
  });

  it('is idempotent: a sanitized context passes through unchanged', () => {
    const once = sanitizeContext(context) as Record<string, unknown>;
    expect(sanitizeContext(once)).toBe(once);
  });

  it('passes non-objects through', () => {
    expect(sanitizeContext(null)).toBeNull();
    expect(sanitizeContext('text')).toBe('text');
  });
});

describe('sanitizeInspectionEvent: cost (defect 7, inspect overhead)', () => {
  const base = { actorRef: { sessionId: 'x:0', id: '/root' }, rootId: 'x:0' };

  it('sanitizes a field only when it is read, and once', () => {
    let reads = 0;
    const counted = { length: 4, at: (i: number) => (reads++, dialogue.at(i)) };
    const event = { ...base, type: '@xstate.snapshot', snapshot: { status: 'active', value: 'idle', context: { dialogue: counted } }, event: { type: 'x' } } as unknown as InspectionEvent;
    const out = sanitizeInspectionEvent(event) as unknown as { snapshot: { context: { dialogue: unknown } } };
    expect(reads).toBe(0);
    expect(out.snapshot.context.dialogue).toEqual({ entries: 4, last: expect.any(Object) });
    expect(out.snapshot).toBe(out.snapshot);
    expect(reads).toBe(1);
    // A spread or JSON reads every field, sanitized.
    expect(JSON.stringify(out)).not.toContain(LONG);
  });

  it('does not walk class instances in action params, and wraps actor refs', () => {
    let touched = 0;
    class Internal {
      get deep(): string {
        touched++;
        return LONG;
      }
    }
    const live = { status: 'active', value: 'idle', context };
    const child = { id: 'subagent:0', systemId: '/root/a', send: () => {}, getSnapshot: () => live };
    const event = { ...base, type: '@xstate.action', action: { type: 'xstate.stopChild', params: { actorRef: child, internal: new Internal(), note: LONG } } } as unknown as InspectionEvent;
    const params = (sanitizeInspectionEvent(event) as unknown as { action: { params: { actorRef: typeof child; internal: unknown; note: string } } }).action.params;
    expect(touched).toBe(0);
    expect(params.internal).toBeInstanceOf(Internal);
    expect(params.note).toHaveLength(200 + '… (500 chars)'.length);
    expect(params.actorRef.id).toBe('/root/a');
    expect((params.actorRef.getSnapshot() as unknown as { context: { dialogue: unknown } }).context.dialogue).toEqual({ entries: 4, last: expect.any(Object) });
  });
});
