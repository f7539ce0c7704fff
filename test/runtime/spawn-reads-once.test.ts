/**
 * A host's spawn request is read once, when it is checked: an attachment whose content getter
 * answers only the first read (or a different text later) cannot fail the subagent's first
 * step after its path and slot were held, which left it listed as reserved, its slot taken
 * and its result never coming.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';

describe('a spawn request', () => {
  it('is read once: an attachment that throws on a later read still gives the checked text, and the subagent settles', async () => {
    let reads = 0;
    const attachment = {
      name: 'notes.md',
      get content(): string {
        reads++;
        if (reads > 1) throw new Error('read twice');
        return 'the notes';
      },
    };
    const model = scriptedModel({ '/root/reader': { 0: [{ text: 'read it' }] } });
    const rt = createRuntime({ model });
    const handle = await rt.spawn('/root', { task_name: 'reader', message: 'read the notes', attachments: [attachment] });
    const result = await handle.result;
    expect(result).toMatchObject({ status: 'completed', text: 'read it' });
    expect(reads).toBe(1);
    // The subagent saw the text that was checked.
    const task = [...model.calls.find((c) => c.agentPath === '/root/reader')!.request.messages].find((m) => m.kind === 'user');
    expect(task && 'text' in task ? task.text : '').toContain('the notes');
    await rt.whenQuiet();
    expect(rt.slotsInUse).toBe(0);
    expect(rt.list().map((a) => a.path)).toEqual(['/root']);
  });
});
