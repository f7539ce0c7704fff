/**
 * How much of a subagent's first request a provider's prompt cache could serve from its
 * parent's last request, in bytes and estimated tokens, and why it is less than the subagent
 * inherited.
 *
 * Providers cache whole blocks (the system prompt, each tool, each message), so the shared
 * span is counted in whole frames of the canonical serialization: two requests that part ways
 * inside a message share none of it, even though both frames begin with the same framing bytes.
 * A provider's cache is per model, so a subagent on another model shares nothing.
 */
import type { Entry } from '../dialogue/entry.js';
import { EntryView } from '../dialogue/entry-seq.js';
import type { EntrySeq } from '../dialogue/types.js';
import { comparePrefix, type PrefixMismatch, type PrefixSide } from './prefix.js';
import { messageBytes, serializeHead, serializeMessage, serializeModelFrame, serializeSystemPrompt, serializeTool } from './serialize.js';
import type { ModelRequest, SystemConfiguration } from './types.js';
import type { WireApi } from './wire-prefix.js';

/**
 * Why a subagent's first request shares less with its parent's last request than it
 * inherited (its head and copied entries):
 * - the head reasons of {@link PrefixMismatch} (`different_model`: a cache is per model);
 * - `turns_window`: it copied only the last turns, so its messages start where the parent's do not;
 * - `newer_entries`: it copied entries the parent's last request did not hold yet, such as the
 *   reply that asked for it (with text or other calls) and results of that reply's calls;
 * - `compacted`: it copied a compaction the parent's last request did not have (written since);
 * - `no_parent_request`: the parent had not sent a request when the subagent was started;
 * - `no_request`: the subagent ended before any reply to its first request.
 *
 * Measured on the wire (the provider's request bodies, see {@link PrefixReuse.wire}), also:
 * - `streaming_tool_definition`: one request was streamed and its provider wrote the tool
 *   definitions differently for it (Anthropic's `eager_input_streaming`);
 * - `native_output_format`: one of the two asked for a native structured-output format the
 *   other did not (`nativeOutput: true`), which the provider puts ahead of the messages;
 * - `breakpoint_out_of_reach`: the bodies share more than the first request's cache
 *   breakpoints can read (Anthropic reads at most 20 blocks back from a breakpoint);
 * - `wire_differs`: the provider's bodies part ways earlier than the library's own bytes do,
 *   for none of the reasons above.
 */
export type PrefixShortfall =
  | PrefixMismatch
  | 'turns_window'
  | 'newer_entries'
  | 'compacted'
  | 'no_parent_request'
  | 'no_request'
  | 'streaming_tool_definition'
  | 'native_output_format'
  | 'breakpoint_out_of_reach'
  | 'wire_differs';

/**
 * A subagent's prefix reuse: what its first request shares with its parent's last request.
 * Deterministic: two identical sessions report the same figures.
 */
export interface PrefixReuse {
  /** UTF-8 bytes (whole frames) of the first request that the parent's last request began with too. */
  readonly sharedBytes: number;
  /** {@link sharedBytes} as estimated tokens (4 bytes a token, rounded down). */
  readonly sharedTokens: number;
  /** The share of the first request's input that is: `sharedBytes / inputBytes` (0 without a request). */
  readonly sharedRatio: number;
  /** UTF-8 bytes of the whole first request (0 when none was answered). */
  readonly inputBytes: number;
  /** UTF-8 bytes of what it inherited: its head and the entries copied from its parent. */
  readonly inheritedBytes: number;
  /** Why `sharedBytes` is below `inheritedBytes`, or why a cache cannot serve it; empty when it shares all of it. */
  readonly reasons: readonly PrefixShortfall[];
  /**
   * Present when the figures were measured on the wire: the adapter reported the bodies its
   * provider sent (the AI SDK adapter does, for Anthropic Messages and OpenAI's Chat
   * Completions and Responses), and the bytes above are those bodies' blocks in the
   * provider's cache order. `readableBytes` is what the first request's cache breakpoints can
   * read of its parent's last request (equal to `sharedBytes` where the provider caches any
   * prefix it has seen).
   */
  readonly wire?: { readonly api: WireApi; readonly readableBytes: number };
  /** With {@link wire}: the same figures in the library's own canonical bytes. */
  readonly canonical?: PrefixReuse;
}

/** Bytes a token, for the estimates (the simulated provider cache uses the same). */
const BYTES_PER_TOKEN = 4;

/** Estimated tokens of `bytes` bytes of request input (rounded down, as a cache read counts). */
export function estimateTokens(bytes: number): number {
  return Math.floor(bytes / BYTES_PER_TOKEN);
}

const headBytesMemo = new WeakMap<SystemConfiguration, number>();

