/**
 * Inspection without transcripts: what an inspector receives carries entry counts and the
 * last entry, never a whole dialogue, snapshot or request head (large contexts make
 * inspectors slow, and a transcript is not the inspector's to copy).
 *
 * Every function here is idempotent: a value already sanitized passes through unchanged, so
 * the runtime and an inspector's own options may both apply it.
 */
import type { AnyActorRef, InspectionEvent } from 'xstate';
import type { Entry } from '../dialogue/entry.js';
import { clipText, graphemeCount } from '../text/clip.js';

interface SeqLike {
  readonly length: number;
  at(index: number): Entry | undefined;
}

const MAX_TEXT = 200;
const CLIPPED = /… \(\d+ chars\)$/;

function isSeqLike(value: unknown): value is SeqLike {
  return typeof value === 'object' && value !== null && 'length' in value && typeof (value as { at?: unknown }).at === 'function';
}

/** The first MAX_TEXT characters (graphemes, so no emoji is split) and how long the text was. */
function clip(text: string): string {
  if (CLIPPED.test(text)) return text;
  const count = graphemeCount(text);
  return count > MAX_TEXT ? `${clipText(text, MAX_TEXT, { measure: 'graphemes', ellipsis: '' })}… (${count} chars)` : text;
}

/** A short, transcript-free description of one entry. */
export function describeEntry(entry: Entry | undefined): Record<string, unknown> | null {
  if (!entry) return null;
  switch (entry.kind) {
    case 'user':
      return { kind: 'user', origin: entry.origin.kind, text: clip(entry.text) };
    case 'assistant':
      return { kind: 'assistant', text: clip(entry.text), toolCalls: entry.toolCalls.map((c) => c.name) };
    case 'tool_result':
      return { kind: 'tool_result', tool: entry.toolName, isError: entry.isError, content: clip(entry.content) };
    case 'compaction':
      return { kind: 'compaction', summary: clip(entry.summary) };
  }
}

function summarizeSeq(seq: SeqLike): Record<string, unknown> {
  return { entries: seq.length, last: describeEntry(seq.at(seq.length - 1)) };
}

/** Replaces one context field with its summary when it is still raw. */
function sanitizeField(key: string, value: unknown): unknown {
  if (typeof value === 'string') return key === 'background' || key === 'text' || key === 'content' ? clip(value) : value;
  if (typeof value !== 'object' || value === null) return value;
  if (key === 'dialogue' && isSeqLike(value)) return summarizeSeq(value);
  if ((key === 'messages' || key === 'entries' || key === 'summarizerInput') && isSeqLike(value)) return summarizeSeq(value);
  const v = value as Record<string, unknown>;
  // An agent context keeps its creation input (request head, snapshot) nested under `input`.
  if (key === 'input' && !Array.isArray(value)) return sanitizeContext(value);
  if (key === 'snapshot' && isSeqLike(v.entries) && isSeqLike(v.summarizerInput)) {
    return { mode: v.mode, entries: v.entries.length, summarizerInput: v.summarizerInput.length };
  }
  if (key === 'system' && typeof v.systemPrompt === 'string' && Array.isArray(v.tools)) {
    return { preset: v.preset, tools: (v.tools as ReadonlyArray<{ name: string }>).map((t) => t.name) };
  }
  return value;
}

/** Replaces dialogues, snapshots, request heads and long texts in a context (or an actor input). */
export function sanitizeContext(context: unknown): unknown {
  if (typeof context !== 'object' || context === null || Array.isArray(context)) return context;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(context)) {
    const next = sanitizeField(key, value);
    if (next !== value) changed = true;
    out[key] = next;
  }
  return changed ? out : context;
}

/** Whether `value` is plain data: an object literal (or null-prototype object). */
function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Whether `value` looks like an XState actor ref (its snapshot may hold a dialogue). */
function isActorRefLike(value: object): boolean {
  return typeof (value as { getSnapshot?: unknown }).getSnapshot === 'function' && typeof (value as { send?: unknown }).send === 'function';
}

/**
 * Clips long strings in a small value (events, action params, outputs). Only plain data is
 * walked: actor refs are replaced by their sanitizing wrapper and other class instances
 * (errors, signals, machines) pass through, so an action whose params hold an actor is not
 * walked through XState's internals.
 */
function clipDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return clip(value);
  if (typeof value !== 'object' || value === null || depth > 6) return value;
  if (isSeqLike(value)) return summarizeSeq(value);
  if (Array.isArray(value)) return value.map((v) => clipDeep(v, depth + 1));
  if (isActorRefLike(value)) return sanitizedRef(value);
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) out[key] = key === 'system' || key === 'snapshot' || key === 'dialogue' ? sanitizeField(key, v) : clipDeep(v, depth + 1);
  return out;
}

