/**
 * Asking about a path the runtime does not hold (the directory): a host tool call for it is
 * answered as an error result naming the path, its state and transcript are undefined, and a
 * live agent cannot be released.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';

describe('a path the runtime does not hold', () => {
  it('gets an unknown_agent tool result, no state, no transcript; a live agent is not released', async () => {
    const rt = createRuntime({ model: scriptedModel({}) });
    await expect(rt.callTool('/root/nobody', { id: 'c1', name: 'list_agents', arguments: {} })).resolves.toEqual({ content: 'Error (unknown_agent): no live agent at /root/nobody', isError: true });
    expect(rt.stateOf('/root/nobody')).toBeUndefined();
    expect(rt.transcript('/root/nobody')).toBeUndefined();
    expect(rt.stateOf('/root')).toBe('running.idle');
    expect(() => rt.release('/root')).toThrow(expect.objectContaining({ code: 'invalid_arguments', message: 'agent /root is still live; cancel or close it before releasing it' }));
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
  });
});
