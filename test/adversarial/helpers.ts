/**
 * Helpers for the adversarial suite: a model adapter that returns whatever a test says,
 * shaped or not, and small readers over what a runtime holds.
 */
import type { ModelAdapter, ModelResponse, SampleContext } from '../../src/model/adapter.js';
import type { ModelRequest } from '../../src/request/types.js';
import type { Runtime } from '../../src/runtime/types.js';

/** One sample as the hostile model saw it. */
export interface HostileCall {
  readonly request: ModelRequest;
  readonly context: SampleContext;
}

/**
 * A model whose replies are computed by `answer` and passed on unchecked (the cast is the
 * point: providers are outside the type system). A thrown value or a returned promise's
 * rejection reaches the runtime as is.
 */
export function hostileModel(answer: (context: SampleContext, request: ModelRequest) => unknown): ModelAdapter & { calls: HostileCall[] } {
  const calls: HostileCall[] = [];
  return {
    name: 'hostile',
    calls,
    sample: (request, context) => {
      calls.push({ request, context });
      return Promise.resolve().then(() => answer(context, request) as ModelResponse);
    },
  };
}

/** The text of every user entry of a request. */
export function userTextsOf(request: ModelRequest): string[] {
  return request.messages.toArray().flatMap((e) => (e.kind === 'user' ? [e.text] : []));
}

/** The tool results of a request, in order. */
export function toolResultsOf(request: ModelRequest): Array<{ content: string; isError: boolean }> {
  return request.messages.toArray().flatMap((e) => (e.kind === 'tool_result' ? [{ content: e.content, isError: e.isError }] : []));
}

/** Registry invariants every quiet runtime must hold. */
export function expectNothingHeld(rt: Runtime): void {
  if (rt.slotsInUse !== 0) throw new Error(`${rt.slotsInUse} slots still held`);
  const live = rt.list().map((a) => a.path);
  if (live.length !== 1 || live[0] !== rt.rootPath) throw new Error(`agents still live: ${live.join(', ')}`);
}
