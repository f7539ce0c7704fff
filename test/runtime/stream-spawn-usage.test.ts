/**
 * What the event stream says of a subagent (lifecycle.watch): one `subagent-spawned` naming its
 * parent, role, context, delivery, lifetime and task; then one `usage-updated` per reply it is
 * paid for (none for the zero usage it starts with), each with its own, its subtree's and the
 * session's totals at that moment.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { RuntimeStreamEvent } from '../../src/runtime/stream-events.js';

async function collect(events: AsyncIterable<RuntimeStreamEvent>): Promise<RuntimeStreamEvent[]> {
  const out: RuntimeStreamEvent[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('the event stream of a subagent', () => {
  it('says it was spawned, with what, once; then its usage after each paid reply', async () => {
    const model = scriptedModel({
      '/root/w': {
        0: [
          { toolCalls: [{ name: 'list_agents', arguments: {} }], usage: { inputTokens: 10, outputTokens: 1 } },
          { text: 'done', usage: { inputTokens: 20, outputTokens: 2 } },
        ],
      },
    });
    const rt = createRuntime({ model, roles: [{ name: 'worker', description: 'Works.' }] });
    const reading = collect(rt.events({ path: '/root/w' }));
    const handle = await rt.spawn('/root', { task_name: 'w', message: 'work on it', role: 'worker' });
    await handle.result;
    const events = await reading; // ends once the subagent settled
    expect(events.filter((e) => e.type === 'subagent-spawned')).toEqual([
      { type: 'subagent-spawned', path: '/root/w', parentPath: '/root', role: 'worker', context: 'none', delivery: 'caller', lifetime: 'one-shot', task: 'work on it' },
    ]);
    const usage = events.flatMap((e) => (e.type === 'usage-updated' ? [[e.usage.inputTokens, e.subtreeUsage.inputTokens, e.sessionUsage.inputTokens]] : []));
    expect(usage).toEqual([
      [10, 10, 10],
      [30, 30, 30],
    ]);
  });
});
