/**
 * Mastra's supervisor: a parent agent with the worker on its `agents` property (Mastra makes it
 * the `agent-worker` tool), both on AI SDK 7's zero-latency `MockLanguageModelV4`.
 */
import { performance } from 'node:perf_hooks';
import { Agent } from '@mastra/core/agent';
import { MockLanguageModelV4 } from 'ai/test';

const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
const text = (value) => ({ content: [{ type: 'text', text: value }], finishReason: { unified: 'stop', raw: 'stop' }, usage, warnings: [] });

/** ms for a supervisor whose model calls its worker subagent n times at once. */
export async function supervisor(n) {
  const worker = new Agent({ id: 'worker', name: 'worker', description: 'Does a task.', instructions: 'Do the task.', model: new MockLanguageModelV4({ doGenerate: async () => text('ok') }) });
  const model = new MockLanguageModelV4({
    doGenerate: async (options) => {
      if (options.prompt.some((message) => message.role === 'tool')) return text('done');
      const tool = options.tools?.[0]?.name ?? 'agent-worker';
      const content = Array.from({ length: n }, (_, i) => ({ type: 'tool-call', toolCallId: `call_${i}`, toolName: tool, input: JSON.stringify({ prompt: 'work' }) }));
      return { content, finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage, warnings: [] };
    },
  });
  const parent = new Agent({ id: 'parent', name: 'parent', instructions: 'Delegate.', model, agents: { worker } });
  const t0 = performance.now();
  const result = await parent.generate('go', { maxSteps: 4 });
  const ms = performance.now() - t0;
  const results = result.toolResults?.length ?? 0;
  if (results !== n || result.text !== 'done') throw new Error(`mastra: ${results} of ${n} results, final ${result.text}`);
  return ms;
}
