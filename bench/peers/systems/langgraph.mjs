/** LangGraph.js: the functional API's `task`, and a StateGraph with `Send`, each with LangChain's fake chat models. */
import { setMaxListeners } from 'node:events';
import { performance } from 'node:perf_hooks';
import { AIMessage, AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { FakeListChatModel, FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { Annotation, END, entrypoint, Send, START, StateGraph, task } from '@langchain/langgraph';

// The Send graph adds one abort listener per task to one shared signal; Node's leak warning
// for it (at 11 listeners) is noise here.
setMaxListeners(0);

/** The parent's fake model: its first reply makes n tool calls. */
function langchainParent(n) {
  const toolCalls = Array.from({ length: n }, (_, i) => ({ id: `call_${i}`, name: 'Agent', args: { task_name: `w${i}`, message: 'work' }, type: 'tool_call' }));
  return new FakeStreamingChatModel({ sleep: 0, chunks: [new AIMessageChunk({ content: '', tool_calls: toolCalls })] });
}
const subagentModel = () => new FakeListChatModel({ responses: ['ok'] });

/** ms for the functional API: the parent entrypoint awaits one `task` per call. */
export async function functionalTask(n) {
  const first = langchainParent(n);
  const final = new FakeListChatModel({ responses: ['done'] });
  const sub = subagentModel();
  const subagent = task('subagent', async (call) => (await sub.invoke([new HumanMessage(call.args.message)])).content);
  const parent = entrypoint('parent', async (prompt) => {
    const reply = await first.invoke([new HumanMessage(prompt)]);
    const results = await Promise.all(reply.tool_calls.map((call) => subagent(call)));
    const answer = await final.invoke([new HumanMessage(prompt), reply, new AIMessage(results.join('\n'))]);
    return { answer: answer.content, results };
  });
  const t0 = performance.now();
  const out = await parent.invoke('go');
  const ms = performance.now() - t0;
  if (out.results.length !== n) throw new Error(`langgraph task: ${out.results.length} of ${n} results`);
  return ms;
}

const FanoutState = Annotation.Root({
  prompt: Annotation(),
  calls: Annotation({ reducer: (_, next) => next, default: () => [] }),
  results: Annotation({ reducer: (all, next) => all.concat(next), default: () => [] }),
  answer: Annotation(),
});

/** ms for a StateGraph whose conditional edge sends one `Send` per call. */
export async function stateGraphSend(n) {
  const first = langchainParent(n);
  const final = new FakeListChatModel({ responses: ['done'] });
  const sub = subagentModel();
  const graph = new StateGraph(FanoutState)
    .addNode('parent', async (state) => ({ calls: (await first.invoke([new HumanMessage(state.prompt)])).tool_calls }))
    .addNode('subagent', async (call) => ({ results: [(await sub.invoke([new HumanMessage(call.args.message)])).content] }))
    .addNode('finish', async (state) => ({ answer: (await final.invoke([new HumanMessage(state.prompt), new AIMessage(state.results.join('\n'))])).content }))
    .addEdge(START, 'parent')
    .addConditionalEdges('parent', (state) => state.calls.map((call) => new Send('subagent', call)))
    .addEdge('subagent', 'finish')
    .addEdge('finish', END)
    .compile();
  const t0 = performance.now();
  const out = await graph.invoke({ prompt: 'go' }, { recursionLimit: 10 });
  const ms = performance.now() - t0;
  if (out.results.length !== n) throw new Error(`langgraph Send: ${out.results.length} of ${n} results`);
  return ms;
}
