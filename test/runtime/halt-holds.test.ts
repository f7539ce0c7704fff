/**
 * A halted session holds nothing for the promises it rejected (lifecycle.halt): no result
 * waiter, prompt waiter or busy entry is left once every one of them has rejected, counted.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { RuntimeCore } from '../../src/runtime/core.js';
import { agentCoreBuilders } from '../../src/runtime/agent-logic.js';
import { spawnSubagent } from '../../src/runtime/spawn.js';
import { StoreError } from '../../src/store/types.js';
import { memoryStore } from './memory-store.js';

describe('a halted session', () => {
  it('keeps no result waiter, prompt waiter or busy entry for what it rejected', async () => {
    const clock = manualClock();
    const store = memoryStore();
    const model = scriptedModel({ '/root/job': { 0: [{ text: 'never', latencyMs: 1_000 }] } }, { clock });
    const core = new RuntimeCore({ model, store }, agentCoreBuilders);
    core.startRoot();
    const job = await spawnSubagent(core, '/root', { task_name: 'job', message: 'do it' });
    const again = core.lifecycle.resultOf('/root/job');
    await clock.whenPending(1);
    expect(core.footprint()).toMatchObject({ resultWaiters: 1, busy: 1 });
    const failure = new StoreError('store_failed', 'disk gone');
    store.fail(failure);
    await expect(job.result).rejects.toBe(failure);
    await expect(again).rejects.toBe(failure);
    expect(core.footprint()).toMatchObject({ resultWaiters: 0, busy: 0, turnWaiters: 0 });
  });
});
