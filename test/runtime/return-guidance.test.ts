/**
 * How a forked subagent is told to return its result (the fork-prefix-reuse record): its
 * initial task names its direct parent and offers `send_message({ agent_id, message })` as a
 * way to return the result when that tool is visible, in words that say the result reaches
 * the parent exactly once. Each way is run under both deliveries (the Agent call's result,
 * and parent delivery's later notice): a subagent that follows the words gets its result to
 * its parent once.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { PathScript, Script } from '../../src/model/script.js';
import type { Delivery } from '../../machines/agent.types.js';

const RESULT = 'RESULT: the parser drops the closing brace at src/parser.ts:88.';

/** Every text the root's model read in its last request (messages, tool results, notices). */
function lastRootRequestTexts(model: ReturnType<typeof scriptedModel>): string[] {
  const last = model.calls.filter((c) => c.agentPath === '/root').at(-1);
  return (last?.request.messages.toArray() ?? []).map((e) => (e.kind === 'user' || e.kind === 'assistant' ? e.text : e.kind === 'tool_result' ? e.content : ''));
}

const occurrences = (texts: readonly string[], needle: string): number => texts.reduce((n, t) => n + t.split(needle).length - 1, 0);

/** The fork's initial task, as its first request carried it. */
function forkTask(model: ReturnType<typeof scriptedModel>, path: string): string {
  const first = model.calls.find((c) => c.agentPath === path);
  const task = first?.request.messages.toArray().at(-1);
  return task?.kind === 'user' ? task.text : '';
}

async function run(delivery: Delivery, fork: PathScript) {
  const script: Script = {
    '/root': {
      0: [{ toolCalls: [{ id: 'c1', name: 'Agent', arguments: { task_name: 'fix', message: 'Find the parser bug.', context: 'all' } }] }, { text: 'waiting' }, { text: 'thanks' }],
      1: [{ text: 'thanks' }],
      2: [{ text: 'thanks' }],
    },
    '/root/fix': fork,
  };
  const model = scriptedModel(script);
  const rt = createRuntime({ model, defaults: { delivery, lifetime: 'one-shot' } });
  await rt.prompt('The parser fails on nested blocks.');
  await rt.whenQuiet();
  return { model, rt };
}

describe('return guidance in the fork task', () => {
  it('names the direct parent and both ways to return, exactly once', async () => {
    const { model } = await run('caller', { 0: [{ text: RESULT }] });
    const task = forkTask(model, '/root/fix');
    expect(task).toContain('delegated one task by the agent /root.');
    expect(task).toContain('Return: your result reaches /root exactly once.');
    expect(task).toContain('your final answer is delivered to /root automatically');
    expect(task).toContain('Or return it with send_message({ agent_id: "/root", message: "..." }), then finish with a final answer that only says it was sent, without repeating it.');
  });

  for (const delivery of ['caller', 'parent'] as const) {
    it(`${delivery} delivery: a result returned as the final answer reaches the parent once`, async () => {
      const { model, rt } = await run(delivery, { 0: [{ text: RESULT }] });
      expect((await rt.result('/root/fix')).text).toBe(RESULT);
      expect(occurrences(lastRootRequestTexts(model), RESULT)).toBe(1);
    });

    it(`${delivery} delivery: a result returned with send_message, then a final answer that says so, reaches the parent once`, async () => {
      const { model, rt } = await run(delivery, {
        0: [{ toolCalls: [{ name: 'send_message', arguments: { agent_id: '/root', message: RESULT } }] }, { text: 'Sent to /root.' }],
      });
      const texts = lastRootRequestTexts(model);
      expect(occurrences(texts, RESULT)).toBe(1);
      // The automatic delivery still happened: the result, with the answer that says it was sent.
      expect(occurrences(texts, 'Sent to /root.')).toBe(1);
      expect((await rt.result('/root/fix')).text).toBe('Sent to /root.');
    });
  }
});
