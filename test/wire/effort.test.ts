/**
 * Effort per provider, on the wire: the real `@ai-sdk/anthropic` and `@ai-sdk/openai` packages
 * against the stand-in show where a request's effort lands for each kind of model, and that an
 * effort the model cannot take is left out with one warning.
 */
import { describe, expect, it } from 'vitest';
import { userEntry } from '../../src/dialogue/entry.js';
import { aiSdkModel, effortSupport, type AiSdkWarning } from '../../src/model/ai-sdk.js';
import type { Effort } from '../../src/request/types.js';
import { ctx, request } from '../model/helpers.js';
import { useStandIn, wireModel } from './harness.js';
import type { WireApi } from './stand-in/index.js';

const standIn = useStandIn();

/** The body of each of `efforts`' requests to `modelId`, and the warnings the adapter gave. */
async function send(api: WireApi, modelId: string, efforts: readonly Effort[]): Promise<{ bodies: Readonly<Record<string, unknown>>[]; warnings: AiSdkWarning[] }> {
  standIn().clear();
  const warnings: AiSdkWarning[] = [];
  const adapter = aiSdkModel(wireModel(standIn(), api, modelId), { onWarning: (w) => warnings.push(w) });
  for (const effort of efforts) await adapter.sample(request([userEntry({ text: 'hi', id: 'u' })], { effort }), ctx('/root'));
  return { bodies: standIn().requestsTo(api).map((r) => r.body), warnings };
}

describe('effort per provider', () => {
  it('Anthropic models that take effort get output_config.effort', async () => {
    const { bodies, warnings } = await send('anthropic-messages', 'claude-opus-4-6', ['high']);
    expect(bodies[0]).toMatchObject({ output_config: { effort: 'high' } });
    expect(bodies[0]).not.toHaveProperty('thinking');
    expect(warnings).toEqual([]);
  });

  it('older thinking Anthropic models get a thinking budget by effort', async () => {
    const { bodies } = await send('anthropic-messages', 'claude-sonnet-4-5', ['low', 'high']);
    expect(bodies.map((b) => b['thinking'])).toEqual([
      { type: 'enabled', budget_tokens: 2_048 },
      { type: 'enabled', budget_tokens: 16_384 },
    ]);
    expect(bodies[0]).not.toHaveProperty('output_config');
  });

  it('an Anthropic model that cannot think gets nothing, and one warning', async () => {
    const { bodies, warnings } = await send('anthropic-messages', 'claude-3-5-haiku-latest', ['medium', 'high']);
    for (const body of bodies) {
      expect(body).not.toHaveProperty('thinking');
      expect(body).not.toHaveProperty('output_config');
    }
    expect(warnings).toEqual([expect.objectContaining({ code: 'effort_unsupported', model: 'anthropic.messages:claude-3-5-haiku-latest', effort: 'medium' })]);
  });

  it.each(['openai-chat', 'openai-responses'] as const)('OpenAI reasoning models get reasoning effort; gpt-4.1 gets none and one warning (%s)', async (api) => {
    const reasoning = await send(api, 'o4-mini', ['high']);
    if (api === 'openai-chat') expect(reasoning.bodies[0]).toMatchObject({ reasoning_effort: 'high' });
    else expect(reasoning.bodies[0]).toMatchObject({ reasoning: { effort: 'high' } });
    expect(reasoning.warnings).toEqual([]);

    const plain = await send(api, 'gpt-4.1', ['low', 'medium', 'high']);
    for (const body of plain.bodies) {
      expect(body).not.toHaveProperty('reasoning_effort');
      expect(body).not.toHaveProperty('reasoning');
    }
    expect(plain.warnings).toHaveLength(1);
    expect(plain.warnings[0]).toMatchObject({ code: 'effort_unsupported', effort: 'low' });
  });

  it('the table', () => {
    const row = (provider: string, modelId: string) => effortSupport({ provider, modelId });
    expect(row('anthropic.messages', 'claude-opus-4-5')).toBe('anthropic_effort');
    expect(row('anthropic.messages', 'claude-sonnet-4-6')).toBe('anthropic_effort');
    expect(row('anthropic.messages', 'claude-sonnet-5')).toBe('anthropic_effort');
    expect(row('anthropic.messages', 'claude-opus-4-1-20250805')).toBe('anthropic_thinking_budget');
    expect(row('anthropic.messages', 'claude-haiku-4-5')).toBe('anthropic_thinking_budget');
    expect(row('anthropic.messages', 'claude-3-7-sonnet-latest')).toBe('anthropic_thinking_budget');
    expect(row('anthropic.messages', 'claude-3-5-sonnet-latest')).toBe('unsupported');
    expect(row('openai.chat', 'gpt-5')).toBe('openai_reasoning_effort');
    expect(row('openai.responses', 'gpt-5.1-codex')).toBe('openai_reasoning_effort');
    expect(row('openai.chat', 'gpt-5-chat-latest')).toBe('unsupported');
    expect(row('openai.chat', 'o3')).toBe('openai_reasoning_effort');
    expect(row('openai.chat', 'gpt-4o')).toBe('unsupported');
    expect(row('xai.chat', 'grok-4')).toBe('pass_through');
  });
});
