/** The OpenAI Agents SDK: a worker agent exposed to its parent with `agent.asTool()`, both on a zero-latency fake model. */
import { performance } from 'node:perf_hooks';
import { Agent, run, setTracingDisabled, Usage } from '@openai/agents';

setTracingDisabled(true);
const usage = () => new Usage();
const message = (text) => ({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text }] });

/** A zero-latency model (the SDK's own `Model` interface, as its tests fake it). */
class FakeModel {
  constructor(reply) {
    this.reply = reply;
  }
  async getResponse(request) {
    return { usage: usage(), output: this.reply(request), responseId: undefined };
  }
  // eslint-disable-next-line require-yield
  async *getStreamedResponse() {
    throw new Error('not streamed in this benchmark');
  }
}

/** ms for a parent agent whose model calls a worker agent exposed with `asTool` n times at once. */
export async function asTool(n) {
  const worker = new Agent({ name: 'worker', instructions: 'Do the task.', model: new FakeModel(() => [message('ok')]) });
  const tool = worker.asTool({ toolName: 'Agent', toolDescription: 'Delegate a task to a subagent.' });
  let calls = 0;
  const parentModel = new FakeModel((request) => {
    const answered = Array.isArray(request.input) && request.input.some((item) => item.type === 'function_call_result');
    if (answered) return [message('done')];
    return Array.from({ length: n }, (_, i) => ({
      type: 'function_call',
      callId: `call_${calls}_${i}`,
      name: 'Agent',
      status: 'completed',
      arguments: JSON.stringify({ input: 'work' }),
    }));
  });
  const parent = new Agent({ name: 'parent', instructions: 'Delegate.', model: parentModel, tools: [tool] });
  const t0 = performance.now();
  const result = await run(parent, 'go', { maxTurns: 4 });
  const ms = performance.now() - t0;
  const results = result.newItems.filter((item) => item.type === 'tool_call_output_item').length;
  if (results !== n || result.finalOutput !== 'done') throw new Error(`openai agents: ${results} of ${n} results, final ${result.finalOutput}`);
  calls++;
  return ms;
}
