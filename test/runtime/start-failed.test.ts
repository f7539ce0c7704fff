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
 * An attachment whose first `goodReads` reads answer and whose next one throws `message`: one
 * good read is the check (it throws when the spawn freezes the input, after the reservation),
 * two also cover the freeze (it throws in the subagent's first step, as its actor is created).
 */
function treacherousAttachment(goodReads = 1, message = 'gone'): { name: string; readonly content: string } {
  let reads = 0;
  return {
    name: 'f',
    get content(): string {
      if (reads++ >= goodReads) throw new Error(message);
      return 'text';
    },
  };
}

describe('a spawn whose actor fails to start', () => {
  it('is undone: start_failed, nothing held, no result, the name free', async () => {
    const rt = createRuntime({ model: scriptedModel({ '/root/x': { 0: [{ text: 'ok' }] } }) });
    const results: AgentResult[] = [];
    rt.on('result', (r) => results.push(r));
    await expect(rt.spawn('/root', { task_name: 'x', message: 'y', attachments: [treacherousAttachment()] })).rejects.toMatchObject({ code: 'start_failed', message: expect.stringMatching(/\/root\/x could not be started: .*gone/) });
    expect(rt.slotsInUse).toBe(0);
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
    await expect(rt.result('/root/x')).rejects.toMatchObject({ code: 'unknown_agent', message: 'no agent at /root/x' });
    await rt.whenQuiet();
    expect(results).toEqual([]);
    const again = await rt.spawn('/root', { task_name: 'x', message: 'y' });
    await expect(again.result).resolves.toMatchObject({ path: '/root/x', status: 'completed', text: 'ok' });
  });
});

describe("a spawn whose actor fails in its first step (while it is created)", () => {
  it.each([
    ['as the first subagent', false],
    ['beside a live subagent', true],
  ])('%s: start_failed, nothing held, the name free', async (_, withSibling) => {
    const rt = createRuntime({ model: scriptedModel({ '/root/x': { 0: [{ text: 'ok' }] } }) });
    if (withSibling) await rt.spawn('/root', { task_name: 'sibling', message: 'wait' }, { lifetime: 'continuable' });
    const results: AgentResult[] = [];
    rt.on('result', (r) => results.push(r));
    await expect(rt.spawn('/root', { task_name: 'x', message: 'y', attachments: [treacherousAttachment(2, 'gone late')] })).rejects.toMatchObject({ code: 'start_failed', message: expect.stringMatching(/\/root\/x could not be started: .*gone late/) });
    await rt.whenQuiet();
    expect(rt.list().map((a) => a.path)).toEqual(withSibling ? ['/root', '/root/sibling'] : ['/root']);
    expect(rt.slotsInUse).toBe(withSibling ? 1 : 0);
    expect(results).toEqual([]);
    const again = await rt.spawn('/root', { task_name: 'x', message: 'y' });
    await expect(again.result).resolves.toMatchObject({ path: '/root/x', status: 'completed', text: 'ok' });
  });
});
