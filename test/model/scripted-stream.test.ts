import { describe, expect, it } from 'vitest';
import type { ModelDelta, SampleContext } from '../../src/model/adapter.js';
import { manualClock } from '../../src/model/clock.js';
import { scriptedModel } from '../../src/model/scripted.js';
import { ctx, hello, rejection, settled } from './helpers.js';

/** A context whose onDelta records what it is handed. */
function streaming(signal?: AbortSignal): { context: SampleContext; deltas: ModelDelta[] } {
  const deltas: ModelDelta[] = [];
  return { context: { ...ctx('/root', 0, 0, signal), onDelta: (d) => deltas.push(d) }, deltas };
}

describe('scriptedModel: streaming', () => {
  it("hands a reply's reasoning, then its chunks, to onDelta, and resolves with the whole text", async () => {
    const model = scriptedModel({ '/root': { 0: [{ chunks: ['Hel', 'lo ', 'there'], reasoning: ['think', 'ing'] }] } });
    const { context, deltas } = streaming();
    const reply = await model.sample(hello(), context);
    expect(reply.text).toBe('Hello there');
    expect(reply.reasoning).toEqual([{ text: 'thinking' }]); // the response holds the whole reply
    expect(deltas).toEqual([
      { kind: 'reasoning', text: 'think' },
      { kind: 'reasoning', text: 'ing' },
      { kind: 'text', text: 'Hel' },
      { kind: 'text', text: 'lo ' },
      { kind: 'text', text: 'there' },
    ]);
  });

  it('splits text into chunkSize code points (never inside an emoji), and sends whole text without it', async () => {
    const chunked = scriptedModel({ '/root': { 0: [{ text: 'ab🙂cde' }] } }, { chunkSize: 2 });
    const a = streaming();
    await chunked.sample(hello(), a.context);
    expect(a.deltas.map((d) => d.text)).toEqual(['ab', '🙂c', 'de']);

    const whole = scriptedModel({ '/root': { 0: [{ text: 'all at once' }] } });
    const b = streaming();
    await whole.sample(hello(), b.context);
    expect(b.deltas).toEqual([{ kind: 'text', text: 'all at once' }]);
    expect(() => scriptedModel({}, { chunkSize: 0 })).toThrow(TypeError);
  });

  it('spreads the latency over the pieces, so the last arrives when the reply would have', async () => {
    const clock = manualClock();
    const model = scriptedModel({ '/root': { 0: [{ chunks: ['a', 'b', 'c'], latencyMs: 10 }] } }, { clock });
    const { context, deltas } = streaming();
    const reply = model.sample(hello(), context);
    await clock.whenPending();
    clock.advance(3);
    await clock.whenPending();
    expect(deltas.map((d) => d.text)).toEqual(['a']);
    clock.advance(4);
    await clock.whenPending();
    expect(deltas.map((d) => d.text)).toEqual(['a', 'b']);
    expect(await settled(reply)).toBe(false);
    clock.advance(3);
    expect((await reply).text).toBe('abc');
    expect(clock.now).toBe(10);
  });

  it('an abort mid-stream rejects with an AbortError and streams nothing more; a fail step streams, then rejects', async () => {
    const clock = manualClock();
    const model = scriptedModel({ '/root': { 0: [{ chunks: ['a', 'b'], latencyMs: 10 }], 1: [{ chunks: ['partial'], fail: 'overloaded' }] } }, { clock });
    const controller = new AbortController();
    const first = streaming(controller.signal);
    const reply = model.sample(hello(), first.context);
    await clock.whenPending();
    clock.advance(5);
    await clock.whenPending();
    controller.abort();
    expect((await rejection(reply)).name).toBe('AbortError');
    expect(first.deltas.map((d) => d.text)).toEqual(['a']);

    const failing = streaming();
    const error = await rejection(model.sample(hello(), { ...failing.context, turn: 1 }));
    expect(error.message).toBe('overloaded');
    expect(failing.deltas.map((d) => d.text)).toEqual(['partial']);
  });

  it('rejects a reply whose chunks do not join to its text', async () => {
    const model = scriptedModel({ '/root': { 0: [{ text: 'one', chunks: ['tw', 'o'] }] } });
    expect((await rejection(model.sample(hello(), streaming().context))).message).toMatch(/chunks must join to its text/);
  });
});
