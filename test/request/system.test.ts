import { describe, expect, it } from 'vitest';
import { PresetError, resolvePreset } from '../../src/request/preset.js';
import { buildSystemConfiguration, hasTool } from '../../src/request/system.js';
import { createToolRegistry } from '../../src/request/registry.js';
import { serializeHead } from '../../src/request/serialize.js';
import { BUILTIN_TOOL_SCHEMAS } from '../../src/request/tools.js';
import type { ToolSchema } from '../../src/request/types.js';
import { ALL_TOOLS, catalog } from './helpers.js';

const readFile: ToolSchema = Object.freeze({ name: 'read_file', description: 'Read a file.', inputSchema: Object.freeze({ type: 'object' }) });
const registry = createToolRegistry([readFile]);

describe('buildSystemConfiguration', () => {
  it('takes the preset prompt and the registry schemas in the preset order', () => {
    const coder = buildSystemConfiguration({ preset: resolvePreset('coder', catalog()), registry });
    expect(coder.preset).toBe('coder');
    expect(coder.systemPrompt).toBe('You are a careful engineer.');
    expect(coder.tools.map((t) => t.name)).toEqual([...ALL_TOOLS, 'read_file']);
    expect(coder.tools[0]).toBe(BUILTIN_TOOL_SCHEMAS[0]);
    expect(coder).not.toHaveProperty('removedTools');
    expect(Object.isFrozen(coder)).toBe(true);
    expect(Object.isFrozen(coder.tools)).toBe(true);
  });

  it('returns the same frozen object for the same inputs', () => {
    const presets = catalog();
    const a = buildSystemConfiguration({ preset: resolvePreset('base', presets), registry });
    expect(buildSystemConfiguration({ preset: resolvePreset('base', presets), registry })).toBe(a);
    // Equal content counts, not identity: a catalog, registry and filter rebuilt (cold resume).
    expect(buildSystemConfiguration({ preset: resolvePreset('base', catalog()), registry: createToolRegistry([readFile]), filter: {} })).toBe(a);
    expect(buildSystemConfiguration({ preset: resolvePreset('base', presets), registry: Object.fromEntries(registry as Map<string, ToolSchema>) })).toBe(a);
  });

  it('serializes the head once: the built object arrives with its head ready', () => {
    const system = buildSystemConfiguration({ preset: resolvePreset('reviewer', catalog()), registry });
    expect(serializeHead(system)).toBe(serializeHead(system));
    expect(serializeHead(system).startsWith('{"frame":"system","text":"You review code strictly."}\n')).toBe(true);
  });

  it('tells presets apart even when their heads are equal', () => {
    const presets = { ...catalog(), alias: { name: 'alias', extends: 'base' } };
    const base = buildSystemConfiguration({ preset: resolvePreset('base', presets), registry });
    const alias = buildSystemConfiguration({ preset: resolvePreset('alias', presets), registry });
    expect(alias).not.toBe(base);
    expect(alias.preset).toBe('alias');
    expect(serializeHead(alias)).toBe(serializeHead(base));
  });

  it('filters with deny and allow, and records what was removed', () => {
    const preset = resolvePreset('coder', catalog());
    const denied = buildSystemConfiguration({ preset, registry, filter: { deny: ['send_message', 'not_a_tool'] } });
    expect(denied.tools.map((t) => t.name)).toEqual(['Agent', 'list_agents', 'cancel_agent', 'close_agent', 'read_file']);
    expect(denied.removedTools).toEqual(['send_message']);
    expect(hasTool(denied, 'send_message')).toBe(false);
    expect(buildSystemConfiguration({ preset, registry, filter: { deny: ['send_message'] } })).toBe(denied);

    const allowed = buildSystemConfiguration({ preset, registry, filter: { allow: ['read_file', 'Agent'], deny: ['Agent'] } });
    expect(allowed.tools.map((t) => t.name)).toEqual(['read_file']);
    expect(allowed.removedTools).toEqual(['Agent', 'send_message', 'list_agents', 'cancel_agent', 'close_agent']);
  });

  it('refuses unknown and duplicated tools', () => {
    const presets = {
      lost: { name: 'lost', systemPrompt: 'x', tools: ['Agent', 'teleport'] },
      twice: { name: 'twice', systemPrompt: 'x', tools: ['Agent', 'Agent'] },
    };
    expect(() => buildSystemConfiguration({ preset: resolvePreset('lost', presets), registry })).toThrow(PresetError);
    expect(() => buildSystemConfiguration({ preset: resolvePreset('lost', presets), registry })).toThrow('Preset lost uses the unknown tool teleport');
    expect(() => buildSystemConfiguration({ preset: resolvePreset('twice', presets), registry })).toThrow('Preset twice lists the tool Agent twice');
    expect(() =>
      buildSystemConfiguration({ preset: resolvePreset('lost', { lost: { name: 'lost', systemPrompt: 'x', tools: ['hasOwnProperty'] } }), registry: {} }),
    ).toThrow('unknown tool hasOwnProperty');
  });
});

describe('hasTool', () => {
  it('looks tools up by name', () => {
    const base = buildSystemConfiguration({ preset: resolvePreset('base', catalog()), registry });
    expect(hasTool(base, 'send_message')).toBe(true);
    expect(hasTool(base, 'read_file')).toBe(false);
  });
});

describe('tool guidance', () => {
  const presets = {
    base: {
      name: 'base',
      systemPrompt: 'You are careful.',
      tools: ['Agent', 'send_message', 'list_agents'],
      toolGuidance: { Agent: 'Delegate with Agent.', send_message: 'Message with send_message.' },
    },
    quiet: { name: 'quiet', extends: 'base', toolGuidance: { send_message: 'Reply with send_message.' } },
  };
  const registry = createToolRegistry();

  it('appends the guidance of each kept tool, in tool order', () => {
    const system = buildSystemConfiguration({ preset: resolvePreset('base', presets), registry });
    expect(system.systemPrompt).toBe('You are careful.\n\nDelegate with Agent.\nMessage with send_message.');
  });

  it('drops a tool’s guidance with the tool: no delegation guidance without Agent', () => {
    const system = buildSystemConfiguration({ preset: resolvePreset('base', presets), registry, filter: { deny: ['Agent'] } });
    expect(system.systemPrompt).toBe('You are careful.\n\nMessage with send_message.');
    const none = buildSystemConfiguration({ preset: resolvePreset('base', presets), registry, filter: { allow: ['list_agents'] } });
    expect(none.systemPrompt).toBe('You are careful.');
  });

  it('merges guidance key by key along extends, and equal inputs give the same head object', () => {
    const quiet = buildSystemConfiguration({ preset: resolvePreset('quiet', presets), registry });
    expect(quiet.systemPrompt).toBe('You are careful.\n\nDelegate with Agent.\nReply with send_message.');
    const again = buildSystemConfiguration({ preset: resolvePreset('base', presets), registry });
    expect(again).toBe(buildSystemConfiguration({ preset: resolvePreset('base', presets), registry }));
  });
});
