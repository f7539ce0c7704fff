/**
 * An agent keeps its latest model request while it works (a subagent spawned mid-turn has its
 * inherited prefix measured against it) and lets it go when it goes idle: a continuable agent
 * may wait for hours, and a spawn from an idle agent rebuilds the same request from its dialogue.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { RuntimeCore } from '../../src/runtime/core.js';
import { agentCoreBuilders } from '../../src/runtime/agent-logic.js';

describe("an agent's latest request", () => {
  it('is held while the agent waits for its reply and let go once the agent is idle', async () => {
    const clock = manualClock();
    const model = scriptedModel({ '/root': { 0: [{ text: 'done', latencyMs: 1_000 }] } }, { clock });
    const core = new RuntimeCore({ model }, agentCoreBuilders);
    core.startRoot();
    const root = core.registry.get('/root')!;
    expect(root.lastRequest).toBeUndefined();
    const turn = core.router.prompt('hello');
    await clock.whenPending(1);
    expect(core.directory.stateOf('/root')).toBe('running.working.sampling');
    expect(root.lastRequest?.messages.toArray().at(-1)).toMatchObject({ kind: 'user', text: 'hello' });
    clock.advance(1_000);
    await expect(turn).resolves.toMatchObject({ status: 'completed', text: 'done' });
    expect(core.directory.stateOf('/root')).toBe('running.idle');
    expect(root.lastRequest).toBeUndefined();
  });

  it('is still held while its tool calls run (a spawn then inherits against it)', async () => {
    const clock = manualClock();
    const model = scriptedModel(
      {
        '/root': { 0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'w', message: 'work' } }] }, { text: 'done' }] },
        '/root/w': { 0: [{ text: 'w done', latencyMs: 1_000 }] },
      },
      { clock },
    );
    const core = new RuntimeCore({ model }, agentCoreBuilders);
    core.startRoot();
    const root = core.registry.get('/root')!;
    const turn = core.router.prompt('hello');
    await clock.whenPending(1);
    expect(core.directory.stateOf('/root')).not.toBe('running.working.sampling');
    expect(root.lastRequest?.messages.toArray().at(-1)).toMatchObject({ kind: 'user', text: 'hello' });
    clock.advance(1_000);
    await expect(turn).resolves.toMatchObject({ status: 'completed', text: 'done' });
    expect(root.lastRequest).toBeUndefined();
  });
});
