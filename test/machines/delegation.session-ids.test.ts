/**
 * Under delegatingAgent each subagent has its own session id, issued as createRuntime issues
 * it (a hash of the tree id and the spawn count), so a subagent's result metadata and its
 * traces name its own session, and both hosts give the same session the same ids.
 */
import { describe, expect, it } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { delegatingAgent, type ModelFunction } from '../../machines/index.js';
import { agentSessionId } from '../../machines/agent-session-ids.js';
import type { Entry, ToolCall } from '../../src/dialogue/entry.js';
import type { ModelResponse } from '../../src/request/reply.js';
import { ZERO_USAGE } from '../../src/request/usage.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { ModelAdapter } from '../../src/model/adapter.js';

const TREE_ID = 'session_ids_tree';
const reply = (text: string, toolCalls: ToolCall[] = []): ModelResponse => ({ text, toolCalls, usage: ZERO_USAGE });

/** The root spawns `a`, which spawns `b`; every agent answers once its calls are answered. */
function script(path: string, n: number): ModelResponse {
  if (n > 0) return reply(`${path} done`);
  if (path === '/root') return reply('', [{ id: 'c1', name: 'Agent', arguments: { task_name: 'a', message: 'Delegate' } }]);
  if (path === '/root/a') return reply('', [{ id: 'c2', name: 'Agent', arguments: { task_name: 'b', message: 'Work' } }]);
  return reply('b done');
}

/** The `session_id` of the result each parent read, by the subagent's path. */
function sessionIdsRead(results: Map<string, string>, entries: readonly Entry[]): void {
  for (const e of entries) {
    if (e.kind !== 'tool_result') continue;
    const parsed = JSON.parse(e.content) as { agent_id: string; session_id?: string };
    if (parsed.session_id !== undefined) results.set(parsed.agent_id, parsed.session_id);
  }
}

describe('delegatingAgent session ids', () => {
  it('gives each subagent its own session id, the one createRuntime gives the same session', async () => {
    const viaMachine = new Map<string, string>();
    const counts = new Map<string, number>();
    const model: ModelFunction = (request) => {
      sessionIdsRead(viaMachine, request.dialogue.effective().toArray());
      const n = counts.get(request.path) ?? 0;
      counts.set(request.path, n + 1);
      return script(request.path, n);
    };
    const agents = delegatingAgent({ model });
    const root = createActor(agents.logic, { input: agents.input({ task: 'Coordinate', model: 'm', sessionId: TREE_ID }) }).start();
    await toPromise(root);

    const viaRuntime = new Map<string, string>();
    const runtimeCounts = new Map<string, number>();
    const adapter: ModelAdapter = {
      name: 'script',
      sample: async (request, context) => {
        sessionIdsRead(viaRuntime, request.messages.toArray());
        const n = runtimeCounts.get(context.agentPath) ?? 0;
        runtimeCounts.set(context.agentPath, n + 1);
        return script(context.agentPath, n);
      },
    };
    const rt = createRuntime({ model: adapter, modelId: 'm', sessionId: TREE_ID, retry: { maxRetries: 0 } });
    try {
      await rt.prompt('Coordinate');
      await rt.whenQuiet();
      expect(viaRuntime.get('/root/a')).toBe(rt.sessionIdOf('/root/a'));
    } finally {
      rt.stop();
    }

    // Not the parent's (the tree's) id, and not each other's.
    expect(viaMachine.get('/root/a')).not.toBe(TREE_ID);
    expect(viaMachine.get('/root/a/b')).not.toBe(viaMachine.get('/root/a'));
    // The root is count 0, its subagents 1, 2, ... in spawn order, in both hosts.
    expect(Object.fromEntries(viaMachine)).toEqual({ '/root/a': agentSessionId(TREE_ID, 1), '/root/a/b': agentSessionId(TREE_ID, 2) });
    expect(Object.fromEntries(viaMachine)).toEqual(Object.fromEntries(viaRuntime));
  });

  it('issues ids per tree: two roots of one delegatingAgent count from the start each', async () => {
    // The root spawns `w` and answers with the result it read.
    const agents = delegatingAgent({
      model: (request) => {
        const last = request.dialogue.effective().toArray().at(-1);
        if (request.path !== '/root') return reply('w done');
        return last?.kind === 'tool_result' ? reply(last.content) : reply('', [{ id: 'c1', name: 'Agent', arguments: { task_name: 'w', message: 'Work' } }]);
      },
    });
    const run = async (): Promise<string> => {
      const root = createActor(agents.logic, { input: agents.input({ task: 'Coordinate', model: 'm', sessionId: TREE_ID }) }).start();
      const result = await toPromise(root);
      return (JSON.parse(result.text) as { session_id: string }).session_id;
    };
    const first = await run();
    expect(first).toBe(agentSessionId(TREE_ID, 1));
    expect(await run()).toBe(first);
  });
});
