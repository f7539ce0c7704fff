import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { RuntimeError } from '../../src/runtime/errors.js';
import type { AgentContext } from '../../machines/agent.types.js';
import { RuntimeCore } from '../../src/runtime/core.js';
import { agentCoreBuilders } from '../../src/runtime/agent-logic.js';
import { RetentionStore } from '../../src/runtime/retention.js';
import { spawnSubagent } from '../../src/runtime/spawn.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { AgentResult } from '../../src/runtime/types.js';

/** Spawns `names` one after another under the root, each answering with its own name. */
async function runAll(rt: ReturnType<typeof createRuntime>, names: readonly string[]): Promise<AgentResult[]> {
  const out: AgentResult[] = [];
  for (const name of names) out.push(await (await rt.spawn('/root', { task_name: name, message: `do ${name}` })).result);
  return out;
}

const echoModel = () => scriptedModel({ '/root/*': (_request, { agentPath }) => ({ text: `answer of ${agentPath}` }) });

describe('retention of settled agents', () => {
  it('keeps every result and final dialogue by default', async () => {
    const rt = createRuntime({ model: echoModel() });
    await runAll(rt, ['a', 'b', 'c']);
    expect(rt.results.map((r) => r.path)).toEqual(['/root/a', '/root/b', '/root/c']);
    await expect(rt.result('/root/a')).resolves.toMatchObject({ text: 'answer of /root/a' });
  });

  it('keeps at most maxSettled settled agents, dropping the oldest first', async () => {
    const rt = createRuntime({ model: echoModel(), retention: { maxSettled: 2 } });
    await runAll(rt, ['a', 'b', 'c', 'd']);
    expect(rt.results.map((r) => r.path)).toEqual(['/root/c', '/root/d']);
    await expect(rt.result('/root/a')).rejects.toMatchObject({ code: 'unknown_agent', message: expect.stringMatching(/no longer retained/) });
    await expect(rt.result('/root/d')).resolves.toMatchObject({ text: 'answer of /root/d' });
  });

  it('maxSettled 0 keeps nothing, yet waiting callers and listeners still get the result', async () => {
    const rt = createRuntime({ model: echoModel(), retention: { maxSettled: 0 } });
    const seen: string[] = [];
    rt.on('result', (r) => seen.push(r.path));
    const [result] = await runAll(rt, ['a']);
    expect(result).toMatchObject({ path: '/root/a', status: 'completed' });
    expect(seen).toEqual(['/root/a']);
    expect(rt.results).toEqual([]);
  });

  it('release(path) drops one settled agent and says whether anything was kept', async () => {
    const rt = createRuntime({ model: echoModel() });
    await runAll(rt, ['a', 'b']);
    expect(rt.release('/root/a')).toBe(true);
    expect(rt.release('/root/a')).toBe(false);
    expect(rt.release('/root/never')).toBe(false);
    expect(rt.results.map((r) => r.path)).toEqual(['/root/b']);
  });

  it('refuses to release a live agent with a typed error', () => {
    const rt = createRuntime({ model: echoModel() });
    let caught: unknown;
    try {
      rt.release('/root');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(RuntimeError);
    expect(caught).toMatchObject({ code: 'invalid_arguments', message: expect.stringMatching(/still live/) });
  });

  it('a reused name keeps one entry per settlement; lookups see the latest', async () => {
    const rt = createRuntime({ model: echoModel() });
    await runAll(rt, ['a', 'a']);
    expect(rt.results.filter((r) => r.path === '/root/a')).toHaveLength(2);
    expect(rt.release('/root/a')).toBe(true);
    expect(rt.results).toEqual([]);
  });

  it('rejects an invalid policy with a clear error', () => {
    for (const maxSettled of [-1, 1.5, Number.NaN]) {
      expect(() => createRuntime({ model: echoModel(), retention: { maxSettled } })).toThrow(/retention.maxSettled/);
    }
  });
});

describe('RetentionStore', () => {
  const result = (path: string, text: string) => ({ path, text }) as AgentResult;

  it('keeps the final dialogue by reference, never a copy', async () => {
    const core = new RuntimeCore({ model: echoModel() }, agentCoreBuilders);
    core.startRoot();
    const handle = await spawnSubagent(core, '/root', { task_name: 'a', message: 'do a' }, {});
    const actor = core.registry.get('/root/a')!.actor!;
    await handle.result;
    const final = (actor.getSnapshot() as { context: AgentContext }).context.dialogue;
    expect(core.directory.settledDialogue('/root/a')).toBe(final);
    expect(final.at(final.length - 1)).toMatchObject({ kind: 'assistant', text: 'answer of /root/a' });
    core.directory.release('/root/a');
    expect(core.directory.settledDialogue('/root/a')).toBeUndefined();
  });

  it('evicts by settlement order across paths and per-path lists stay consistent', () => {
    const store = new RetentionStore({ maxSettled: 3 });
    store.add(result('/a', '1'), undefined);
    store.add(result('/b', '1'), undefined);
    store.add(result('/a', '2'), undefined);
    store.add(result('/c', '1'), undefined);
    expect(store.results().map((r) => `${r.path}:${r.text}`)).toEqual(['/b:1', '/a:2', '/c:1']);
    expect(store.get('/a')?.result.text).toBe('2');
    store.add(result('/d', '1'), undefined);
    store.add(result('/e', '1'), undefined);
    expect(store.get('/a')).toBeUndefined();
    expect(store.size).toBe(3);
  });
});
