/**
 * What a spawn that fails after its reservation gives back (lifecycle.abandon), counted: the
 * budget carved for it returns to its parent, and no result waiter, usage account, busy entry
 * or actor held by its parent is left, whether it failed before its actor existed or while the
 * actor was created.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { RuntimeCore } from '../../src/runtime/core.js';
import { agentCoreBuilders } from '../../src/runtime/agent-logic.js';
import { spawnSubagent } from '../../src/runtime/spawn.js';
import { subagentsOf } from '../../machines/subagents.js';

/** An attachment whose first `goodReads` reads answer: 1 fails the spawn before its actor exists, 2 while the actor is created. */
function treacherousAttachment(goodReads: number): { name: string; readonly content: string } {
  let reads = 0;
  return {
    name: 'f',
    get content(): string {
      if (reads++ >= goodReads) throw new Error('gone');
      return 'text';
    },
  };
}

describe.each([
  ['before its actor exists', 1],
  ['while its actor is created', 2],
])('a spawn that fails %s', (_, goodReads) => {
  it("gives its carved budget back to its parent", async () => {
    const rt = createRuntime({ model: scriptedModel({}), budget: { tokens: 100_000 } });
    expect(rt.budgetOf('/root')).toEqual({ tokens: 100_000 });
    await expect(rt.spawn('/root', { task_name: 'x', message: 'y', attachments: [treacherousAttachment(goodReads)] }, { budget: { tokens: 40_000 } })).rejects.toMatchObject({ code: 'start_failed' });
    expect(rt.budgetOf('/root')).toEqual({ tokens: 100_000 });
  });

  it('leaves no result waiter, account, busy entry, held actor or actor id behind', async () => {
    const core = new RuntimeCore({ model: scriptedModel({ '/root/**': { 0: [{ text: 'ok' }] } }) }, agentCoreBuilders);
    core.startRoot();
    for (let i = 0; i < 3; i++) {
      await expect(spawnSubagent(core, '/root', { task_name: `f${i}`, message: 'work', attachments: [treacherousAttachment(goodReads)] })).rejects.toMatchObject({ code: 'start_failed' });
    }
    await core.lifecycle.whenQuiet();
    expect(core.footprint()).toMatchObject({ records: 1, accounts: 1, resultWaiters: 0, busy: 0 });
    // Its parent holds no actor for it (one created in error is let go of).
    expect(subagentsOf(core.registry.get('/root')!.actor!)).toEqual([]);
    const handle = await spawnSubagent(core, '/root', { task_name: 'ok', message: 'work' });
    await handle.result;
    expect(core.footprint()).toMatchObject({ records: 1, accounts: 1, resultWaiters: 0, busy: 0, childActorIds: 1 });
  });
});
