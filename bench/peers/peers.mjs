/**
 * Fan-out in one reply, side by side: a parent's model answers with N subagent calls at once,
 * the parent waits for all N results (caller delivery), then answers once more. Every model is
 * a zero-latency fake from the system's own testing facilities, so only the runtimes are timed.
 *
 * Systems: this library (compiled by `npm run bench:peers` into .bench-build), LangGraph.js
 * (functional API `task`, and a StateGraph with `Send`), and the OpenAI Agents SDK
 * (`agent.asTool()`). N = 1, 10, 100, 1000 in one process; the systems are interleaved within
 * each repetition (their order rotating between repetitions); one unmeasured round at every
 * size warms every system up; 3 repetitions; the median is taken. Below N = 100 a sample is
 * the mean of several runs. The heap is not collected between samples: a forced collection
 * shrinks V8's young generation and slows the next sample far more than steady state. Figures are µs per subagent as the slope of total time from N = 1,
 * printed as `<name> <number>` lines, then as a markdown table.
 */
import { setMaxListeners } from 'node:events';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { AIMessage, AIMessageChunk, HumanMessage } from '@langchain/core/messages';
import { FakeListChatModel, FakeStreamingChatModel } from '@langchain/core/utils/testing';
import { Annotation, END, entrypoint, Send, START, StateGraph, task } from '@langchain/langgraph';
import { Agent, run, setTracingDisabled, Usage } from '@openai/agents';
import { createRuntime } from '../../.bench-build/src/index.js';
import { scriptedModel } from '../../.bench-build/src/testing/index.js';

const SIZES = [1, 10, 100, 1000];
const REPS = 3;

// LangGraph's Send graph adds one abort listener per task to one shared signal; Node's
// leak warning for it (at 11 listeners) is noise here, not a leak of ours.
setMaxListeners(0);

// ── this library ─────────────────────────────────────────────────────────────────────────
async function ours(n) {
  const calls = Array.from({ length: n }, (_, i) => ({ name: 'Agent', arguments: { task_name: `w${i}`, message: 'work' } }));
  const model = scriptedModel({ '/root': { 0: [{ toolCalls: calls }, { text: 'done' }] }, '**': { 0: [{ text: 'ok' }] } });
  const rt = createRuntime({ model, limits: { maxChildren: n, maxTotal: n, maxDepth: 2 } });
  const t0 = performance.now();
  const turn = new Promise((resolve) => rt.on('turn', (report) => report.path === '/root' && resolve()));
  rt.prompt('go');
  await turn;
  const ms = performance.now() - t0;
  if (rt.results.length !== n) throw new Error(`subagent-actors: ${rt.results.length} of ${n} results`);
  rt.stop();
  return ms;
}

// ── LangGraph.js ─────────────────────────────────────────────────────────────────────────
/** The parent's fake model: its first reply makes n tool calls. */
function langchainParent(n) {
  const toolCalls = Array.from({ length: n }, (_, i) => ({ id: `call_${i}`, name: 'Agent', args: { task_name: `w${i}`, message: 'work' }, type: 'tool_call' }));
  return new FakeStreamingChatModel({ sleep: 0, chunks: [new AIMessageChunk({ content: '', tool_calls: toolCalls })] });
}
const subagentModel = () => new FakeListChatModel({ responses: ['ok'] });

async function langgraphTask(n) {
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

async function langgraphSend(n) {
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

// ── OpenAI Agents SDK ────────────────────────────────────────────────────────────────────
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

async function openaiAgents(n) {
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

// ── run ──────────────────────────────────────────────────────────────────────────────────
const SYSTEMS = [
  { key: 'subagent_actors', label: 'subagent-actors', fn: ours, ours: true },
  { key: 'langgraph_task', label: 'LangGraph.js functional `task`', fn: langgraphTask },
  { key: 'langgraph_send', label: 'LangGraph.js StateGraph `Send`', fn: langgraphSend },
  { key: 'openai_agents', label: 'OpenAI Agents SDK `asTool`', fn: openaiAgents },
];

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};

/**
 * One sample in ms. Below 100 subagents it is the mean of 100 / n runs, so a run of a few ms
 * is not lost in scheduler noise when the slope from N = 1 is taken.
 */
async function sample(system, n) {
  const runs = Math.max(1, Math.floor(100 / n));
  let total = 0;
  for (let i = 0; i < runs; i++) total += await system.fn(n);
  return total / runs;
}

const loadBefore = loadavg()[0];
// Warm-up: every system once at every size, so no JIT start-up or first large heap lands in a sample.
for (const n of SIZES) for (const system of SYSTEMS) await sample(system, n);

const samples = new Map(SYSTEMS.map((s) => [s.key, new Map(SIZES.map((n) => [n, []]))]));
for (let rep = 0; rep < REPS; rep++) {
  const order = SYSTEMS.map((_, i) => SYSTEMS[(i + rep) % SYSTEMS.length]);
  for (const n of SIZES) for (const system of order) samples.get(system.key).get(n).push(await sample(system, n));
}

const totals = new Map(SYSTEMS.map((s) => [s.key, new Map(SIZES.map((n) => [n, median(samples.get(s.key).get(n))]))]));
const slopeUs = (key, n) => ((totals.get(key).get(n) - totals.get(key).get(1)) / (n - 1)) * 1000;

const lines = [];
for (const system of SYSTEMS) {
  for (const n of SIZES) lines.push([`peers.${system.key}.total_ms_${n}`, totals.get(system.key).get(n)]);
  for (const n of SIZES.slice(1)) lines.push([`peers.${system.key}.us_per_subagent_${n}`, slopeUs(system.key, n)]);
}
const peers = SYSTEMS.filter((s) => !s.ours);
const best = peers.reduce((a, b) => (slopeUs(a.key, 1000) <= slopeUs(b.key, 1000) ? a : b));
lines.push([`peers.best_peer_us_per_subagent_1000`, slopeUs(best.key, 1000)]);
lines.push([`peers.best_ratio_1000`, slopeUs('subagent_actors', 1000) / slopeUs(best.key, 1000)]);
// The machine's load while measuring: absolute figures move with it, the ratio much less.
lines.push([`peers.loadavg_1m_before`, loadBefore]);
lines.push([`peers.loadavg_1m_after`, loadavg()[0]]);
for (const [name, value] of lines) console.log(`${name} ${Number.isInteger(value) ? value : value.toPrecision(4)}`);

const fmt = (v) => (v >= 100 ? Math.round(v).toLocaleString('en-US') : v.toPrecision(3));
console.log('');
console.log(`Median of ${REPS} interleaved runs; µs per subagent as the slope of total time from N = 1; best peer at N = 1,000: ${best.label}.`);
console.log('');
console.log('| system | 1→10 | 1→100 | 1→1000 | total ms at 1000 |');
console.log('| --- | --- | --- | --- | --- |');
for (const system of SYSTEMS) {
  const cells = SIZES.slice(1).map((n) => fmt(slopeUs(system.key, n)));
  console.log(`| ${system.label} | ${cells.join(' | ')} | ${fmt(totals.get(system.key).get(1000))} |`);
}
console.log(`| **peers.best_ratio_1000** | | | ${(slopeUs('subagent_actors', 1000) / slopeUs(best.key, 1000)).toPrecision(3)} | |`);
