import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import { serializeRequest } from '../../src/request/serialize.js';
import type { Script } from '../../src/model/script.js';
import type { RuntimeOptions } from '../../src/runtime/types.js';

/** The content of the tool result the parent's next request carries for `callId`. */
function toolResultSeen(model: ReturnType<typeof scriptedModel>, path: string, callId: string): string {
  for (const call of model.calls) {
    if (call.agentPath !== path) continue;
    for (const entry of call.request.messages) if (entry.kind === 'tool_result' && entry.callId === callId) return entry.content;
  }
  throw new Error(`no tool result ${callId} in a request of ${path}`);
}

const oneSpawn: Script = {
  '/root': {
    0: [
      { toolCalls: [{ id: 'c1', name: 'Agent', arguments: { task_name: 'research', message: 'look', role: 'r' } }] },
      { text: 'done' },
    ],
  },
  '/root/research': { 0: [{ text: 'found it', usage: { inputTokens: 12, outputTokens: 3 } }] },
};

async function run(options: Partial<RuntimeOptions> = {}, script: Script = oneSpawn) {
  const model = scriptedModel(script);
  const rt = createRuntime({ model, ...options });
  rt.prompt('go');
  await rt.whenQuiet();
  return { rt, model };
}

describe('what the parent model sees', () => {
  it('by default: the answer, the agent id, the status and the stop reason, nothing volatile', async () => {
    const { model } = await run();
    const seen = JSON.parse(toolResultSeen(model, '/root', 'c1')) as Record<string, unknown>;
    expect(seen).toEqual({ agent_id: '/root/research', status: 'completed', stop_reason: 'completed', result: 'found it' });
  });

  it('adds the error when a subagent failed, since it changes what the parent does next', async () => {
    const { model } = await run({}, { ...oneSpawn, '/root/research': { 0: [{ fail: 'provider down' }] } });
    const seen = JSON.parse(toolResultSeen(model, '/root', 'c1')) as Record<string, unknown>;
    expect(seen).toMatchObject({ status: 'failed', stop_reason: 'model_error' });
    expect(String(seen['error'])).toContain('provider down');
  });

  it('shows the fields the host chooses, or what its function builds; the host still gets everything', async () => {
    const listed = await run({ resultMetadata: ['agent_id', 'turns', 'usage', 'role'] });
    expect(JSON.parse(toolResultSeen(listed.model, '/root', 'c1'))).toEqual({
      agent_id: '/root/research',
      turns: 1,
      role: 'r',
      usage: { input_tokens: 12, output_tokens: 3, cache_read_tokens: 0, cache_write_tokens: 0, requests: 1, retries: 0 },
      result: 'found it',
    });
    const built = await run({ resultMetadata: (r) => ({ who: r.path.split('/').at(-1) ?? '' }) });
    expect(JSON.parse(toolResultSeen(built.model, '/root', 'c1'))).toEqual({ who: 'research', result: 'found it' });
    const full = await built.rt.result('/root/research');
    expect(full).toMatchObject({ role: 'r', context: 'none', turns: 1, status: 'completed' });
    expect(full.elapsedMs).toBeGreaterThanOrEqual(0);
  });

  it('the settlement notice of parent delivery carries the same compact metadata', async () => {
    const script: Script = {
      '/root': { 0: [{ toolCalls: [{ id: 'c1', name: 'Agent', arguments: { task_name: 'bg', message: 'work' } }] }, { text: 'waiting' }], 1: [{ text: 'got it' }] },
      '/root/bg': { 0: [{ text: 'background result' }] },
    };
    const { model } = await run({ defaults: { delivery: 'parent' } }, script);
    const notice = model.calls
      .filter((c) => c.agentPath === '/root')
      .flatMap((c) => c.request.messages.toArray())
      .find((e) => e.kind === 'user' && e.origin.kind === 'notice');
    expect(notice?.kind === 'user' && notice.text).toBe(
      '<subagent_result>\n{"agent_id":"/root/bg","result":"background result","status":"completed","stop_reason":"completed"}\n</subagent_result>',
    );
  });

  it('rejects an unknown metadata field with a TypeError naming it', () => {
    const model = scriptedModel({});
    expect(() => createRuntime({ model, resultMetadata: ['agent_id', 'elapsed' as 'elapsed_ms'] })).toThrow(/unknown field "elapsed"/);
  });

  it('two identical sessions send byte-identical requests, whatever their ids and clocks', async () => {
    const script: Script = {
      '/root': {
        0: [
          {
            toolCalls: [
              { name: 'Agent', arguments: { task_name: 'a', message: 'first', context: 'all' } },
              { name: 'Agent', arguments: { task_name: 'b', message: 'second' } },
              { name: 'Agent', arguments: { task_name: 'c', message: 'third', context: 'summary' } },
            ],
          },
          { text: 'all three answered' },
        ],
      },
      '/root/a': { 0: [{ text: 'a says hi', usage: { inputTokens: 9, outputTokens: 2 } }] },
      '/root/b': { 0: [{ fail: 'b broke' }] },
      '/root/c': { 0: [{ text: 'c done' }], summary: 'background for c' },
    };
    const session = async (clockStep: number) => {
      let t = 1_000 * clockStep;
      const { rt, model } = await run({ now: () => (t += clockStep) }, script);
      return { bytes: model.calls.map((c) => `${c.agentPath} ${c.turn}.${c.step}\n${serializeRequest(c.request)}`), rt };
    };
    const first = await session(7);
    const second = await session(13);
    expect(first.rt.sessionId).not.toBe(second.rt.sessionId);
    expect(first.bytes.length).toBe(5);
    expect(second.bytes).toEqual(first.bytes);
  });
});

describe('session ids', () => {
  it('every agent has its own; the runtime id is the tree id every result carries', async () => {
    const { rt } = await run({ sessionId: 'tree-1' });
    const sub = await rt.result('/root/research');
    expect(rt.treeId).toBe('tree-1');
    expect(sub.treeId).toBe('tree-1');
    expect(sub.sessionId).not.toBe('tree-1');
    const rootId = rt.sessionIdOf('/root');
    expect(rootId).toBeDefined();
    expect(rootId).not.toBe(sub.sessionId);
    expect(rt.sessionIdOf('/root/research')).toBe(sub.sessionId);
    expect(rt.sessionIdOf('/root/nobody')).toBeUndefined();
  });
});
