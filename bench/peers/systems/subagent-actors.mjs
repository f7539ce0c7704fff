/** This library (compiled by `npm run bench:peers` into .bench-build): one reply with n `Agent` calls. */
import { performance } from 'node:perf_hooks';
import { createRuntime } from '../../../.bench-build/src/index.js';
import { scriptedModel } from '../../../.bench-build/src/testing/index.js';

/** ms from the prompt to the parent's finished turn, every subagent's result delivered to its call. */
export async function fanout(n) {
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
