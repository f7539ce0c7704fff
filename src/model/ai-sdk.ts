/**
 * A {@link ModelAdapter} over AI SDK language models (specification V4, as used by `ai` 7 and the
 * `@ai-sdk/*` 4 provider packages),
 * e.g. `aiSdkModel(anthropic('claude-sonnet-4-5'))`, or a table of them chosen per request.
 *
 * `@ai-sdk/provider` is imported for types only, so the library has no run-time dependency on
 * the AI SDK; users who call this adapter already have a provider package installed.
 */
import type { JSONSchema7, LanguageModelV4, LanguageModelV4CallOptions, SharedV4ProviderOptions } from '@ai-sdk/provider';
import type { Effort, ModelRequest } from '../request/types.js';
import type { WireBody } from '../request/wire-prefix.js';
import { raceAbort, throwIfAborted } from './abort.js';
import type { ModelAdapter } from './adapter.js';
import { toV4Prompt, toV4Tools } from './ai-sdk-prompt.js';
import { fromV4Result } from './ai-sdk-result.js';
import { collectV4Stream } from './ai-sdk-stream.js';
import { effortOptions } from './effort.js';

export { effortOptions, effortSupport, isOpenAiReasoningModel, ANTHROPIC_THINKING_BUDGETS, type EffortSupport } from './effort.js';

/** Maps a requested effort to provider options, or `undefined` to send nothing for it. */
export type EffortMapper = (effort: Effort, model: LanguageModelV4) => SharedV4ProviderOptions | undefined;

/** Options of {@link aiSdkModel}. */
export interface AiSdkModelOptions {
  /** Adapter name (default `<provider>:<modelId>`). */
  readonly name?: string;
  /**
   * Mark Anthropic-style `cacheControl: { type: 'ephemeral' }` breakpoints: the system
   * message, the last message, and the two grid points (every 16th message block) nearest
   * below it, so a request always has a breakpoint within Anthropic's 20-block reach of what
   * the previous one wrote (see `toV4Prompt`). Other providers ignore the option; OpenAI and
   * Gemini cache prefixes on their own.
   */
  readonly cacheHints?: boolean;
  /** Provider options sent with every request (e.g. `{ anthropic: { thinking: ... } }`). */
  readonly providerOptions?: SharedV4ProviderOptions;
  /**
   * How a request's effort becomes provider options. The default, {@link effortOptions}, is a
   * table per provider: Anthropic's `effort` on the models that take it and a thinking budget
   * on the older ones that think, OpenAI's `reasoningEffort` on reasoning models only, and
   * `{ [provider]: { reasoningEffort } }` for other providers. An effort the model cannot take
   * (`gpt-4.1`, Claude 3.5) is left out, and {@link AiSdkModelOptions.onWarning} hears of it
   * once per model. Sent only when the request has an effort; `false` never sends effort, and
   * a mapper of your own decides alone (returning `undefined` sends nothing, without a warning).
   */
  readonly effort?: EffortMapper | false;
  /**
   * Hears what the adapter left out of a request: once per model, the effort that model
   * cannot take (`code: 'effort_unsupported'`). Default: `process.emitWarning`.
   */
  readonly onWarning?: (warning: AiSdkWarning) => void;
  /** Upper bound on generated tokens, passed through. */
  readonly maxOutputTokens?: number;
  /**
   * Send an agent's output schema as the provider's native structured mode
   * (`responseFormat: { type: 'json', schema }`) on its requests. Default `false`: the schema
   * goes in the task alone, and the runtime validates the answer. A native format changes the
   * request head on the wire (Anthropic adds `output_config` or a `json` tool and a forced
   * `tool_choice`, OpenAI a `response_format` or `text.format` ahead of the messages), so a
   * subagent with structured output would read nothing of its parent's cache; `true` trades
   * that for the provider's constrained decoding, and the result's prefix reasons then name
   * `native_output_format`.
   */
  readonly nativeOutput?: boolean;
  /**
   * Use the provider's stream API (`doStream`) when the runtime asks for deltas (a host
   * iterates the runtime's events). Default `true`; `false` always calls `doGenerate`.
   * Streamed and generated requests send the same tool definitions (for Anthropic models the
   * adapter sets `eagerInputStreaming` on every tool alike, off unless
   * `providerOptions.anthropic.toolStreaming` is `true`), so streaming never changes the head.
   */
  readonly streaming?: boolean;
}

/** Something {@link aiSdkModel} left out of a request, told once (see `onWarning`). */
export interface AiSdkWarning {
  readonly code: 'effort_unsupported';
  /** The model, as `<provider>:<modelId>`. */
  readonly model: string;
  readonly effort: Effort;
  readonly message: string;
}

/** The default warning sink: a process warning with a stable code. */
function emitProcessWarning(warning: AiSdkWarning): void {
  process.emitWarning(warning.message, { code: 'SUBAGENT_ACTORS_EFFORT_UNSUPPORTED' });
}

/** The provider-options key of a model: its provider id before the first dot (`anthropic.messages` → `anthropic`). */
export function providerKey(model: LanguageModelV4): string {
  return model.provider.split('.')[0] ?? model.provider;
}

