import { describe, expect, it } from 'vitest';
import { providerOf } from '../../src/runtime/telemetry.js';
import type { ModelAdapter } from '../../src/model/adapter.js';

const adapter = (name: string, provider?: ModelAdapter['provider']): ModelAdapter => ({ name, ...(provider !== undefined ? { provider } : {}), sample: () => Promise.reject(new Error('not sampled')) }) as ModelAdapter;

describe('gen_ai.provider.name of a request', () => {
  it("is the adapter's provider when it names one, else its name up to the first '.' or ':'", () => {
    expect(providerOf(adapter('x', 'anthropic'), 'm')).toBe('anthropic');
    expect(providerOf(adapter('x', (model) => `p-${model}`), 'm')).toBe('p-m');
    expect(['openai.responses', 'bedrock:claude.v2', 'local', '.hidden', 'a:b.c'].map((n) => providerOf(adapter(n), 'm'))).toEqual(['openai', 'bedrock', 'local', '', 'a']);
  });

  it("falls back to the name when the adapter's provider function throws", () => {
    expect(providerOf(adapter('vendor.api', () => { throw new Error('unknown model'); }), 'm')).toBe('vendor');
  });
});
