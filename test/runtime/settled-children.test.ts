/**
 * A subagent's completed result waits on its parent's record only until the parent's wording
 * of the report reads it: a long-lived parent holds none for the subagents it has heard from.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { RuntimeCore } from '../../src/runtime/core.js';
import { agentCoreBuilders } from '../../src/runtime/agent-logic.js';
import { runtimeOf } from '../../src/runtime/runtime.js';

describe("a parent's record of its settled subagents", () => {
  it.each(['caller', 'parent'] as const)('lets each completed result go once the parent has read it (%s delivery)', async (delivery) => {
    const model = scriptedModel({
      '/root': {
        0: [
          {
            toolCalls: [
              { id: 'c1', name: 'Agent', arguments: { task_name: 'one', message: 'look' } },
              { id: 'c2', name: 'Agent', arguments: { task_name: 'two', message: 'look too' } },
            ],
          },
          { text: 'waiting' },
          { text: 'heard one' },
          { text: 'heard two' },
        ],
      },
      '/root/*': (_request, { agentPath }) => ({ text: `answer of ${agentPath}` }),
    });
    const core = new RuntimeCore({ model, defaults: { delivery } }, agentCoreBuilders);
    core.startRoot();
    const rt = runtimeOf(core);
    void rt.prompt('go');
    await rt.whenQuiet();
    expect((await rt.result('/root/one')).text).toBe('answer of /root/one');
    expect((await rt.result('/root/two')).text).toBe('answer of /root/two');
    // Both reports were worded from the completed results (test/runtime/parent-view.test.ts checks the figures).
    expect([...(core.registry.get('/root')!.settledChildren?.keys() ?? [])]).toEqual([]);
  });
});