function headBytes(system: SystemConfiguration): number {
  const hit = headBytesMemo.get(system);
  if (hit !== undefined) return hit;
  const bytes = Buffer.byteLength(serializeHead(system), 'utf8');
  if (Object.isFrozen(system)) headBytesMemo.set(system, bytes);
  return bytes;
}

const frameBytes = (frame: string): number => Buffer.byteLength(frame, 'utf8');

/** Bytes of the leading head frames (system prompt, then tools in order) two different heads have in common. */
function sharedHeadBytes(a: SystemConfiguration, b: SystemConfiguration): number {
  const system = serializeSystemPrompt(b.systemPrompt);
  if (system !== serializeSystemPrompt(a.systemPrompt)) return 0;
  let bytes = frameBytes(system);
  const n = Math.min(a.tools.length, b.tools.length);
  for (let i = 0; i < n; i++) {
    const tool = serializeTool(b.tools[i] as SystemConfiguration['tools'][number]);
    if (tool !== serializeTool(a.tools[i] as SystemConfiguration['tools'][number])) break;
    bytes += frameBytes(tool);
  }
  return bytes;
}

/**
 * What a subagent inherited and how much of it its parent's last request already held,
 * measured when it is spawned (its first request begins with exactly these frames; what
 * follows, its task, was never in the parent's requests).
 */
export interface InheritedPrefix {
  /** UTF-8 bytes (whole frames) of the head and copied entries the parent's last request began with too. */
  readonly sharedBytes: number;
  /** UTF-8 bytes of the head and the copied entries. */
  readonly inheritedBytes: number;
  /** Why `sharedBytes` is below `inheritedBytes`, or why a cache cannot serve it. */
  readonly reasons: readonly PrefixShortfall[];
}

/** What {@link measureInheritedPrefix} compares. */
export interface InheritedPrefixInput {
  /** The parent's head and model (known even before it sends anything). */
  readonly parent: PrefixSide;
  /** The parent's last request before the subagent started, if it had sent one. */
  readonly parentLast: ModelRequest | undefined;
  /** The subagent's head and model. */
  readonly child: PrefixSide;
  /** The entries it copied from the parent (its snapshot's), which lead its first request. */
  readonly inherited: EntrySeq;
}

/**
 * Measures, at spawn, how much of what a subagent inherits its parent's last request held.
 * One pass over the copied entries' frames (memoized per frozen entry); the head is compared
 * by identity first, so a fork that keeps its parent's configuration costs no head bytes.
 */
export function measureInheritedPrefix(input: InheritedPrefixInput): InheritedPrefix {
  const { parentLast, child } = input;
  const head = headBytes(child.system);
  let inheritedBytes = head;
  for (const entry of input.inherited) inheritedBytes += messageBytes(entry);
  const comparison = comparePrefix(input.parent, child);
  const reasons: PrefixShortfall[] = comparison.shared ? [] : [...comparison.reasons];
  let shared = 0;
  if (parentLast === undefined) {
    reasons.push('no_parent_request');
  } else if (parentLast.model !== child.model) {
    if (!reasons.includes('different_model')) reasons.push('different_model');
  } else if (parentLast.system !== child.system && serializeHead(parentLast.system) !== serializeHead(child.system)) {
    shared = sharedHeadBytes(parentLast.system, child.system);
  } else {
    const walk = sharedMessages(parentLast.messages, input.inherited);
    shared = head + walk.bytes;
    if (walk.count < input.inherited.length) reasons.push(shortfallAt(parentLast.messages, input.inherited, walk.count));
  }
  return Object.freeze({ sharedBytes: shared, inheritedBytes, reasons: reasons.length === 0 ? NO_SHORTFALL : Object.freeze(reasons) });
}

/**
 * A subagent's {@link PrefixReuse}: what it inherited, measured at spawn, and the UTF-8 bytes
 * of its first request (undefined when it sent none that was answered: `no_request`).
 */
export function prefixReuseOf(inherited: InheritedPrefix, inputBytes: number | undefined): PrefixReuse {
  if (inputBytes === undefined) {
    return Object.freeze({ ...ZERO_REUSE, inheritedBytes: inherited.inheritedBytes, reasons: Object.freeze([...inherited.reasons, 'no_request' as const]) });
  }
  return Object.freeze({
    sharedBytes: inherited.sharedBytes,
    sharedTokens: estimateTokens(inherited.sharedBytes),
    sharedRatio: inputBytes === 0 ? 0 : inherited.sharedBytes / inputBytes,
    inputBytes,
    inheritedBytes: inherited.inheritedBytes,
    reasons: inherited.reasons,
  });
}

/** The empty shortfall list, shared by every prefix that fell short for no reason (frozen). */
const NO_SHORTFALL: readonly PrefixShortfall[] = Object.freeze([]);

