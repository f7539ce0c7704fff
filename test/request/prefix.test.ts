import { describe, expect, it } from 'vitest';
import { userEntry } from '../../src/dialogue/entry.js';
import { assembleRequest, comparePrefix } from '../../src/request/prefix.js';
import { resolvePreset } from '../../src/request/preset.js';
import { buildSystemConfiguration } from '../../src/request/system.js';
import { createToolRegistry } from '../../src/request/registry.js';
import type { SystemConfiguration, ToolSchema } from '../../src/request/types.js';
import { catalog, seq } from './helpers.js';

const readFile: ToolSchema = Object.freeze({ name: 'read_file', description: 'Read a file.', inputSchema: Object.freeze({ type: 'object' }) });
const registry = createToolRegistry([readFile]);
const presets = {
  ...catalog(),
  alias: { name: 'alias', extends: 'base' },
  moreTools: { name: 'moreTools', extends: 'coder', tools: ['Agent', 'read_file'] },
};
const build = (name: string, filter?: { deny?: string[]; allow?: string[] }): SystemConfiguration =>
  buildSystemConfiguration({ preset: resolvePreset(name, presets), registry, ...(filter ? { filter } : {}) });

describe('comparePrefix', () => {
  const base = build('base');

  it('shares when the configuration and the model are the same', () => {
    expect(comparePrefix({ system: base, model: 'm' }, { system: base, model: 'm' })).toEqual({ shared: true });
  });

  it('shares when two presets produce byte-equal heads', () => {
    expect(comparePrefix({ system: base, model: 'm' }, { system: build('alias'), model: 'm' })).toEqual({ shared: true });
  });

  it('names a different model', () => {
    expect(comparePrefix({ system: base, model: 'm' }, { system: base, model: 'other' })).toEqual({ shared: false, reasons: ['different_model'] });
  });

  it('names a different preset and system prompt', () => {
    expect(comparePrefix({ system: base, model: 'm' }, { system: build('reviewer'), model: 'm' })).toEqual({
      shared: false,
      reasons: ['different_preset', 'different_system_prompt'],
    });
  });

  it('names different tools of another preset', () => {
    expect(comparePrefix({ system: base, model: 'm' }, { system: build('coder'), model: 'x' })).toEqual({
      shared: false,
      reasons: ['different_preset', 'different_tools', 'different_model'],
    });
  });

  it('names a tool filter, and only the filter, when it explains the difference', () => {
    expect(comparePrefix({ system: base, model: 'm' }, { system: build('base', { deny: ['send_message'] }), model: 'm' })).toEqual({
      shared: false,
      reasons: ['tool_filter'],
    });
    // Filter plus genuinely different tools: both reasons.
    expect(comparePrefix({ system: base, model: 'm' }, { system: build('coder', { deny: ['list_agents'] }), model: 'm' })).toEqual({
      shared: false,
      reasons: ['different_preset', 'different_tools', 'tool_filter'],
    });
  });

  it('does not blame a filter that changes nothing visible', () => {
    // The parent lacks send_message by its preset; the subagent's filter removes it: equal heads.
    const parent = buildSystemConfiguration({
      preset: resolvePreset('p', { p: { name: 'p', systemPrompt: 'x', tools: ['Agent'] } }),
      registry,
    });
    const child = buildSystemConfiguration({
      preset: resolvePreset('q', { q: { name: 'q', systemPrompt: 'y', tools: ['Agent', 'send_message'] } }),
      registry,
      filter: { deny: ['send_message'] },
    });
    expect(comparePrefix({ system: parent, model: 'm' }, { system: child, model: 'm' })).toEqual({
      shared: false,
      reasons: ['different_preset', 'different_system_prompt'],
    });
  });

  it('returns frozen results', () => {
    const result = comparePrefix({ system: base, model: 'm' }, { system: base, model: 'n' });
    expect(Object.isFrozen(result)).toBe(true);
    expect(!result.shared && Object.isFrozen(result.reasons)).toBe(true);
  });
});

describe('assembleRequest', () => {
  it('builds a frozen request without copying the messages', () => {
    const messages = seq([userEntry({ id: 'u', text: 'hi' })]);
    const system = build('base');
    const req = assembleRequest({ system, messages, model: 'm', effort: 'medium' });
    expect(req).toEqual({ system, messages, model: 'm', effort: 'medium' });
    expect(req.messages).toBe(messages);
    expect(Object.isFrozen(req)).toBe(true);
    expect(assembleRequest({ system, messages, model: 'm' }).effort).toBeUndefined();
  });
});
