/**
 * While a spawn holds its reservation and the subagent's actor does not exist yet, the agent
 * is listed as `reserved` with no turns. A host-run root's `dialogue()` (the snapshot source,
 * read after the reservation) is host code that runs in that window.
 */
import { describe, expect, it } from 'vitest';
import { createRuntime, type AgentInfo } from '../../src/index.js';
import { Dialogue, userEntry } from '../../src/dialogue/index.js';
import { scriptedModel } from '../../src/testing/index.js';

describe('an agent reserved and not yet started', () => {
  it('is listed as reserved, with no turns, beside the root', async () => {
    const dialogue = Dialogue.of([userEntry({ text: 'why is it slow', origin: { kind: 'person' }, opensTurn: true })]);
    const seen: AgentInfo[][] = [];
    const model = scriptedModel({ '/root/probe': { 0: [{ text: 'probed' }] } });
    const rt = createRuntime({
      model,
      hostRoot: {
        dialogue: () => {
          seen.push(rt.list());
          return dialogue;
        },
        deliver: () => undefined,
      },
    });
    const handle = await rt.spawn('/root', { task_name: 'probe', message: 'measure it' });
    await expect(handle.result).resolves.toMatchObject({ status: 'completed', text: 'probed' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.map((a) => [a.path, a.state, a.turns])).toEqual([
      ['/root', 'running.idle', 0],
      ['/root/probe', 'reserved', 0],
    ]);
  });
});
