/**
 * A cancellation while a spawn under it holds its reservation, before the subagent's actor
 * exists (here from a host-run root's `dialogue()`, host code that runs in that window), stops
 * the agents that run and names only them; the spawn then fails with start_failed, its parent
 * no longer running, and holds nothing.
 */
import { describe, expect, it } from 'vitest';
import { createRuntime, type CancelReport } from '../../src/index.js';
import { Dialogue, userEntry } from '../../src/dialogue/index.js';
import { scriptedModel } from '../../src/testing/index.js';

describe('a cancellation while a spawn under it is reserved', () => {
  it('stops and names the running agents only; the spawn fails with start_failed', async () => {
    const dialogue = Dialogue.of([userEntry({ text: 'why is it slow', origin: { kind: 'person' }, opensTurn: true })]);
    const reports: CancelReport[] = [];
    const model = scriptedModel({ '/root/probe': { 0: [{ text: 'never' }] } });
    const rt = createRuntime({
      model,
      hostRoot: {
        dialogue: () => {
          reports.push(rt.cancel('/root', 'host stopped'));
          return dialogue;
        },
        deliver: () => undefined,
      },
    });
    await expect(rt.spawn('/root', { task_name: 'probe', message: 'measure it' })).rejects.toMatchObject({ code: 'start_failed', message: expect.stringContaining('no longer running') });
    expect(reports).toEqual([{ stopped: [{ path: '/root', state: 'running.idle' }] }]);
    expect(rt.list()).toEqual([]);
    expect(rt.slotsInUse).toBe(0);
    expect(model.calls).toEqual([]);
  });
});
