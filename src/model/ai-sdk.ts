/**
 * A {@link ModelAdapter} over any AI SDK language model (specification V3, as used by `ai` 6),
 * e.g. `aiSdkModel(anthropic('claude-sonnet-4-5'))`.
 *
 * `@ai-sdk/provider` is imported for types only, so the library has no run-time dependency on
 * the AI SDK; users who call this adapter already have a provider package installed.
 */
import type { JSONSchema7, LanguageModelV3, SharedV3ProviderOptions } from '@ai-sdk/provider';
import type { Effort } from '../request/types.js';
import { raceAbort, throwIfAborted } from './abort.js';
import type { ModelAdapter } from './adapter.js';
import { toV3Prompt, toV3Tools } from './ai-sdk-prompt.js';
import { fromV3Result } from './ai-sdk-result.js';

/** Maps a requested effort to provider options, or `undefined` to send nothing for it. */
export type EffortMapper = (effort: Effort, model: LanguageModelV3) => SharedV3ProviderOptions | undefined;

/** Options of {@link aiSdkModel}. */
export interface AiSdkModelOptions {
  /** Adapter name (default `<provider>:<modelId>`). */
  readonly name?: string;
  /**
   * Mark the system message and the last message with an Anthropic-style
   * `cacheControl: { type: 'ephemeral' }` breakpoint (see `toV3Prompt`). Other providers
   * ignore the option; OpenAI and Gemini cache prefixes on their own.
   */
  readonly cacheHints?: boolean;
  /** Provider options sent with every request (e.g. `{ anthropic: { thinking: ... } }`). */
  readonly providerOptions?: SharedV3ProviderOptions;
  /**
   * How a request's effort becomes provider options. Effort is provider-specific, so this is a
   * pass-through: the default sends `{ [provider]: { reasoningEffort: effort } }` (the OpenAI
   * name; `provider` is the model's provider id before the first `.`) and only when the request
   * has an effort. `false` never sends effort.
   */
  readonly effort?: EffortMapper | false;
  /** Upper bound on generated tokens, passed through. */
  readonly maxOutputTokens?: number;
  /**
   * Send an agent's output schema as the provider's native structured mode
   * (`responseFormat: { type: 'json', schema }`) on its requests. Default `true`. The runtime
   * validates the answer either way; `false` relies on the instruction in the task alone.
   */
  readonly nativeOutput?: boolean;
}

/** The provider-options key of a model: its provider id before the first dot (`anthropic.messages` → `anthropic`). */
export function providerKey(model: LanguageModelV3): string {
  return model.provider.split('.')[0] ?? model.provider;
}

/** The default {@link EffortMapper}: `{ [providerKey]: { reasoningEffort } }`. */
export const passThroughEffort: EffortMapper = (effort, model) => ({ [providerKey(model)]: { reasoningEffort: effort } });

/** Merges provider options one level deep, so effort adds to (not replaces) a provider's settings. */
function mergeProviderOptions(
  base: SharedV3ProviderOptions | undefined,
  extra: SharedV3ProviderOptions | undefined,
): SharedV3ProviderOptions | undefined {
  if (extra === undefined) return base;
  const merged: SharedV3ProviderOptions = { ...base };
  for (const [key, value] of Object.entries(extra)) merged[key] = { ...merged[key], ...value };
  return merged;
}

/**
 * Wraps an AI SDK language model as a {@link ModelAdapter}. Each sample is one non-streaming
 * `doGenerate` call: the request becomes a V3 prompt and tool list (`toV3Prompt`,
 * `toV3Tools`), the result becomes a reply (`fromV3Result`). The context's signal is passed
 * as `abortSignal`, and an abort also rejects at once even if the provider ignores it.
 * `request.model` is not consulted: this adapter is bound to one model.
 */
export function aiSdkModel(model: LanguageModelV3, options: AiSdkModelOptions = {}): ModelAdapter {
  const mapEffort = options.effort === false ? undefined : (options.effort ?? passThroughEffort);
  return {
    name: options.name ?? `${model.provider}:${model.modelId}`,
    async sample(request, context) {
      // Send nothing for a request already cancelled.
      throwIfAborted(context.signal);
      const tools = toV3Tools(request.system.tools);
      const effortOptions = request.effort !== undefined ? mapEffort?.(request.effort, model) : undefined;
      const providerOptions = mergeProviderOptions(options.providerOptions, effortOptions);
      const result = await raceAbort(
        model.doGenerate({
          prompt: toV3Prompt(request, { cacheHints: options.cacheHints === true }),
          ...(tools.length > 0 ? { tools, toolChoice: { type: 'auto' } } : {}),
          ...(providerOptions !== undefined ? { providerOptions } : {}),
          ...(options.maxOutputTokens !== undefined ? { maxOutputTokens: options.maxOutputTokens } : {}),
          ...(request.output !== undefined && options.nativeOutput !== false
            ? { responseFormat: { type: 'json' as const, schema: request.output as JSONSchema7 } }
            : {}),
          abortSignal: context.signal,
        }),
        context.signal,
      );
      return fromV3Result(result);
    },
  };
}
