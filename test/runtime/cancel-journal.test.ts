/**
 * A cancellation is journaled before the first agent stops (lifecycle.cancel): its record names
 * the subtree's top, the reason, what it stopped (children first, with their states) and the
 * `cancel_agent` call that asked for it; a resume from a journal cut right after that record
 * finishes the cascade with the same reason. A cancellation that stops nothing writes nothing.
 */
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { resumeRuntime } from '../../src/runtime/resume.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { JournalRecord } from '../../src/store/types.js';
import { memoryStore } from './memory-store.js';

const script = { '/root/job': { 0: [{ text: 'never', latencyMs: 1_000 }] }, '/root/job/deep': { 0: [{ text: 'never', latencyMs: 1_000 }] } };

const cancels = (records: readonly JournalRecord[]): JournalRecord[] => records.filter((r) => r.type === 'cancel');

describe('a cancellation in the journal', () => {
  it('is written before anything stops, and a resume from just after it finishes the cascade with its reason', async () => {
    const clock = manualClock();
    const store = memoryStore();
    const rt = createRuntime({ model: scriptedModel(script, { clock }), store });
    const job = await rt.spawn('/root', { task_name: 'job', message: 'do' });
    await rt.spawn('/root/job', { task_name: 'deep', message: 'deeper' });
    await clock.whenPending(2);
    const stopped = [
      { path: '/root/job/deep', state: 'running.working.sampling' },
      { path: '/root/job', state: 'running.working.sampling' },
    ];
    expect(rt.cancel('/root/job', 'no longer needed')).toEqual({ stopped });
    await expect(job.result).resolves.toMatchObject({ status: 'cancelled', error: 'no longer needed' });
    const at = store.records.findIndex((r) => r.type === 'cancel');
    expect(store.records[at]).toEqual({ type: 'cancel', path: '/root/job', reason: 'no longer needed', stopped });
    // Nothing settled before the cancellation was journaled.
    expect(store.records.slice(0, at).filter((r) => r.type === 'result')).toEqual([]);

    // The process dies right after the record: the resumed session finishes what it started.
    const resumed = resumeRuntime({ model: scriptedModel(script, { clock: manualClock() }), store: memoryStore(store.records.slice(0, at + 1)) });
    await resumed.whenQuiet();
    expect(resumed.results.map((r) => [r.path, r.status, r.error])).toEqual([
      ['/root/job/deep', 'cancelled', 'no longer needed'],
      ['/root/job', 'cancelled', 'no longer needed'],
    ]);
    expect(resumed.list().map((a) => a.path)).toEqual(['/root']);

    // Cancelling what already settled stops nothing and writes nothing.
    const before = store.records.length;
    expect(rt.cancel('/root/job', 'again')).toEqual({ stopped: [] });
    expect(cancels(store.records.slice(before))).toEqual([]);
  });

  it('without a reason the record has none; a cancel_agent call is named in it', async () => {
    const clock = manualClock();
    const store = memoryStore();
    const model = scriptedModel({ ...script, '/root': { 0: [{ toolCalls: [{ name: 'cancel_agent', arguments: { agent_id: '/root/job' } }] }, { text: 'cancelled it' }] } }, { clock });
    const rt = createRuntime({ model, store });
    await rt.spawn('/root', { task_name: 'job', message: 'do' });
    await clock.whenPending(1);
    await expect(rt.prompt('stop the job')).resolves.toMatchObject({ text: 'cancelled it' });
    const callId = rt.transcript('/root')!.log.toArray().flatMap((e) => (e.kind === 'assistant' ? e.toolCalls.map((c) => c.id) : []))[0];
    expect(callId).toEqual(expect.any(String));
    const [record] = cancels(store.records);
    expect(record).toMatchObject({ type: 'cancel', path: '/root/job', call: { by: '/root', callId } });

    await rt.spawn('/root', { task_name: 'other', message: 'do' });
    rt.cancel('/root/other');
    expect(cancels(store.records)[1]).toEqual({ type: 'cancel', path: '/root/other', stopped: [{ path: '/root/other', state: expect.any(String) }] });
  });
});
