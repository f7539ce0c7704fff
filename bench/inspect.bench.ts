/**
 * Inspection overhead: one session of 2,000 subagents (spawned one after another under the
 * root, each answering once) with a no-op inspection observer, against the same session
 * without one, measured in this run. The observer receives sanitized events, so the figure
 * is the cost of the runtime's sanitizing.
 */
import { performance } from 'node:perf_hooks';
import { scriptedModel } from '../src/model/scripted.js';
import { createRuntime } from '../src/runtime/runtime.js';
import { median } from './measure.js';
import type { BenchFigures } from './run.js';

const AGENTS = 2_000;

/** ms for a session of `n` subagents, with or without a no-op observer. */
export async function sessionMs(n: number, inspect: boolean): Promise<number> {
  const model = scriptedModel({ '/root/*': { 0: [{ text: 'ok' }] } });
  const rt = createRuntime({ model, retention: { maxSettled: 0 }, ...(inspect ? { inspect: () => {} } : {}) });
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await (await rt.spawn('/root', { task_name: `w${i}`, message: 'work' })).result;
  const ms = performance.now() - t0;
  rt.stop();
  return ms;
}

export default async function run(): Promise<BenchFigures> {
  await sessionMs(200, true);
  await sessionMs(200, false);
  const plain: number[] = [];
  const inspected: number[] = [];
  for (let r = 0; r < 3; r++) {
    plain.push(await sessionMs(AGENTS, false));
    inspected.push(await sessionMs(AGENTS, true));
  }
  return [['inspect.overhead.ratio', median(inspected) / median(plain)]];
}
