/**
 * `change` events (lifecycle.watch): one per state an agent enters, never the same state twice
 * in a row however often its context changes; a one-shot subagent ends with `settled`, a
 * continuable one goes back to `running.idle` after each turn.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';

describe('change events', () => {
  it('name each state an agent enters, once per entry', async () => {
    const model = scriptedModel({
      '/root/job': { 0: [{ toolCalls: [{ name: 'list_agents', arguments: {} }] }, { text: 'done' }] },
      '/root/rev': { 0: [{ text: 'a' }], 1: [{ text: 'b' }] },
    });
    const rt = createRuntime({ model });
    const changes: string[] = [];
    rt.on('change', (change) => changes.push(`${change.path} ${change.state}`));
    await (await rt.spawn('/root', { task_name: 'job', message: 'j' })).result;
    const rev = await rt.spawn('/root', { task_name: 'rev', message: 'r' }, { lifetime: 'continuable' });
    await rev.firstReport;
    await rt.prompt('again', { to: '/root/rev' });
    await rt.whenQuiet();
    expect(changes).toEqual([
      '/root/job running.working.sampling',
      '/root/job running.working.acting',
      '/root/job running.working.sampling',
      '/root/job settled',
      '/root/rev running.working.sampling',
      '/root/rev running.idle',
      '/root/rev running.working.sampling',
      '/root/rev running.idle',
    ]);
  });
});
