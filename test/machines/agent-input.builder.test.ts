/**
 * `agentInput`, the one function every host builds an agent's input with (root, spawn,
 * embedding, resume): what it derives and what it leaves out.
 */
import { describe, expect, it } from 'vitest';
import { agentInput, createAgentInput, taskFraming } from '../../machines/agent.input.js';
import { selectSnapshot } from '../../src/context/select.js';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { userEntry } from '../../src/dialogue/entry.js';

const system = { preset: 'custom', systemPrompt: 'You help.', tools: [] };
const base = { sessionId: 's', treeId: 't', system, model: 'm', lifetime: 'one-shot', delivery: 'caller', startedAt: 5 } as const;

describe('agentInput', () => {
  it('derives the parent path, context label and mode from the path and the snapshot, and freezes the input', () => {
    const parent = Dialogue.empty().append(userEntry({ text: 'one', origin: { kind: 'person' }, opensTurn: true }));
    const snapshot = selectSnapshot(parent, { turns: 1 }, {});
    const input = agentInput({ ...base, path: '/root/a/b', task: 'Look', snapshot, framing: taskFraming('turns', '/root/a') });
    expect(input).toMatchObject({ parentPath: '/root/a', contextLabel: '1', contextMode: 'turns', framing: { kind: 'fork', parentPath: '/root/a' }, hasTaskHooks: false });
    expect(Object.isFrozen(input)).toBe(true);
    expect('output' in input).toBe(false);
    expect('budget' in input).toBe(false);
    expect(agentInput({ ...base, path: '/root', task: null })).toMatchObject({ parentPath: null, contextLabel: 'none', contextMode: 'none', framing: undefined });
  });

  it('is what createAgentInput builds from its options', () => {
    const viaOptions = createAgentInput({ model: 'm', task: 'Look', path: '/root/w', sessionId: 's', treeId: 't', systemPrompt: 'You help.', startedAt: 5 });
    expect(agentInput({ ...base, path: '/root/w', task: 'Look' })).toEqual(viaOptions);
  });

  it('frames a task per context mode', () => {
    expect(taskFraming('none', '/root', { instructions: 'Be brief.', projectContext: 'AGENTS' })).toEqual({ kind: 'independent', parentPath: '/root', instructions: 'Be brief.', projectContext: 'AGENTS', attachments: [] });
    expect(taskFraming('summary', '/root', { role: { name: 'r' } })).toEqual({ kind: 'summary', parentPath: '/root', role: { name: 'r' }, attachments: [] });
    expect(taskFraming('all', '/root')).toEqual({ kind: 'fork', parentPath: '/root', role: undefined, attachments: [] });
  });
});
