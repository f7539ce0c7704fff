/**
 * A deterministic {@link ModelAdapter} for tests and demos: replies come from a script keyed
 * by agent path, turn and step, never from a network.
 */
import type { ToolCall } from '../dialogue/entry.js';
import type { ModelRequest } from '../request/types.js';
import { throwIfAborted } from './abort.js';
import type { ModelAdapter, ModelDelta, ModelResponse, ReplyUsage, SampleContext } from './adapter.js';
import { scriptedCallId } from './call-ids.js';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import { bytesToTokens, PrefixCache } from './prefix-cache.js';
import type { Script, ScriptReply, SummaryReply, SummaryScript } from './script.js';
import { compileScript } from './script-resolve.js';
import type { Summarizer, SummaryInput, SummaryResult } from './summarizer.js';

/** Options of {@link scriptedModel}. */
export interface ScriptedModelOptions {
  /** Adapter name (default `scripted`). */
  readonly name?: string;
  /** Reject requests (and summaries) the script does not cover instead of answering a default. */
  readonly strict?: boolean;
  /** Latency of every reply that sets none (default 0: no wait at all). */
  readonly latencyMs?: number;
  /** Where latency is waited out (default {@link systemClock}, which vitest fake timers control). */
  readonly clock?: Clock;
  /**
   * Simulate provider prompt caching for replies without explicit usage: `true` for a private
   * {@link PrefixCache}, or a cache to share (and inspect) across models.
   */
  readonly cache?: boolean | PrefixCache;
  /**
   * Stream every reply's text in pieces of this many characters (code points) when the
   * runtime asks for deltas; a reply's own `chunks` win. Default: one piece per reply.
   */
  readonly chunkSize?: number;
}

/** One request the scripted model received. */
export interface ScriptedCall {
  readonly agentPath: string;
  readonly turn: number;
  readonly step: number;
  readonly request: ModelRequest;
}

/** A scripted model: a {@link ModelAdapter} and a {@link Summarizer} that records its inputs. */
export interface ScriptedModel extends ModelAdapter, Summarizer {
  /** Every sample request received, in arrival order (aborted and failed ones included). */
  readonly calls: readonly ScriptedCall[];
  /** Every summary request received, in arrival order. */
  readonly summaryCalls: readonly SummaryInput[];
  /** The simulated prompt cache, when enabled. */
  readonly cache: PrefixCache | undefined;
}

/** The reply to a request the script does not cover: a final text, so the turn ends. */
export function missingStepText(context: Pick<SampleContext, 'agentPath' | 'turn' | 'step'>): string {
  return `(no script for ${context.agentPath} turn ${context.turn} step ${context.step})`;
}

/** The background returned when the script has no summary for a path. */
export function missingSummaryText(agentPath: string): string {
  return `(no summary script for ${agentPath})`;
}

const withZeros = (usage: Partial<ReplyUsage>): ReplyUsage => ({ inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, ...usage });

/** Output tokens of a reply, estimated like the cache estimates input: 4 bytes a token. */
function estimateOutputTokens(text: string, toolCalls: readonly ToolCall[]): number {
  const calls = toolCalls.map((c) => `${c.name}${JSON.stringify(c.arguments)}`).join('');
  return bytesToTokens(Buffer.byteLength(text + calls, 'utf8'));
}

/** Splits `text` into pieces of `size` code points (never inside a surrogate pair). */
function piecesOf(text: string, size: number): string[] {
  const points = [...text];
  const out: string[] = [];
  for (let i = 0; i < points.length; i += size) out.push(points.slice(i, i + size).join(''));
  return out;
}

/** The reply's text, checked against its `chunks` when it has both. */
function replyText(reply: ScriptReply): string {
  const joined = reply.chunks?.join('');
  if (reply.text !== undefined && joined !== undefined && joined !== reply.text) {
    throw new Error(`scriptedModel: a reply's chunks must join to its text (${JSON.stringify(joined)} ≠ ${JSON.stringify(reply.text)})`);
  }
  return reply.text ?? joined ?? '';
}

/** A reply's reasoning as the response carries it: one part, its pieces joined. */
function reasoningText(reply: ScriptReply): string {
  return reply.reasoning === undefined ? '' : typeof reply.reasoning === 'string' ? reply.reasoning : reply.reasoning.join('');
}

/** The deltas a reply streams: its reasoning, then its text in its chunks (or `chunkSize` pieces). */
function deltasOf(reply: ScriptReply, text: string, chunkSize: number | undefined): ModelDelta[] {
  const reasoning = reply.reasoning === undefined ? [] : typeof reply.reasoning === 'string' ? [reply.reasoning] : reply.reasoning;
  const pieces = reply.chunks ?? (chunkSize !== undefined ? piecesOf(text, chunkSize) : [text]);
  return [
    ...reasoning.filter((r) => r !== '').map((r): ModelDelta => ({ kind: 'reasoning', text: r })),
    ...pieces.filter((p) => p !== '').map((p): ModelDelta => ({ kind: 'text', text: p })),
  ];
}

