/**
 * What the runtime accepts from a model or summarizer, whatever it actually returned.
 *
 * Providers and host adapters are outside the runtime's control: a reply may lack `usage`,
 * report part of it, or report NaN, Infinity, negative numbers or strings. Such values would
 * poison every sum and make results unserializable, so every reply passes through here once,
 * at the model seam, before anything adds or serializes it.
 *
 * The usage rule: for each usage field, a finite number ≥ 0 is kept; a string of decimal
 * digits (`"42"`) is read as that number; anything else (missing, NaN, ±Infinity, negative,
 * another type) counts as 0. Fields that are not part of {@link ReplyUsage} are dropped.
 */
import type { ProviderMetadata, ReasoningPart, ToolCall } from '../dialogue/entry.js';
import { canonicalJson } from '../request/canonical.js';
import { DEFAULT_INPUT_LIMITS, type InputLimits } from '../request/input-limits.js';
import { admitToolCall } from '../request/tool-call-admission.js';
import type { ModelResponse, ReplyUsage } from './adapter.js';
import type { SummaryResult } from './summarizer.js';

/** A count by the module's rule, or undefined when the value is not a valid one. */
function tokenCount(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : undefined;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value)) return Number(value);
  return undefined;
}

/** The token counts every reply has (0 when not reported). */
const TOKEN_FIELDS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens'] as const;
/** Counts an adapter may report; left out (so the runtime counts them) when not valid. */
const OPTIONAL_COUNTS = ['requests', 'retries'] as const;

/**
 * A valid {@link ReplyUsage} from whatever a provider reported (see the module's rule). The
 * optional counts (`requests`, `retries`) follow the same rule but are left out, rather than
 * set to 0, when they are not valid, so the runtime's own counting applies.
 *
 * @example
 * ```ts
 * normalizeUsage(undefined);                                 // all token counts 0
 * normalizeUsage({ inputTokens: '12', outputTokens: NaN });  // { inputTokens: 12, outputTokens: 0, ... }
 * ```
 */
export function normalizeUsage(raw: unknown): ReplyUsage {
  const source = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const out: Record<string, number> = {};
  for (const key of TOKEN_FIELDS) out[key] = tokenCount(readField(source, key)) ?? 0;
  for (const key of OPTIONAL_COUNTS) {
    const count = tokenCount(readField(source, key));
    if (count !== undefined) out[key] = count;
  }
  return Object.freeze(out) as unknown as ReplyUsage;
}

/**
 * A reply the dialogue can hold: text is a string (missing text is empty), tool calls an
 * array (missing means none), usage normalized. Each call's arguments are checked here, once,
 * against `limits` (see `admitToolCall`): a call whose arguments are not plain JSON within
 * them is kept with `{}` and an `argumentsError`, and is answered with a tool error instead of
 * running. A bad id or name is checked where the reply is appended (it fails the request).
 */
export function normalizeResponse(raw: unknown, limits: InputLimits = DEFAULT_INPUT_LIMITS): ModelResponse {
  if (typeof raw !== 'object' || raw === null) throw new TypeError(`the model returned ${raw === null ? 'null' : typeof raw} instead of a reply`);
  const reply = raw as Record<string, unknown>;
  const rawText = readField(reply, 'text');
  const text = typeof rawText === 'string' ? rawText : '';
  const rawCalls = readField(reply, 'toolCalls');
  const toolCalls = rawCalls === undefined || rawCalls === null ? [] : rawCalls;
  if (!Array.isArray(toolCalls)) throw new TypeError('the model returned tool calls that are not a list');
  const admitted = toolCalls.map((call: unknown, index) => {
    if (typeof call !== 'object' || call === null) return call;
    const c = call as Record<string, unknown>;
    const providerMetadata = checkMetadata(readField(c, 'providerMetadata'), `tool call ${index}`);
    const id = readField(c, 'id');
    const name = readField(c, 'name');
    // A call without a string id or name is refused where the reply is appended.
    if (typeof id !== 'string' || typeof name !== 'string') return call;
    const plain = { id, name, arguments: readField(c, 'arguments') as ToolCall['arguments'], ...(providerMetadata === undefined ? {} : { providerMetadata }) };
    return admitToolCall(plain, limits);
  });
  const rawStop = readField(reply, 'stopReason');
  const stopReason = typeof rawStop === 'string' ? rawStop : undefined;
  const reasoning = normalizeReasoning(readField(reply, 'reasoning'));
  return {
    text,
    toolCalls: admitted as readonly ToolCall[],
    usage: normalizeUsage(readField(reply, 'usage')),
    ...(stopReason !== undefined ? { stopReason } : {}),
    ...(reasoning.length > 0 ? { reasoning } : {}),
  };
}

/**
 * Reasoning parts the dialogue can hold and a request can carry again: a list (missing means
 * none) of parts with string text and, optionally, provider metadata that is a JSON object.
 * Anything else is a malformed reply, rejected with a clear message.
 */
function normalizeReasoning(raw: unknown): ReasoningPart[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new TypeError('the model returned reasoning that is not a list');
  return raw.map((part: unknown, index) => {
    const text = typeof part === 'object' && part !== null ? readField(part as Record<string, unknown>, 'text') : undefined;
    if (typeof text !== 'string') throw new TypeError(`the model returned reasoning part ${index} without text`);
    const metadata = checkMetadata(readField(part as Record<string, unknown>, 'providerMetadata'), `reasoning part ${index}`);
    return metadata === undefined ? { text } : { text, providerMetadata: metadata };
  });
}

/**
 * Provider metadata a reply part may carry (absent, or a JSON object), checked now because it
 * becomes part of every later request's canonical bytes. @throws TypeError naming the part.
 */
function checkMetadata(metadata: unknown, part: string): ProviderMetadata | undefined {
  if (metadata === undefined) return undefined;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) throw new TypeError(`the model returned ${part} with provider metadata that is not an object`);
  try {
    canonicalJson(metadata);
  } catch (error) {
    throw new TypeError(`the model returned ${part} with provider metadata that is not JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return metadata as ProviderMetadata;
}

/**
 * A summary the runtime can use: its text must be a string (a summarizer that returns none
 * fails the preparation with this error), its usage is normalized like a reply's.
 */
export function normalizeSummary(raw: unknown): SummaryResult {
  const text = typeof raw === 'object' && raw !== null ? readField(raw as Record<string, unknown>, 'text') : undefined;
  if (typeof text !== 'string') throw new TypeError('the summarizer returned no text');
  return { text, usage: normalizeUsage(readField(raw as Record<string, unknown>, 'usage')) };
}

/** Reads a field of a foreign object; a throwing getter counts as missing. */
function readField(source: Record<string, unknown>, key: string): unknown {
  try {
    return source[key];
  } catch {
    return undefined;
  }
}
