/**
 * Effort per provider: which provider option a request's effort becomes, for each model the
 * adapter knows, and when the model cannot take one at all. Types only from `@ai-sdk/provider`.
 *
 * | provider  | model                                                      | sent as                                             |
 * |-----------|------------------------------------------------------------|-----------------------------------------------------|
 * | anthropic | Opus 4.5 and later, Sonnet 4.6 and later, any Claude 5     | `effort` (`output_config.effort`)                   |
 * | anthropic | Claude 3.7 Sonnet, other Claude 4 (Sonnet/Opus 4, 4.1, 4.5, Haiku 4.5) | `thinking: { type: 'enabled', budgetTokens }` (low 2,048, medium 8,192, high 16,384) |
 * | anthropic | older Claude 3 models                                      | nothing (the model cannot take it)                  |
 * | openai    | reasoning models (o-series, GPT-5 and later but `gpt-5-chat`) | `reasoningEffort`                                 |
 * | openai    | other models (`gpt-4.1`, `gpt-4o`, …)                      | nothing (the model cannot take it)                  |
 * | other     | any                                                        | `{ [provider]: { reasoningEffort } }`, as before    |
 */
import type { LanguageModelV4, SharedV4ProviderOptions } from '@ai-sdk/provider';
import type { Effort } from '../request/types.js';

/** Anthropic thinking budgets (tokens) for the models that take a budget and no effort. */
export const ANTHROPIC_THINKING_BUDGETS: Readonly<Record<Effort, number>> = Object.freeze({ low: 2_048, medium: 8_192, high: 16_384 });

/** How a model takes effort, by the table above. */
export type EffortSupport = 'anthropic_effort' | 'anthropic_thinking_budget' | 'openai_reasoning_effort' | 'pass_through' | 'unsupported';

/** The model id without a provider's routing prefix or date suffix (`us.anthropic.claude-…` → `claude-…`). */
function bareId(modelId: string): string {
  const at = modelId.lastIndexOf('claude-');
  return at > 0 ? modelId.slice(at) : modelId;
}

/** The major and minor version of a Claude model id (`claude-sonnet-4-5-2025…` → [4, 5]; `claude-3-7-sonnet` → [3, 7]). */
function claudeVersion(modelId: string): readonly [number, number] | undefined {
  const id = bareId(modelId);
  const named = /^claude-(?:opus|sonnet|haiku|fable)-(\d+)(?:-(\d{1,2}))?(?:$|[-@.:])/.exec(id);
  if (named !== null) return [Number(named[1]), named[2] !== undefined ? Number(named[2]) : 0];
  const legacy = /^claude-(\d+)(?:-(\d{1,2}))?-/.exec(id);
  if (legacy !== null) return [Number(legacy[1]), legacy[2] !== undefined ? Number(legacy[2]) : 0];
  return undefined;
}

/** How an Anthropic model takes effort. */
function anthropicSupport(modelId: string): EffortSupport {
  const version = claudeVersion(modelId);
  if (version === undefined) return 'unsupported';
  const [major, minor] = version;
  const id = bareId(modelId);
  if (major >= 5) return 'anthropic_effort';
  if (major === 4) {
    if (id.startsWith('claude-opus-') && minor >= 5) return 'anthropic_effort';
    if (id.startsWith('claude-sonnet-') && minor >= 6) return 'anthropic_effort';
    return 'anthropic_thinking_budget';
  }
  return major === 3 && minor >= 7 ? 'anthropic_thinking_budget' : 'unsupported';
}

/** Whether an OpenAI model is a reasoning model: the o-series, or GPT-5 and later except the `chat` variants. */
export function isOpenAiReasoningModel(modelId: string): boolean {
  if (/^o\d+(?:$|-)/.test(modelId)) return true;
  const gpt = /^gpt-(\d+)(?:\.\d+)?(?:-(.*))?$/.exec(modelId);
  if (gpt === null) return false;
  return Number(gpt[1]) >= 5 && !(gpt[2] ?? '').startsWith('chat');
}

/**
 * How `model` takes effort: the row of the table in this file that applies to it.
 *
 * @example
 * ```ts
 * effortSupport(anthropic('claude-sonnet-4-5')); // 'anthropic_thinking_budget'
 * effortSupport(openai.chat('gpt-4.1'));         // 'unsupported'
 * ```
 */
export function effortSupport(model: Pick<LanguageModelV4, 'provider' | 'modelId'>): EffortSupport {
  const provider = model.provider.split('.')[0] ?? model.provider;
  if (provider === 'anthropic') return anthropicSupport(model.modelId);
  if (provider === 'openai') return isOpenAiReasoningModel(model.modelId) ? 'openai_reasoning_effort' : 'unsupported';
  return 'pass_through';
}

/**
 * The provider options a request's effort becomes for `model`, by the table in this file, or
 * `undefined` when the model cannot take it (the adapter then sends nothing for it and warns once).
 *
 * @example
 * ```ts
 * effortOptions('high', anthropic('claude-opus-4-6'));   // { anthropic: { effort: 'high' } }
 * effortOptions('low', anthropic('claude-sonnet-4-5'));  // { anthropic: { thinking: { type: 'enabled', budgetTokens: 2048 } } }
 * effortOptions('medium', openai.responses('o4-mini'));  // { openai: { reasoningEffort: 'medium' } }
 * effortOptions('medium', openai.chat('gpt-4.1'));       // undefined
 * ```
 */
export function effortOptions(effort: Effort, model: Pick<LanguageModelV4, 'provider' | 'modelId'>): SharedV4ProviderOptions | undefined {
  switch (effortSupport(model)) {
    case 'anthropic_effort':
      return { anthropic: { effort } };
    case 'anthropic_thinking_budget':
      return { anthropic: { thinking: { type: 'enabled', budgetTokens: ANTHROPIC_THINKING_BUDGETS[effort] } } };
    case 'openai_reasoning_effort':
      return { openai: { reasoningEffort: effort } };
    case 'pass_through':
      return { [model.provider.split('.')[0] ?? model.provider]: { reasoningEffort: effort } };
    case 'unsupported':
      return undefined;
  }
}
