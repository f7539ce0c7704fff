import { describe, expect, it } from 'vitest';
import { modelCostRank, resolveModelName } from '../../src/policy/model-alias.js';

const table = { haiku: 'claude-haiku-4-5', sonnet: 'claude-sonnet-4-5', fast: 'claude-haiku-4-5', opus: 'claude-opus-4-1' };

describe('resolveModelName', () => {
  it('reads inherit as the delegating agent’s model, with or without a table', () => {
    expect(resolveModelName('inherit', table, 'parent-model')).toEqual({ ok: true, model: 'parent-model' });
    expect(resolveModelName('inherit', undefined, 'parent-model')).toEqual({ ok: true, model: 'parent-model' });
  });

  it('maps aliases and host names through the table, and accepts its ids as they are', () => {
    expect(resolveModelName('sonnet', table, 'p')).toEqual({ ok: true, model: 'claude-sonnet-4-5' });
    expect(resolveModelName('fast', table, 'p')).toEqual({ ok: true, model: 'claude-haiku-4-5' });
    expect(resolveModelName('claude-opus-4-1', table, 'p')).toEqual({ ok: true, model: 'claude-opus-4-1' });
  });

  it('refuses a name the table does not know, listing what it knows', () => {
    expect(resolveModelName('gpt-9', table, 'p')).toEqual({ ok: false, reason: 'model "gpt-9" is not in the runtime\'s models table (known: inherit, haiku, sonnet, fast, opus)' });
    expect(resolveModelName('constructor', table, 'p').ok).toBe(false);
  });

  it('without a table, refuses Claude’s aliases and passes other ids through', () => {
    expect(resolveModelName('opus', undefined, 'p').ok).toBe(false);
    expect(resolveModelName('my-model', undefined, 'p')).toEqual({ ok: true, model: 'my-model' });
  });
});

describe('modelCostRank', () => {
  it('ranks ids by their first position in the table', () => {
    expect(modelCostRank('claude-haiku-4-5', table)).toBe(0);
    expect(modelCostRank('claude-opus-4-1', table)).toBe(3);
    expect(modelCostRank('other', table)).toBeUndefined();
    expect(modelCostRank('claude-opus-4-1', undefined)).toBeUndefined();
  });
});
