/**
 * Tool results go into the dialogue in call order, not completion order: two identical
 * sessions whose tools finish in different orders send the provider byte-identical bodies,
 * through the real `@ai-sdk/anthropic` and `@ai-sdk/openai` packages. The journal holds the
 * results in call order, and a session resumed from it sends what the uninterrupted one sends.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import { aiSdkModel } from '../../src/model/ai-sdk.js';
import { resumeRuntime } from '../../src/runtime/resume.js';
import { createRuntime, defineRuntimeTool } from '../../src/runtime/runtime.js';
import { createJsonlStore, openJsonlStore } from '../../src/store/jsonl.js';
import { deferred } from '../../src/testing/deferred.js';
import { answersToolResult, useStandIn, WIRE_APIS, wireModel } from './harness.js';
import { userTexts, type RecordedRequest, type WireApi, type WireReply } from './stand-in/index.js';

const standIn = useStandIn();
const dir = mkdtempSync(join(tmpdir(), 'wire-call-order-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const model = (api: WireApi) => wireModel(standIn(), api);

const CALLS = 4;

/** The first request of a turn asks for four lookups at once; the request after them answers. */
function script(request: RecordedRequest): WireReply {
  if (answersToolResult(request)) return { text: `answered ${userTexts(request).length}`, usage: { input: 40, output: 4 } };
  return { toolCalls: Array.from({ length: CALLS }, (_, n) => ({ name: 'lookup', arguments: { n } })), usage: { input: 30, output: 12 } };
}

/**
 * A `lookup` tool whose calls wait until all of a step's calls have started, then finish in
 * `order` (each resolved in turn, so the runtime sees them complete in that order).
 */
function lookupFinishingIn(order: readonly number[]) {
  let waiting: { n: number; done: (text: string) => void }[] = [];
  return defineRuntimeTool({
    name: 'lookup',
    description: 'Looks a number up.',
    schema: z.object({ n: z.number().int() }),
    execute: ({ n }) => {
      const result = deferred<string>();
      waiting.push({ n, done: result.resolve });
      if (waiting.length === CALLS) {
        const step = waiting;
        waiting = [];
        for (const k of order) step.find((w) => w.n === k)!.done(`lookup ${k} done`);
      }
      return result.promise;
    },
  });
}

/** Runs two prompts of one session whose lookups finish in `order`; returns the bodies sent. */
async function session(api: WireApi, order: readonly number[], store?: ReturnType<typeof createJsonlStore>): Promise<string[]> {
  standIn().clear();
  const rt = createRuntime({ model: aiSdkModel(model(api)), tools: [lookupFinishingIn(order)], ...(store ? { store } : {}) });
  expect(await rt.prompt('Look the numbers up.')).toMatchObject({ status: 'completed' });
  expect(await rt.prompt('And again.')).toMatchObject({ status: 'completed' });
  rt.stop();
  return standIn().requestsTo(api).map((r) => r.rawBody);
}

describe.each(WIRE_APIS)('tool results in call order, as %s', (api) => {
  beforeAll(() => standIn().respondWith(script));

  it('two identical sessions whose tools finish in different orders send byte-identical bodies', async () => {
    const inOrder = await session(api, [0, 1, 2, 3]);
    const reversed = await session(api, [3, 2, 1, 0]);
    const shuffled = await session(api, [2, 0, 3, 1]);
    expect(inOrder).toHaveLength(4);
    // The request after the step lists the results as the reply listed the calls.
    const second = inOrder[1]!;
    const at = [0, 1, 2, 3].map((k) => second.indexOf(`lookup ${k} done`));
    expect(at.every((p) => p > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(reversed).toEqual(inOrder);
    expect(shuffled).toEqual(inOrder);
  });

  it('journals the results in call order, and a session resumed from the journal sends what the uninterrupted one sends', async () => {
    const sessionId = `order-${api}`;
    const uninterrupted = await session(api, [0, 1, 2, 3]);

    // The first turn, journaled with its lookups finishing last first.
    standIn().clear();
    const store = createJsonlStore({ dir, sessionId, fsync: 'never' });
    const first = createRuntime({ model: aiSdkModel(model(api)), tools: [lookupFinishingIn([3, 2, 1, 0])], store });
    expect(await first.prompt('Look the numbers up.')).toMatchObject({ status: 'completed' });
    const firstTurn = standIn().requestsTo(api).map((r) => r.rawBody);
    // The process ends here (nothing is stopped): the journal is all that is left.
    await store.close();
    const journaled = readFileSync(join(dir, `${sessionId}.jsonl`), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .flatMap((line) => ((JSON.parse(line) as { entries?: { kind: string; content?: string }[] }).entries ?? []))
      .filter((entry) => entry.kind === 'tool_result')
      .map((entry) => entry.content);
    expect(journaled).toEqual(['lookup 0 done', 'lookup 1 done', 'lookup 2 done', 'lookup 3 done']);

    // The second turn, after a cold resume.
    standIn().clear();
    const reopened = openJsonlStore({ dir, sessionId, fsync: 'never' });
    const resumed = resumeRuntime({ model: aiSdkModel(model(api)), tools: [lookupFinishingIn([1, 3, 0, 2])], store: reopened });
    expect(await resumed.prompt('And again.')).toMatchObject({ status: 'completed' });
    const secondTurn = standIn().requestsTo(api).map((r) => r.rawBody);
    resumed.stop();
    await reopened.close();
    expect([...firstTurn, ...secondTurn]).toEqual(uninterrupted);
  });
});