/**
 * The {@link EffortMapper} the adapter used by default before the per-provider table
 * ({@link effortOptions}): `{ [providerKey]: { reasoningEffort } }` for every model. Pass it as
 * `effort` to keep that behaviour.
 */
export const passThroughEffort: EffortMapper = (effort, model) => ({ [providerKey(model)]: { reasoningEffort: effort } });

/**
 * The fine-grained tool streaming every request of an Anthropic model sends, streamed or not:
 * the host's `providerOptions.anthropic.toolStreaming` when it set one, else off. Without it
 * `@ai-sdk/anthropic` marks the tools of streamed requests only, and a fork that does not
 * stream (nobody reads its events) would differ from its streaming parent at the first tool.
 * `undefined` for other providers, whose tools carry no such field.
 */
function eagerInputStreaming(model: LanguageModelV4, providerOptions: SharedV4ProviderOptions | undefined): boolean | undefined {
  if (!model.provider.includes('anthropic')) return undefined;
  return providerOptions?.['anthropic']?.['toolStreaming'] === true;
}

/** The parts the request's last entry becomes when it is a user entry (its text and attachments), else 0. */
function taskPartsOf(request: ModelRequest): number {
  const last = request.messages.at(request.messages.length - 1);
  return last?.kind === 'user' ? 1 + last.attachments.length : 0;
}

/** Merges provider options one level deep, so effort adds to (not replaces) a provider's settings. */
function mergeProviderOptions(
  base: SharedV4ProviderOptions | undefined,
  extra: SharedV4ProviderOptions | undefined,
): SharedV4ProviderOptions | undefined {
  if (extra === undefined) return base;
  const merged: SharedV4ProviderOptions = { ...base };
  for (const [key, value] of Object.entries(extra)) merged[key] = { ...merged[key], ...value };
  return merged;
}

/** Options of {@link aiSdkModel} with a table of models, chosen per request by `request.model`. */
export interface AiSdkModelTableOptions extends AiSdkModelOptions {
  /**
   * Models by the name requests carry (`request.model`: the runtime's `modelId`, a role's or a
   * spawn's `model`, after the runtime's own `models` aliases). A request whose model is neither
   * a key nor the `modelId` of one of these is refused with an {@link UnknownModelError}. Add a
   * `default` entry for the runtime's default model id.
   */
  readonly models: Readonly<Record<string, LanguageModelV4>>;
}

/**
 * A request named a model the adapter's `models` table does not have. Not transient: it is
 * never retried. `code` is `unknown_model`.
 */
export class UnknownModelError extends Error {
  override readonly name = 'UnknownModelError';
  readonly code = 'unknown_model';
  constructor(
    /** The model the request named. */
    readonly model: string,
    /** The table's names. */
    readonly known: readonly string[],
  ) {
    super(`aiSdkModel has no model "${model}" (its models: ${known.join(', ')}); add it to the models table, or set the runtime's modelId or the role's model to one of these`);
  }
}

/** Whether `value` is a V4 language model rather than an options object. */
function isLanguageModel(value: LanguageModelV4 | AiSdkModelTableOptions): value is LanguageModelV4 {
  return (value as Partial<LanguageModelV4>).specificationVersion === 'v4' && typeof (value as Partial<LanguageModelV4>).doGenerate === 'function';
}

/** What to tell a host that passed a model of an older AI SDK (`v3` is `ai` 6, `v2` is `ai` 5). */
function olderSdk(version: unknown): string {
  return version === 'v3' || version === 'v2' ? ': this is a model of an older AI SDK; aiSdkModel takes AI SDK 7 models (ai 7, @ai-sdk/<provider> 4)' : '';
}

/** Picks the model of a request from a table: by key, else by the model's own id. */
function modelPicker(models: Readonly<Record<string, LanguageModelV4>>): (name: string) => LanguageModelV4 {
  const known = Object.keys(models);
  if (known.length === 0) throw new TypeError('aiSdkModel: the models table is empty');
  for (const key of known) {
    const model = models[key];
    if (model === undefined || !isLanguageModel(model)) {
      const version = (model as { specificationVersion?: unknown } | undefined)?.specificationVersion;
      throw new TypeError(`aiSdkModel: models.${key} is not an AI SDK language model (specification v4)${olderSdk(version)}`);
    }
  }
  const byId = new Map<string, LanguageModelV4>();
  for (const model of Object.values(models)) if (!byId.has(model.modelId)) byId.set(model.modelId, model);
  return (name) => {
    const model = Object.hasOwn(models, name) ? models[name] : byId.get(name);
    if (model === undefined) throw new UnknownModelError(name, known);
    return model;
  };
}

