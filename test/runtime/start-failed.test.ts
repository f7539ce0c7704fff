/**
 * A spawn that fails after its reservation, while its actor starts (lifecycle.abandon), holds
 * nothing afterwards: no listed agent or slot, no tombstone (nothing ran, so nothing ended), no
 * result event, nothing busy, and the name is free again.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { AgentResult } from '../../src/runtime/types.js';

/**
 * A role whose `maxSteps` throws when the spawn reads it, after the path and slot are held
 * (a host's request is copied when it is checked, so its own fields cannot do this any more).
 */
function treacherousRole(): { name: string; description: string; readonly maxSteps: number } {
  return {
    name: 'r',
    description: 'a role whose settings fail to read',
    get maxSteps(): number {
      throw new Error('gone');
    },
  };
}

describe('a spawn whose actor fails to start', () => {
  it('is undone: start_failed, nothing held, no result, the name free', async () => {
    const rt = createRuntime({ model: scriptedModel({ '/root/x': { 0: [{ text: 'ok' }] } }), roles: [treacherousRole()] });
    const results: AgentResult[] = [];
    rt.on('result', (r) => results.push(r));
    await expect(rt.spawn('/root', { task_name: 'x', message: 'y', role: 'r' })).rejects.toMatchObject({ code: 'start_failed', message: expect.stringMatching(/\/root\/x could not be started: .*gone/) });
    expect(rt.slotsInUse).toBe(0);
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
    await expect(rt.result('/root/x')).rejects.toMatchObject({ code: 'unknown_agent', message: 'no agent at /root/x' });
    await rt.whenQuiet();
    expect(results).toEqual([]);
    const again = await rt.spawn('/root', { task_name: 'x', message: 'y' });
    await expect(again.result).resolves.toMatchObject({ path: '/root/x', status: 'completed', text: 'ok' });
  });
});