/** A snapshot with its context (machines) or input and output (promise and callback actors) sanitized. */
export function sanitizeSnapshot<T>(snapshot: T): T {
  if (typeof snapshot !== 'object' || snapshot === null) return snapshot;
  const s = snapshot as Record<string, unknown>;
  const patch: Record<string, unknown> = {};
  if ('context' in s) patch.context = sanitizeContext(s.context);
  if ('input' in s) patch.input = clipDeep(sanitizeContext(s.input));
  if ('output' in s && s.output !== undefined) patch.output = clipDeep(s.output);
  const changed = Object.entries(patch).some(([k, v]) => v !== s[k]);
  return changed ? ({ ...s, ...patch } as T) : snapshot;
}

const wrapped = new WeakMap<object, AnyActorRef>();

/** The parts of an actor ref that name it. */
export interface ActorNameSource {
  readonly id?: string;
  readonly sessionId: string;
  readonly systemId?: string;
  readonly options?: { readonly systemId?: string };
}

/**
 * An actor's name for inspectors: an agent's path (its `systemId`), else its XState id.
 * XState announces a new actor (`@xstate.actor`) before it sets `systemId`, so the option it
 * was created with is read too.
 */
export function actorName(ref: ActorNameSource): string {
  return ref.systemId ?? ref.options?.systemId ?? ref.id ?? ref.sessionId;
}

/**
 * The actor ref as inspectors see it: the same actor, but `getSnapshot()` answers sanitized
 * (`@statelyai/inspect` reads an `@xstate.actor` event's snapshot from the ref itself), and an
 * agent's `id` is its path. Subagents' XState ids are short recycled ones (memory stays
 * bounded with many distinct paths); their path is their `systemId`, and inspectors name
 * actors by `id`.
 */
function sanitizedRef<T>(ref: T): T {
  if (typeof ref !== 'object' || ref === null || typeof (ref as { getSnapshot?: unknown }).getSnapshot !== 'function') return ref;
  const existing = wrapped.get(ref);
  if (existing) return existing as T;
  const proxy = new Proxy(ref, {
    get(target, property, receiver) {
      if (property === 'getSnapshot') return () => sanitizeSnapshot((target as unknown as AnyActorRef).getSnapshot());
      if (property === 'id') return actorName(target as unknown as ActorNameSource);
      if (property === '_parent') return sanitizedRef((target as unknown as { _parent?: AnyActorRef })._parent);
      const value: unknown = Reflect.get(target, property, receiver);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
  wrapped.set(ref, proxy as unknown as AnyActorRef);
  return proxy;
}

/**
 * A copy of an inspection event with dialogues, request heads and long texts summarized.
 * The copy is lazy: each field is sanitized when an observer first reads it (and kept), so
 * an observer that reads little (or nothing) pays little. A spread or `JSON.stringify` reads
 * every field, sanitized.
 */
export function sanitizeInspectionEvent(event: InspectionEvent): InspectionEvent {
  const e = event as InspectionEvent & { readonly snapshot?: unknown; readonly event?: unknown; readonly sourceRef?: unknown; readonly action?: { readonly type: string; readonly params?: unknown } };
  let ref: unknown;
  const actorRef = (): unknown => (ref ??= sanitizedRef(e.actorRef));
  switch (e.type) {
    case '@xstate.snapshot':
    case '@xstate.microstep': {
      let snapshot: unknown, caused: unknown;
      return {
        ...e,
        get actorRef() { return actorRef(); },
        get snapshot() { return (snapshot ??= sanitizeSnapshot(e.snapshot)); },
        get event() { return (caused ??= clipDeep(e.event)); },
      } as unknown as InspectionEvent;
    }
    case '@xstate.event': {
      let received: unknown, source: unknown;
      return {
        ...e,
        get actorRef() { return actorRef(); },
        get event() { return (received ??= clipDeep(e.event)); },
        get sourceRef() { return (source ??= sanitizedRef(e.sourceRef)); },
      } as unknown as InspectionEvent;
    }
    case '@xstate.action': {
      let action: unknown;
      return {
        ...e,
        get actorRef() { return actorRef(); },
        get action() { return (action ??= { ...e.action, params: clipDeep(e.action?.params) }); },
      } as unknown as InspectionEvent;
    }
    default:
      return { ...e, get actorRef() { return actorRef(); } } as unknown as InspectionEvent;
  }
}
