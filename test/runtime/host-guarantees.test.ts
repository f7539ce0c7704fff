/**
 * Guarantees every host of the delegation protocol keeps, checked here on `createRuntime`
 * (test/machines/delegation.guarantees.test.ts checks `delegatingAgent`): forks are continuable
 * under any preset, the shipped one or a host's own such as the Pi extension's `pi` preset,
 * and one-shot only when something asked for it.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { BUILTIN_TOOL_NAMES } from '../../src/request/tool-names.js';

/** A preset of the host's own that says nothing about lifetimes (the Pi extension's is one). */
const hostPreset = { pi: { name: 'pi', systemPrompt: 'You are Pi.', tools: [...BUILTIN_TOOL_NAMES] } };

describe('createRuntime keeps the hosts’ guarantees', () => {
  it('starts forks continuable under a host preset that names no fork lifetime, and other subagents one-shot', async () => {
    const model = scriptedModel({ '/root/fork': { 0: [{ text: 'fork answer' }] }, '/root/fresh': { 0: [{ text: 'fresh answer' }] } });
    const rt = createRuntime({ model, presets: hostPreset, preset: 'pi' });
    const fork = await rt.spawn('/root', { task_name: 'fork', message: 'Look closer', context: 'all' });
    const turns = await rt.spawn('/root', { task_name: 'turns', message: 'Look at the last turn', context: 1 });
    const fresh = await rt.spawn('/root', { task_name: 'fresh', message: 'Start over' });
    expect([fork.lifetime, turns.lifetime, fresh.lifetime]).toEqual(['continuable', 'continuable', 'one-shot']);
    expect(await fork.firstReport).toEqual({ kind: 'turn', text: 'fork answer', turn: 0 });
    expect(rt.stateOf('/root/fork')).toBe('running.idle');
    expect(await fresh.result).toMatchObject({ status: 'completed', text: 'fresh answer' });
    rt.stop();
  });

  it('starts forks one-shot under a host preset when the host asks for it (defaults.lifetime)', async () => {
    const model = scriptedModel({ '/root/fork': { 0: [{ text: 'fork answer' }] } });
    const rt = createRuntime({ model, presets: hostPreset, preset: 'pi', defaults: { lifetime: 'one-shot' } });
    const fork = await rt.spawn('/root', { task_name: 'fork', message: 'Look closer', context: 'all' });
    expect(fork.lifetime).toBe('one-shot');
    expect(await fork.result).toMatchObject({ status: 'completed', text: 'fork answer' });
    rt.stop();
  });
});
