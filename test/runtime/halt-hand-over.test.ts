/**
 * A halted session hands nothing over to the host of a host-run root: its subagents, stopped
 * where they are, report to no one (lifecycle.reportForCrashed and the tree's hand-over return
 * first once the store failed), though each one still leaves with a `cancelled` change.
 */
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/index.js';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/testing/index.js';
import { StoreError } from '../../src/store/types.js';
import { memoryStore } from './memory-store.js';
import { collectingHostRoot } from './helpers.js';

describe("a halted session's host-run root", () => {
  it('is handed no report of the subagents the halt stopped', async () => {
    const clock = manualClock();
    const store = memoryStore();
    const { hostRoot, delivered } = collectingHostRoot();
    const model = scriptedModel({ '/root/bg': { 0: [{ text: 'never', latencyMs: 1_000 }] } }, { clock });
    const rt = createRuntime({ model, store, hostRoot });
    const handle = await rt.spawn('/root', { task_name: 'bg', message: 'work' }, { delivery: 'parent' });
    await clock.whenPending(1);
    const changes: string[] = [];
    rt.on('change', (change) => changes.push(`${change.path} ${change.state}`));
    const failure = new StoreError('store_failed', 'disk gone');
    store.fail(failure);
    await expect(handle.result).rejects.toBe(failure);
    await rt.whenQuiet();
    expect(delivered).toEqual([]);
    expect(changes).toContain('/root/bg cancelled');
  });
});
