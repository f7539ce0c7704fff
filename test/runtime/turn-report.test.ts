/**
 * A continuable subagent's turn report (lifecycle.turnEnded): the `turn` event carries its own
 * usage so far and its subtree's (its subagents' spending added by the runtime), and its spawn
 * handle's first report is that first turn (text and turn number).
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { TurnReport } from '../../machines/agent.types.js';

describe("a continuable subagent's turn", () => {
  it('reports its own usage and its subtree usage, and is the first report of its handle', async () => {
    const model = scriptedModel({
      '/root/lead': {
        0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'helper', message: 'help' } }], usage: { inputTokens: 10, outputTokens: 1 } }, { text: 'led', usage: { inputTokens: 20, outputTokens: 2 } }],
        1: [{ text: 'again', usage: { inputTokens: 30, outputTokens: 3 } }],
      },
      '/root/lead/helper': { 0: [{ text: 'helped', usage: { inputTokens: 100, outputTokens: 50 } }] },
    });
    const rt = createRuntime({ model });
    const turns: TurnReport[] = [];
    rt.on('turn', (report) => {
      if (report.path === '/root/lead') turns.push(report);
    });
    const lead = await rt.spawn('/root', { task_name: 'lead', message: 'lead it' }, { lifetime: 'continuable' });
    await expect(lead.firstReport).resolves.toEqual({ kind: 'turn', text: 'led', turn: 0 });
    await rt.whenQuiet();
    await rt.prompt('once more', { to: '/root/lead' });
    expect(turns.map((t) => [t.turn, t.text, t.usage.inputTokens, t.usage.outputTokens, t.subtreeUsage.inputTokens, t.subtreeUsage.outputTokens])).toEqual([
      [0, 'led', 30, 3, 130, 53],
      [1, 'again', 60, 6, 160, 56],
    ]);
  });
});
