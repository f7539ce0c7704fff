import { describe, expect, it } from 'vitest';
import { resolveModelName } from '../../src/policy/model-alias.js';
import { modelsSetting, piModelTable, type RegistryModel } from '../../src/pi/model-table.js';

const model = (provider: string, id: string, price: number): RegistryModel => ({ provider, id, cost: { input: price, output: price, cacheRead: 0, cacheWrite: 0 } });
const registry = [model('anthropic', 'claude-opus-x', 5), model('anthropic', 'claude-haiku-x', 1), model('proxy', 'claude-haiku-x', 1), model('anthropic', 'claude-sonnet-x', 3)];

describe('piModelTable', () => {
  it('maps aliases, provider/id and bare ids to registry models, later alias layers winning, in price order', () => {
    const { table, problems } = piModelTable({
      aliases: [{ haiku: 'anthropic/claude-haiku-x', sonnet: 'nowhere/none' }, undefined, { sonnet: 'claude-sonnet-x' }],
      registry,
      available: [registry[2]!],
      session: { id: 'session', model: registry[3] },
    });
    expect(problems).toEqual([]);
    expect(table).toEqual({
      haiku: 'anthropic/claude-haiku-x',
      'anthropic/claude-haiku-x': 'anthropic/claude-haiku-x',
      'proxy/claude-haiku-x': 'proxy/claude-haiku-x',
      // A bare id goes to a provider with credentials first.
      'claude-haiku-x': 'proxy/claude-haiku-x',
      sonnet: 'anthropic/claude-sonnet-x',
      'anthropic/claude-sonnet-x': 'anthropic/claude-sonnet-x',
      'claude-sonnet-x': 'anthropic/claude-sonnet-x',
      session: 'session',
      'anthropic/claude-opus-x': 'anthropic/claude-opus-x',
      'claude-opus-x': 'anthropic/claude-opus-x',
    });
    expect(Object.keys(table).indexOf('haiku')).toBeLessThan(Object.keys(table).indexOf('anthropic/claude-opus-x'));
  });

  it('reports an alias whose model the registry lacks and leaves it out', () => {
    const { table, problems } = piModelTable({ aliases: [{ opus: 'nowhere/none' }], registry, session: { id: 'session', model: undefined } });
    expect(table['opus']).toBeUndefined();
    expect(problems).toEqual(['model alias "opus" names "nowhere/none", which is not a model of Pi\'s registry (/model lists them; set subagents.models in Pi\'s settings to change it)']);
    expect(resolveModelName('opus', table, 'session')).toMatchObject({ ok: false });
  });

  it('an unknown name in a large table lists the aliases and counts the rest', () => {
    const many = Array.from({ length: 30 }, (_, i) => model('p', `m${i}`, i));
    const { table } = piModelTable({ aliases: [{ sonnet: 'p/m3' }], registry: many, session: { id: 'session', model: undefined } });
    const resolved = resolveModelName('gpt-nine', table, 'session');
    expect(resolved.ok).toBe(false);
    expect(!resolved.ok && resolved.reason).toMatch(/^model "gpt-nine" is not in the runtime's models table \(known: inherit, sonnet, m0, m1, .* and \d+ more\)$/);
  });

  it('reads subagents.models from Pi’s settings, ignoring what is not a table of names', () => {
    expect(modelsSetting({ subagents: { models: { sonnet: 'a/b', bad: 3 } } })).toEqual({ sonnet: 'a/b' });
    expect(modelsSetting({ subagents: { models: ['a'] } })).toBeUndefined();
    expect(modelsSetting(undefined)).toBeUndefined();
  });
});
