/**
 * What hosts read about an agent without knowing the machine (#30 item 7): a dialogue view
 * says where its seed ends and serializes as its entries, and `list()` counts each agent's own
 * finished turns, which is what the demo's watcher had to guess.
 */
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../../src/model/scripted.js';
import { createRuntime } from '../../src/runtime/runtime.js';
import type { Entry } from '../../src/dialogue/entry.js';

function forkSession() {
  const model = scriptedModel(
    {
      '/root': {
        0: [{ toolCalls: [{ name: 'Agent', arguments: { task_name: 'research', message: 'Find the bug', context: 'all' } }] }, { text: 'It is in the parser.' }],
      },
      '/root/research': { 0: [{ text: 'parser.ts:88' }] },
    },
    { strict: true },
  );
  return createRuntime({ model });
}

describe('dialogue views and agent info', () => {
  it('JSON.stringify of a transcript gives its entries', async () => {
    const runtime = forkSession();
    await runtime.prompt('Why do nested blocks break?');
    const view = runtime.transcript('/root')!;
    const parsed = JSON.parse(JSON.stringify(view)) as Entry[];
    expect(Array.isArray(parsed)).toBe(true);
    expect(parsed).toEqual(JSON.parse(JSON.stringify(view.log.toArray())));
    expect(parsed.map((e) => e.kind)).toEqual(['user', 'assistant', 'tool_result', 'assistant']);
  });

  it('a view says how much of it was the seed: none for the root, the snapshot for a fork', async () => {
    const runtime = forkSession();
    await runtime.prompt('Why do nested blocks break?');
    expect(runtime.transcript('/root')!.seedLength).toBe(0);
    const fork = runtime.transcript('/root/research')!;
    expect(fork.seedLength).toBeGreaterThan(0);
    expect(fork.seedLength).toBeLessThan(fork.length);
    // The fork's own entries start at the seed's end: its task, then its answer.
    expect(fork.at(fork.seedLength)?.kind).toBe('user');
    expect(fork.at(-1)).toMatchObject({ kind: 'assistant', text: 'parser.ts:88' });
  });

  it("list() counts each agent's own finished turns, not a fork's inherited ones", async () => {
    const runtime = forkSession();
    expect(runtime.list().map((a) => [a.path, a.turns])).toEqual([['/root', 0]]);
    await runtime.prompt('Why do nested blocks break?');
    await runtime.whenQuiet();
    const turns = Object.fromEntries(runtime.list().map((a) => [a.path, a.turns]));
    // The fork inherited the root's assistant reply with its Agent call, yet has finished one turn.
    expect(turns).toEqual({ '/root': 1, '/root/research': 1 });
  });
});