/**
 * Creates a scripted model.
 *
 * Each request is answered by the step the script gives for `(context.agentPath,
 * context.turn, context.step)`; see {@link Script} for how paths match. Order of events: the
 * call is recorded, an aborted signal rejects at once, the reply is computed, the latency is
 * waited out on the clock (an abort rejects promptly with an AbortError), then a `fail` step
 * rejects with an Error, and any other step resolves.
 *
 * Tool calls without an id get `call_<path-hash>_<turn>_<step>_<index>`. A missing step
 * yields the final text {@link missingStepText}, or an Error under `strict`.
 *
 * Usage is the step's explicit usage (missing fields 0); otherwise, with `cache`, input and
 * cache tokens come from the {@link PrefixCache} and output tokens are estimated from the
 * reply; otherwise it is zero. Successful requests are recorded in the cache either way.
 *
 * Streaming: when the runtime passes `context.onDelta`, the reply's `reasoning`, then its text
 * (in its `chunks`, or `chunkSize` pieces, or whole) are handed to it in order, the latency
 * spread evenly over the pieces (so the last arrives when the reply would have); a `fail`
 * step streams its pieces, then rejects. Without `onDelta` nothing is split.
 *
 * `summarize` answers from the `summary` entry of the first rule matching
 * `input.agentPath`, with the same latency, abort and strictness rules.
 */
export function scriptedModel(script: Script, options: ScriptedModelOptions = {}): ScriptedModel {
  const chunkSize = options.chunkSize;
  if (chunkSize !== undefined && (!Number.isInteger(chunkSize) || chunkSize < 1)) throw new TypeError(`scriptedModel: chunkSize must be a positive integer (got ${String(chunkSize)})`);
  const index = compileScript(script);
  const clock = options.clock ?? systemClock;
  const cache = options.cache instanceof PrefixCache ? options.cache : options.cache === true ? new PrefixCache() : undefined;
  const calls: ScriptedCall[] = [];
  const summaryCalls: SummaryInput[] = [];

  const wait = async (latencyMs: number | undefined, signal: AbortSignal): Promise<void> => {
    const ms = latencyMs ?? options.latencyMs ?? 0;
    if (ms > 0) await clock.sleep(ms, signal);
    throwIfAborted(signal);
  };

  /** Hands the reply's deltas to `onDelta`, waiting out the latency piece by piece. */
  const stream = async (reply: ScriptReply, text: string, context: SampleContext, onDelta: (delta: ModelDelta) => void): Promise<void> => {
    const deltas = deltasOf(reply, text, chunkSize);
    const ms = reply.latencyMs ?? options.latencyMs ?? 0;
    if (deltas.length === 0) return wait(ms, context.signal);
    for (const [i, delta] of deltas.entries()) {
      // Rounded cumulatively, so the pieces' waits add up to the latency exactly.
      const slice = Math.round((ms * (i + 1)) / deltas.length) - Math.round((ms * i) / deltas.length);
      await wait(slice, context.signal);
      onDelta(delta);
    }
  };

  const resolveReply = async (request: ModelRequest, context: SampleContext): Promise<ScriptReply> => {
    const step = index.step(context.agentPath, context.turn, context.step);
    if (step === undefined) {
      if (options.strict === true) {
        throw new Error(`scriptedModel: no script for ${context.agentPath} turn ${context.turn} step ${context.step}`);
      }
      return { text: missingStepText(context) };
    }
    return typeof step === 'function' ? await step(request, context) : step;
  };

  const resolveSummary = async (script: SummaryScript | undefined, input: SummaryInput, signal: AbortSignal): Promise<SummaryReply> => {
    if (script === undefined) {
      if (options.strict === true) throw new Error(`scriptedModel: no summary script for ${input.agentPath}`);
      return { text: missingSummaryText(input.agentPath) };
    }
    const reply = typeof script === 'function' ? await script(input, signal) : script;
    return typeof reply === 'string' ? { text: reply } : reply;
  };

  return {
    name: options.name ?? 'scripted',
    calls,
    summaryCalls,
    cache,

    async sample(request: ModelRequest, context: SampleContext): Promise<ModelResponse> {
      calls.push(Object.freeze({ agentPath: context.agentPath, turn: context.turn, step: context.step, request }));
      throwIfAborted(context.signal);
      const reply = await resolveReply(request, context);
      throwIfAborted(context.signal);
      const text = replyText(reply);
      if (context.onDelta) await stream(reply, text, context, context.onDelta);
      else await wait(reply.latencyMs, context.signal);
      if (reply.fail !== undefined) throw new Error(reply.fail);

      const toolCalls: ToolCall[] = (reply.toolCalls ?? []).map((call, i) => ({
        id: call.id ?? scriptedCallId(context.agentPath, context.turn, context.step, i),
        name: call.name,
        arguments: call.arguments ?? {},
      }));
      const simulated = cache?.observe(request);
      const usage =
        reply.usage !== undefined
          ? withZeros(reply.usage)
          : simulated !== undefined
            ? {
                inputTokens: simulated.inputTokens,
                outputTokens: estimateOutputTokens(text, toolCalls),
                cacheReadTokens: simulated.cacheReadTokens,
                cacheWriteTokens: simulated.cacheWriteTokens,
              }
            : withZeros({});
      return {
        text,
        toolCalls,
        ...(reasoningText(reply) !== '' ? { reasoning: [{ text: reasoningText(reply) }] } : {}),
        usage,
        stopReason: reply.stopReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      };
    },

    async summarize(input: SummaryInput, signal: AbortSignal): Promise<SummaryResult> {
      summaryCalls.push(input);
      throwIfAborted(signal);
      const reply = await resolveSummary(index.summary(input.agentPath), input, signal);
      throwIfAborted(signal);
      await wait(reply.latencyMs, signal);
      if (reply.fail !== undefined) throw new Error(reply.fail);
      return { text: reply.text, usage: withZeros(reply.usage ?? {}) };
    },
  };
}
