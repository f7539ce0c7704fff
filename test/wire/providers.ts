/**
 * The real provider packages pointed at a stand-in, and readers of a recorded request in each
 * API's own shape. No test runner here: benchmarks use it too.
 */
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import type { RecordedRequest, StandIn, WireApi } from './stand-in/index.js';

/** The three APIs, in the order tests list them. */
export const WIRE_APIS: readonly WireApi[] = ['anthropic-messages', 'openai-chat', 'openai-responses'];

/** The model each API is tested with when a test names none. */
export const DEFAULT_MODEL_IDS: Readonly<Record<WireApi, string>> = {
  'anthropic-messages': 'claude-sonnet-4-5',
  'openai-chat': 'gpt-4.1',
  'openai-responses': 'gpt-4.1',
};

/** The provider id of each API's model (`LanguageModelV4.provider`). */
export const PROVIDER_IDS: Readonly<Record<WireApi, string>> = {
  'anthropic-messages': 'anthropic.messages',
  'openai-chat': 'openai.chat',
  'openai-responses': 'openai.responses',
};

/** The real `@ai-sdk/anthropic` or `@ai-sdk/openai` model for `api`, pointed at the stand-in. */
export function wireModel(standIn: StandIn, api: WireApi, modelId: string = DEFAULT_MODEL_IDS[api]): LanguageModelV4 {
  const settings = { baseURL: standIn.baseURL, apiKey: 'test-key' };
  if (api === 'anthropic-messages') return createAnthropic(settings)(modelId);
  const openai = createOpenAI(settings);
  return api === 'openai-chat' ? openai.chat(modelId) : openai.responses(modelId);
}

export type Json = Readonly<Record<string, unknown>>;

/** `value` as a list of JSON objects (empty when it is not an array). */
export const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

/** Whether the request's last message or item is a tool result, in the API's own shape. */
export function answersToolResult(request: RecordedRequest): boolean {
  if (request.api === 'openai-responses') return list(request.body['input']).at(-1)?.['type'] === 'function_call_output';
  const last = list(request.body['messages']).at(-1);
  if (request.api === 'openai-chat') return last?.['role'] === 'tool';
  return list(last?.['content']).some((block) => block['type'] === 'tool_result');
}
