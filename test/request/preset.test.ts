import { describe, expect, it } from 'vitest';
import { PresetError, resolvePreset, type PresetCatalog } from '../../src/request/preset.js';
import { ALL_TOOLS, catalog } from './helpers.js';
import { thrown } from '../thrown.js';

function presetError(run: () => unknown): PresetError {
  return thrown(run, PresetError);
}

describe('resolvePreset', () => {
  it('returns a root preset as given, frozen', () => {
    const base = resolvePreset('base', catalog());
    expect(base).toEqual({
      name: 'base',
      systemPrompt: 'You are a careful engineer.',
      tools: [...ALL_TOOLS],
      defaults: { forkLifetime: 'continuable', model: 'm-large' },
    });
    expect(Object.isFrozen(base)).toBe(true);
    expect(Object.isFrozen(base.tools)).toBe(true);
    expect(Object.isFrozen(base.defaults)).toBe(true);
  });

  it('merges along extends: own fields override, defaults merge field by field', () => {
    const presets = catalog();
    expect(resolvePreset('coder', presets)).toEqual({
      name: 'coder',
      extends: 'base',
      systemPrompt: 'You are a careful engineer.',
      tools: [...ALL_TOOLS, 'read_file'],
      defaults: { forkLifetime: 'continuable', model: 'm-large', effort: 'high' },
    });
    expect(resolvePreset('reviewer', presets)).toMatchObject({ systemPrompt: 'You review code strictly.', tools: [...ALL_TOOLS] });
  });

  it('resolves over three levels and lets the nearest preset win', () => {
    const presets: PresetCatalog = new Map([
      ['a', { name: 'a', systemPrompt: 'A', tools: ['Agent'], defaults: { model: 'ma', effort: 'low' } }],
      ['b', { name: 'b', extends: 'a', defaults: { model: 'mb' } }],
      ['c', { name: 'c', extends: 'b', systemPrompt: 'C', defaults: { forkLifetime: 'one-shot' } }],
    ]);
    expect(resolvePreset('c', presets)).toEqual({
      name: 'c',
      extends: 'b',
      systemPrompt: 'C',
      tools: ['Agent'],
      defaults: { model: 'mb', effort: 'low', forkLifetime: 'one-shot' },
    });
  });

  it('omits defaults when none are given anywhere', () => {
    expect(resolvePreset('p', { p: { name: 'p', systemPrompt: 'x', tools: [] } })).toEqual({ name: 'p', systemPrompt: 'x', tools: [] });
  });

  it('returns the same object for the same catalog and name', () => {
    const presets = catalog();
    expect(resolvePreset('coder', presets)).toBe(resolvePreset('coder', presets));
    expect(resolvePreset('coder', catalog())).not.toBe(resolvePreset('coder', presets));
  });

  it('reports an unknown preset and an unknown parent', () => {
    const unknown = presetError(() => resolvePreset('nope', catalog()));
    expect(unknown).toMatchObject({ code: 'unknown_preset', preset: 'nope', chain: ['nope'], message: 'Unknown preset nope' });
    const orphan = presetError(() => resolvePreset('x', { x: { name: 'x', extends: 'ghost' } }));
    expect(orphan).toMatchObject({ code: 'unknown_parent', preset: 'x', chain: ['x', 'ghost'], message: 'Preset x extends unknown preset ghost' });
  });

  it('does not find inherited object properties as presets', () => {
    expect(presetError(() => resolvePreset('constructor', {})).code).toBe('unknown_preset');
    expect(presetError(() => resolvePreset('x', { x: { name: 'x', extends: 'toString' } })).code).toBe('unknown_parent');
  });

  it('detects cycles, including a preset extending itself', () => {
    const cycle = presetError(() =>
      resolvePreset('a', { a: { name: 'a', extends: 'b' }, b: { name: 'b', extends: 'c' }, c: { name: 'c', extends: 'a' } }),
    );
    expect(cycle).toMatchObject({ code: 'preset_cycle', preset: 'a', chain: ['a', 'b', 'c', 'a'], message: 'Preset a extends itself: a -> b -> c -> a' });
    expect(presetError(() => resolvePreset('s', { s: { name: 's', extends: 's' } })).chain).toEqual(['s', 's']);
  });

  it('requires a system prompt and tools somewhere along the chain', () => {
    expect(presetError(() => resolvePreset('p', { p: { name: 'p', tools: [] } }))).toMatchObject({
      code: 'incomplete_preset',
      message: 'Preset p has no systemPrompt, and no preset it extends gives one',
    });
    expect(presetError(() => resolvePreset('c', { r: { name: 'r', systemPrompt: 'x' }, c: { name: 'c', extends: 'r' } }))).toMatchObject({
      code: 'incomplete_preset',
      chain: ['c', 'r'],
      message: 'Preset c has no tools, and no preset it extends gives one',
    });
  });

  it('refuses a definition filed under another name', () => {
    expect(presetError(() => resolvePreset('a', { a: { name: 'b', systemPrompt: 'x', tools: [] } }))).toMatchObject({
      code: 'name_mismatch',
      message: 'Preset filed as a is named b',
    });
  });

  it('is a real Error subclass', () => {
    const error = presetError(() => resolvePreset('nope', {}));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('PresetError');
  });
});
