import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { manualClock } from '../../src/model/clock.js';
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
  it('by default: the answer, agent id, role, context, elapsed time, ending and own session id', async () => {
    // A clock that moves 2.5 ms each time it is read: elapsed_ms is its figure, rounded.
    let t = 100;
    const { model, rt } = await run({ now: () => (t += 2.5) });
    const seen = JSON.parse(toolResultSeen(model, '/root', 'c1')) as Record<string, unknown>;
    const full = await rt.result('/root/research');
    expect(seen).toEqual({
      agent_id: '/root/research',
      role: 'r',
      context: 'none',
      elapsed_ms: Math.round(full.elapsedMs),
      status: 'completed',
      stop_reason: 'completed',
      session_id: full.sessionId,
      result: 'found it',
    });
    expect(Number.isInteger(seen['elapsed_ms'])).toBe(true);
    expect(seen['elapsed_ms']).toBeGreaterThan(0);
    expect(seen['session_id']).toBe(rt.sessionIdOf('/root/research'));
  });

  it('leaves the role out when the subagent has none', async () => {
    const script: Script = { ...oneSpawn, '/root': { 0: [{ toolCalls: [{ id: 'c1', name: 'Agent', arguments: { task_name: 'research', message: 'look' } }] }, { text: 'done' }] } };
    const { model } = await run({}, script);
    expect(Object.keys(JSON.parse(toolResultSeen(model, '/root', 'c1')) as object).sort()).toEqual(['agent_id', 'context', 'elapsed_ms', 'result', 'session_id', 'status', 'stop_reason']);
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

  it('the receipt and the settlement notice of parent delivery carry the same metadata', async () => {
    const script: Script = {
      '/root': { 0: [{ toolCalls: [{ id: 'c1', name: 'Agent', arguments: { task_name: 'bg', message: 'work', role: 'r' } }] }, { text: 'waiting' }], 1: [{ text: 'got it' }] },
      '/root/bg': { 0: [{ text: 'background result' }] },
    };
    let t = 0;
    const { model, rt } = await run({ defaults: { delivery: 'parent' }, now: () => (t += 4) }, script);
    const full = await rt.result('/root/bg');
    const notice = model.calls
      .filter((c) => c.agentPath === '/root')
      .flatMap((c) => c.request.messages.toArray())
      .find((e) => e.kind === 'user' && e.origin.kind === 'notice');
    expect(notice?.kind === 'user' && notice.text).toBe(
      `<subagent_result>\n{"agent_id":"/root/bg","context":"none","elapsed_ms":${full.elapsedMs},"result":"background result","role":"r","session_id":"${full.sessionId}","status":"completed","stop_reason":"completed"}\n</subagent_result>`,
    );
    // The receipt shows the chosen fields known at the start.
    expect(JSON.parse(toolResultSeen(model, '/root', 'c1'))).toEqual({
      agent_id: '/root/bg',
      role: 'r',
      context: 'none',
      session_id: full.sessionId,
      status: 'started',
      lifetime: 'one-shot',
      note: 'The result will arrive later as a message from the runtime; you can continue meanwhile.',
    });
    // A narrower choice narrows the receipt too.
    const narrow = await run({ defaults: { delivery: 'parent' }, resultMetadata: ['agent_id', 'status'] }, script);
    expect(Object.keys(JSON.parse(toolResultSeen(narrow.model, '/root', 'c1')) as object).sort()).toEqual(['agent_id', 'lifetime', 'note', 'status']);
  });

  it('rejects an unknown metadata field with a TypeError naming it', () => {
    const model = scriptedModel({});
    expect(() => createRuntime({ model, resultMetadata: ['agent_id', 'elapsed' as 'elapsed_ms'] })).toThrow(/unknown field "elapsed"/);
  });

  it('two identical sessions on a manual clock send byte-identical requests, elapsed times and session ids included', async () => {
    const script: Script = {
      // One subagent at a time: every request starts at the same time of the clock in both runs.
      '/root': {
        0: [
          { toolCalls: [{ name: 'Agent', arguments: { task_name: 'a', message: 'first', context: 'all' } }] },
          { toolCalls: [{ name: 'Agent', arguments: { task_name: 'b', message: 'second' } }] },
          { toolCalls: [{ name: 'Agent', arguments: { task_name: 'c', message: 'third', context: 'summary' } }] },
          { text: 'all three answered' },
        ],
      },
      '/root/a': { 0: [{ text: 'a says hi', usage: { inputTokens: 9, outputTokens: 2 } }] },
      '/root/b': { 0: [{ fail: 'b broke' }] },
      '/root/c': { 0: [{ text: 'c done' }], summary: 'background for c' },
    };
    const session = async (sessionId: string) => {
      // A manual clock that the scripted models' latency moves (each reply takes 5 ms).
      const clock = manualClock();
      const latency = {
        sleep: (ms: number, signal: AbortSignal) => {
          const slept = clock.sleep(ms, signal);
          clock.advance(ms);
          return slept;
        },
      };
      const model = scriptedModel(script, { latencyMs: 5, clock: latency });
      const rt = createRuntime({ model, sessionId, clock, now: () => clock.now });
      rt.prompt('go');
      await rt.whenQuiet();
      return { bytes: model.calls.map((c) => `${c.agentPath} ${c.turn}.${c.step}\n${serializeRequest(c.request)}`), rt };
    };
    const first = await session('tree-1');
    const second = await session('tree-1');
    expect(first.bytes.length).toBe(7);
    expect(second.bytes).toEqual(first.bytes);
    // What made them equal is not an absence: the metadata is there.
    const last = first.bytes.at(-1) ?? '';
    expect(last).toContain(`session_id\\":\\"${first.rt.sessionIdOf('/root/c') ?? 'none'}`);
    expect(last).toMatch(/elapsed_ms\\":[1-9]\d*/);
    // Another tree gives its agents other ids.
    const other = await session('tree-2');
    expect(other.rt.sessionIdOf('/root/c')).not.toBe(first.rt.sessionIdOf('/root/c'));
  });
});

describe('session ids', () => {
  it('every agent has its own; the runtime id is the tree id every result carries', async () => {
    const { rt } = await run({ sessionId: 'tree-1' });
    const sub = await rt.result('/root/research');
    expect(rt.sessionId).toBe('tree-1');
    expect('treeId' in rt).toBe(false); // one name for the tree's id on the handle (#23)
    expect(sub.treeId).toBe('tree-1');
    expect(sub.sessionId).not.toBe('tree-1');
    const rootId = rt.sessionIdOf('/root');
    expect(rootId).toBeDefined();
    expect(rootId).not.toBe(sub.sessionId);
    expect(rt.sessionIdOf('/root/research')).toBe(sub.sessionId);
    expect(rt.sessionIdOf('/root/nobody')).toBeUndefined();
  });
});