const ZERO_REUSE: PrefixReuse = Object.freeze({ sharedBytes: 0, sharedTokens: 0, sharedRatio: 0, inputBytes: 0, inheritedBytes: 0, reasons: NO_SHORTFALL });

/** What an agent that inherited nothing (the root) is measured against. */
export const NOTHING_INHERITED: InheritedPrefix = Object.freeze({ sharedBytes: 0, inheritedBytes: 0, reasons: NO_SHORTFALL });

/** Model frame sizes without an output schema, per model and effort: every result asks, and most share a few. */
const modelFrameMemo = new Map<string, number>();

/** The last model frame measured without an output schema: nearly every request of a session asks for the same. */
let lastFrame: { readonly model: string; readonly effort: string | undefined; readonly bytes: number } | undefined;

function modelFrameBytes(request: Pick<ModelRequest, 'model' | 'effort' | 'output'>): number {
  if (request.output !== undefined) return frameBytes(serializeModelFrame(request.model, request.effort, request.output));
  if (lastFrame !== undefined && lastFrame.model === request.model && lastFrame.effort === request.effort) return lastFrame.bytes;
  const key = `${request.effort ?? ''}\u0000${request.model}`;
  let bytes = modelFrameMemo.get(key);
  if (bytes === undefined) {
    bytes = frameBytes(serializeModelFrame(request.model, request.effort));
    // Bounded: a host with ever new model names must not grow it forever.
    if (modelFrameMemo.size < 256) modelFrameMemo.set(key, bytes);
  }
  lastFrame = { model: request.model, effort: request.effort, bytes };
  return bytes;
}

/** UTF-8 bytes of a request's head and model frame: all of it but its messages (memoized per head and per model). */
export function requestHeadBytes(request: Pick<ModelRequest, 'system' | 'model' | 'effort' | 'output'>): number {
  return headBytes(request.system) + modelFrameBytes(request);
}

/**
 * UTF-8 bytes of the request made of `request`'s head, the first `count` of `messages` and its
 * model frame, without building it.
 */
export function requestBytesOf(request: Pick<ModelRequest, 'system' | 'model' | 'effort' | 'output'>, messages: Iterable<Entry>, count = Infinity): number {
  let bytes = requestHeadBytes(request);
  let n = 0;
  for (const entry of messages) {
    if (n++ >= count) break;
    bytes += messageBytes(entry);
  }
  return bytes;
}

/** What {@link measurePrefixReuse} compares. */
export interface PrefixReuseInput {
  /** The parent's head and model (known even before it sends anything). */
  readonly parent: PrefixSide;
  /** The parent's last request before the subagent started, if it had sent one. */
  readonly parentLast: ModelRequest | undefined;
  /** The subagent's first request. */
  readonly child: ModelRequest;
  /** How many of the child's leading messages were copied from the parent (its snapshot's entries). */
  readonly inherited: number;
}

/**
 * Measures a subagent's prefix reuse from its first request and its parent's last one
 * (what the runtime reports as `result.prefix`, in one call).
 *
 * @example
 * ```ts
 * const reuse = measurePrefixReuse({
 *   parent: { system: parentLast.system, model: parentLast.model },
 *   parentLast,
 *   child: forkFirst,
 *   inherited: snapshot.entries.length,
 * });
 * reuse.sharedBytes === reuse.inheritedBytes; // a same-preset fork shares all it inherited
 * ```
 */
export function measurePrefixReuse(input: PrefixReuseInput): PrefixReuse {
  const { child } = input;
  const count = Math.min(Math.max(0, input.inherited), child.messages.length);
  const inherited = measureInheritedPrefix({
    parent: input.parent,
    parentLast: input.parentLast,
    child: { system: child.system, model: child.model },
    inherited: EntryView.from(child.messages).slice(0, count),
  });
  return prefixReuseOf(inherited, requestBytesOf(child, child.messages));
}

/** The leading messages two sequences have in common: how many, and their bytes. */
function sharedMessages(parent: EntrySeq, child: EntrySeq): { count: number; bytes: number } {
  const theirs = parent[Symbol.iterator]();
  let count = 0;
  let bytes = 0;
  for (const entry of child) {
    const next = theirs.next();
    if (next.done === true) break;
    const frame = serializeMessage(entry);
    if (next.value !== entry && serializeMessage(next.value) !== frame) break;
    count++;
    bytes += frameBytes(frame);
  }
  return { count, bytes };
}

function shortfallAt(parent: EntrySeq, child: EntrySeq, index: number): PrefixShortfall {
  if (index >= parent.length) return 'newer_entries';
  const entry = child.at(index) as Entry;
  return entry.kind === 'compaction' ? 'compacted' : 'turns_window';
}