/**
 * Wraps AI SDK language models as a {@link ModelAdapter}: one model, or a `models` table from
 * which each request's `request.model` picks one.
 *
 * Each sample is one call of the provider: `doStream` when the runtime streams (the context
 * has `onDelta`: each text and reasoning delta is passed on as it arrives), `doGenerate`
 * otherwise. The request becomes a V4 prompt and tool list (`toV4Prompt`, `toV4Tools`); the
 * result becomes a reply (`fromV4Result`, `collectV4Stream`) whose reasoning parts keep their
 * provider metadata, so the next request sends them back (Anthropic requires a turn's
 * thinking blocks during tool use). The context's signal is passed as `abortSignal`, and an
 * abort also rejects at once even if the provider ignores it. Provider errors are passed on
 * as they are, so the runtime's retries read their status and `retry-after`.
 *
 * @example
 * ```ts
 * import { anthropic } from '@ai-sdk/anthropic';
 * import { aiSdkModel } from 'subagent-actors/ai-sdk';
 *
 * const single = aiSdkModel(anthropic('claude-sonnet-4-5'));
 * const routed = aiSdkModel({
 *   models: { default: anthropic('claude-sonnet-4-5'), haiku: anthropic('claude-haiku-4-5'), opus: anthropic('claude-opus-4-1') },
 *   providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: 4_000 } } },
 * });
 * createRuntime({ model: routed, models: { haiku: 'haiku', sonnet: 'default', opus: 'opus' } });
 * ```
 */
export function aiSdkModel(model: LanguageModelV4, options?: AiSdkModelOptions): ModelAdapter;
export function aiSdkModel(options: AiSdkModelTableOptions): ModelAdapter;
export function aiSdkModel(modelOrTable: LanguageModelV4 | AiSdkModelTableOptions, maybeOptions: AiSdkModelOptions = {}): ModelAdapter {
  const single = isLanguageModel(modelOrTable);
  if (!single && (typeof modelOrTable !== 'object' || modelOrTable === null || typeof modelOrTable.models !== 'object' || modelOrTable.models === null)) {
    const version = (modelOrTable as { specificationVersion?: unknown } | null)?.specificationVersion;
    throw new TypeError(`aiSdkModel: expected an AI SDK language model (specification v4) or { models: { … } }, got ${version === undefined ? typeof modelOrTable : `a model of specification ${String(version)}${olderSdk(version)}`}`);
  }
  const options: AiSdkModelOptions = single ? maybeOptions : modelOrTable;
  const pick = single ? () => modelOrTable : modelPicker(modelOrTable.models);
  const mapEffort = options.effort === false ? undefined : options.effort;
  const warn = options.onWarning ?? emitProcessWarning;
  const warned = new Set<string>();
  /** Effort as provider options: the host's mapper, else the table, which warns once per model it cannot serve. */
  const effortFor = (effort: Effort, model: LanguageModelV4): SharedV4ProviderOptions | undefined => {
    if (mapEffort !== undefined) return mapEffort(effort, model);
    const mapped = effortOptions(effort, model);
    const id = `${model.provider}:${model.modelId}`;
    if (mapped === undefined && !warned.has(id)) {
      warned.add(id);
      warn({ code: 'effort_unsupported', model: id, effort, message: `aiSdkModel: ${id} takes no reasoning effort; effort "${effort}" is left out of its requests` });
    }
    return mapped;
  };
  const name = options.name ?? (single ? `${modelOrTable.provider}:${modelOrTable.modelId}` : `ai-sdk:${Object.keys(modelOrTable.models).join(',')}`);
  return {
    name,
    // The provider id before its first dot, as gen_ai.provider.name wants it (`anthropic.messages` → `anthropic`).
    provider: single ? providerKey(modelOrTable) : (model: string) => providerKey(pick(model)),
    async sample(request, context) {
      // Send nothing for a request already cancelled, or for a model the table lacks.
      throwIfAborted(context.signal);
      const model = pick(request.model);
      const tools = toV4Tools(request.system.tools, { eagerInputStreaming: eagerInputStreaming(model, options.providerOptions) });
      const effortProviderOptions = request.effort !== undefined && options.effort !== false ? effortFor(request.effort, model) : undefined;
      const providerOptions = mergeProviderOptions(options.providerOptions, effortProviderOptions);
      const call: LanguageModelV4CallOptions = {
        prompt: toV4Prompt(request, { cacheHints: options.cacheHints === true }),
        ...(tools.length > 0 ? { tools, toolChoice: { type: 'auto' } } : {}),
        ...(providerOptions !== undefined ? { providerOptions } : {}),
        ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
        ...(request.output !== undefined && options.nativeOutput === true
          ? { responseFormat: { type: 'json' as const, schema: request.output as JSONSchema7 } }
          : {}),
        abortSignal: context.signal,
      };
      // The body the provider built goes back with the reply: the runtime measures prefixes on it.
      const wire = (sent: { body?: unknown } | undefined): { wire?: WireBody } =>
        sent?.body !== undefined ? { wire: { provider: model.provider, body: sent.body, taskParts: taskPartsOf(request) } } : {};
      if (context.onDelta !== undefined && options.streaming !== false) {
        const { stream, request: sent } = await raceAbort(model.doStream(call), context.signal);
        return { ...(await raceAbort(collectV4Stream(stream, context.signal, context.onDelta), context.signal)), ...wire(sent) };
      }
      const result = await raceAbort(model.doGenerate(call), context.signal);
      return { ...fromV4Result(result), ...wire(result.request) };
    },
  };
}
