/** Request builders shared by the model tests. */
import type { Entry } from '../../src/dialogue/entry.js';
import { userEntry } from '../../src/dialogue/entry.js';
import type { SampleContext } from '../../src/model/adapter.js';
import { EntryView } from '../../src/dialogue/entry-seq.js';
import type { Effort, ModelRequest, SystemConfiguration, ToolSchema } from '../../src/request/types.js';

export const readTool: ToolSchema = Object.freeze({
  name: 'read_file',
  description: 'Reads a file.',
  inputSchema: Object.freeze({
    type: 'object',
    properties: Object.freeze({ path: Object.freeze({ type: 'string' }) }),
    required: Object.freeze(['path']),
  }),
});

export const system: SystemConfiguration = Object.freeze({
  preset: 'default',
  systemPrompt: 'You are a careful engineer.',
  tools: Object.freeze([readTool]),
});

export function request(entries: readonly Entry[], extra: { system?: SystemConfiguration; model?: string; effort?: Effort } = {}): ModelRequest {
  return { system: extra.system ?? system, messages: EntryView.of(entries), model: extra.model ?? 'test-model', effort: extra.effort };
}

export function hello(text = 'hello'): ModelRequest {
  return request([userEntry({ text, id: 'u1' })]);
}

export function ctx(agentPath: string, turn = 0, step = 0, signal: AbortSignal = new AbortController().signal): SampleContext {
  return { agentPath, turn, step, signal };
}

/** Resolves to the rejection of `promise` (fails the test if it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`, { cause: error });
  }
  throw new Error('expected a rejection, but the promise resolved');
}

/** Whether `promise` has settled, checked after pending microtasks ran. */
export async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  for (let i = 0; i < 20; i++) await Promise.resolve();
  return done;
}
