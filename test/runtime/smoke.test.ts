import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../src/runtime/runtime.js';
import { scriptedModel } from '../../src/model/scripted.js';

describe('runtime smoke', () => {
  it('root delegates to a subagent and gets its result back through the tool call', async () => {
    const model = scriptedModel({
      '/root': {
        0: [
          { toolCalls: [{ name: 'Agent', arguments: { task_name: 'research', message: 'find the answer' } }] },
          (req) => ({ text: `done: ${String(req.messages.at(req.messages.length - 1)?.kind)}` }),
        ],
      },
      '/root/research': { 0: [{ text: '42' }] },
    });
    const rt = createRuntime({ model });
    rt.prompt('what is the answer?');
    await rt.whenQuiet();
    expect(rt.results.map((r) => [r.path, r.status, r.text])).toEqual([['/root/research', 'completed', '42']]);
    const root = rt.transcript('/root');
    const kinds = root?.log.toArray().map((e) => e.kind);
    expect(kinds).toEqual(['user', 'assistant', 'tool_result', 'assistant']);
    const toolResult = root?.at(2);
    expect(toolResult?.kind === 'tool_result' && JSON.parse(toolResult.content).result).toBe('42');
    expect(rt.slotsInUse).toBe(0);
    expect(rt.stateOf('/root')).toBe('running.idle');
  });
});
