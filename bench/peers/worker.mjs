/**
 * One system of the peer benchmark in its own worker thread: it imports only that system's
 * module, and answers each `{ n, runs }` message with the mean ms of `runs` fan-outs of size n.
 * A thread per system keeps what one system does to the process out of the others' samples:
 * LangGraph and the Agents SDK run everything inside AsyncLocalStorage, and once any store is
 * entered Node 20 hooks every promise of the isolate (measured: this library's 1,000-call slope
 * rose from 251-417 µs to 459-716 µs after one LangGraph run in the same thread).
 */
import { parentPort, workerData } from 'node:worker_threads';

const { module, exported } = workerData;
const fanout = (await import(module))[exported];

parentPort.on('message', async ({ n, runs }) => {
  try {
    let total = 0;
    for (let i = 0; i < runs; i++) total += await fanout(n);
    parentPort.postMessage({ ms: total / runs });
  } catch (error) {
    parentPort.postMessage({ error: String(error?.stack ?? error) });
  }
});
