/**
 * `createAgentInput` option by option: what each default is, what each refusal says (the
 * message tells the caller how to fix the call, not only which option is wrong), and the
 * shape check a hand-built input gets from the machine.
 */
import { describe, expect, it } from 'vitest';
import { AgentInputError, assertAgentInput, createAgentInput, freezeAgentInput, type AgentInputOptions } from '../../machines/agent.input.js';
import type { AgentInput } from '../../machines/agent.types.js';
import { selectSnapshot } from '../../src/context/select.js';
import { Dialogue } from '../../src/dialogue/dialogue.js';
import { assistantEntry, userEntry } from '../../src/dialogue/entry.js';
import { NOTHING_INHERITED } from '../../src/request/prefix-reuse.js';

const tool = (name: string) => ({ name, description: 'A tool.', inputSchema: { type: 'object' } });
const parent = () => Dialogue.of([userEntry({ text: 'question' }), assistantEntry({ text: 'answer' })]);

/** The error `make` throws (failing the test when it throws none, or another kind). */
function refusal(make: () => unknown): AgentInputError {
  try {
    make();
  } catch (error) {
    expect(error).toBeInstanceOf(AgentInputError);
    return error as AgentInputError;
  }
  throw new Error('expected an AgentInputError, got none');
}

describe('createAgentInput defaults', () => {
  it('fills what a caller leaves out', () => {
    const before = Date.now();
    const input = createAgentInput({ model: 'm', task: 'work' });
    expect(input).toEqual({
      path: '/root',
      parentPath: null,
      sessionId: 'session',
      treeId: 'session',
      role: undefined,
      task: 'work',
      snapshot: undefined,
      contextLabel: 'none',
      contextMode: 'none',
      framing: undefined,
      system: { preset: 'custom', systemPrompt: '', tools: [] },
      model: 'm',
      effort: undefined,
      lifetime: 'one-shot',
      delivery: 'caller',
      maxSteps: undefined,
      prefix: NOTHING_INHERITED,
      hasTaskHooks: false,
      startedAt: input.startedAt,
    });
    expect(input.startedAt).toBeGreaterThanOrEqual(before);
    expect(input.startedAt).toBeLessThanOrEqual(Date.now());
  });

  it('keeps every option given', () => {
    const snapshot = selectSnapshot(parent(), { turns: 1 });
    const input = createAgentInput({
      model: 'm',
      task: 'work',
      systemPrompt: 'Be brief.',
      tools: [tool('a'), tool('b')],
      preset: 'worker',
      path: '/root/team/worker',
      sessionId: 's-1',
      treeId: 'tree-1',
      lifetime: 'continuable',
      delivery: 'parent',
      maxSteps: 3,
      role: 'reviewer',
      effort: 'high',
      taskHooks: true,
      snapshot,
      startedAt: 42,
    });
    expect(input).toMatchObject({
      path: '/root/team/worker',
      parentPath: '/root/team',
      sessionId: 's-1',
      treeId: 'tree-1',
      role: 'reviewer',
      snapshot,
      contextLabel: '1',
      contextMode: 'turns',
      system: { preset: 'worker', systemPrompt: 'Be brief.', tools: [tool('a'), tool('b')] },
      effort: 'high',
      lifetime: 'continuable',
      delivery: 'parent',
      maxSteps: 3,
      hasTaskHooks: true,
      startedAt: 42,
    });
  });

  it('takes the tree id from the session id, and labels a snapshot by its spec', () => {
    const input = createAgentInput({ model: 'm', task: 'work', path: '/root/w', sessionId: 'mine', snapshot: selectSnapshot(parent(), 'all') });
    expect([input.sessionId, input.treeId]).toEqual(['mine', 'mine']);
    expect([input.contextLabel, input.contextMode]).toEqual(['all', 'all']);
    expect(input.parentPath).toBe('/root');
  });

  it('copies the tools, so the caller can reuse its array', () => {
    const tools = [tool('a')];
    const input = createAgentInput({ model: 'm', tools });
    expect(input.system.tools).not.toBe(tools);
    tools.push(tool('b'));
    expect(input.system.tools.map((t) => t.name)).toEqual(['a']);
  });
});

describe('createAgentInput refusals say how to fix the call', () => {
  const cases: Array<[string, unknown, string, RegExp]> = [
    ['no options', undefined, 'options', /must be an object such as \{ model: "my-model", task: "\.\.\." \}/],
    ['an array', [], 'options', /must be an object/],
    ['an unknown option', { model: 'm', tsk: 'typo' }, 'tsk', /is not an option; known options: model, task, systemPrompt, tools, preset, path, sessionId, treeId, lifetime, delivery, maxSteps, role, effort, taskHooks, snapshot, startedAt$/],
    ['a blank model', { model: ' ' }, 'model', /model must be a non-empty string$/],
    ['an empty task', { model: 'm', task: '' }, 'task', /must be a non-empty string \(omit it for an agent that starts idle\)/],
    ['a non-string system prompt', { model: 'm', systemPrompt: 7 }, 'systemPrompt', /systemPrompt must be a string$/],
    ['a blank preset', { model: 'm', preset: '' }, 'preset', /preset must be a non-empty string$/],
    ['tools that are not an array', { model: 'm', tools: { name: 'x' } }, 'tools', /must be an array of tool schemas/],
    ['a tool that is not an object', { model: 'm', tools: ['lookup'] }, 'tools[0]', /must be \{ name, description, inputSchema \} with a non-empty name and a JSON Schema object/],
    ['a tool without a name', { model: 'm', tools: [{ name: ' ', description: '', inputSchema: {} }] }, 'tools[0]', /must be \{ name, description, inputSchema \}/],
    ['a tool without a description', { model: 'm', tools: [tool('a'), { name: 'b', inputSchema: {} }] }, 'tools[1]', /must be \{ name, description, inputSchema \}/],
    ['a tool whose schema is an array', { model: 'm', tools: [{ name: 'a', description: '', inputSchema: [] }] }, 'tools[0]', /must be \{ name, description, inputSchema \}/],
    ['a repeated tool name', { model: 'm', tools: [tool('a'), tool('b'), tool('a')] }, 'tools[2]', /repeats the tool name "a"/],
    ['an empty path', { model: 'm', path: '' }, 'path', /must look like "\/root" or "\/root\/worker" \(segments of lowercase letters, digits, "-", "_"\); got ""/],
    ['a bare slash', { model: 'm', path: '/' }, 'path', /got "\/"/],
    ['a trailing slash', { model: 'm', path: '/root/' }, 'path', /got "\/root\/"/],
    ['a path that is not a string', { model: 'm', path: 3 }, 'path', /got 3/],
    ['an unknown lifetime', { model: 'm', task: 't', lifetime: 'forever' }, 'lifetime', /lifetime must be one of one-shot, continuable$/],
    ['a one-shot agent without a task', { model: 'm', lifetime: 'one-shot' }, 'lifetime', /must be continuable for an agent without a task \(it starts idle\)/],
    ['an unknown delivery', { model: 'm', task: 't', delivery: 'mail' }, 'delivery', /delivery must be one of caller, parent$/],
    ['a negative step limit', { model: 'm', task: 't', maxSteps: -1 }, 'maxSteps', /maxSteps must be a positive integer$/],
    ['an unknown effort', { model: 'm', task: 't', effort: 'max' }, 'effort', /effort must be one of low, medium, high$/],
    ['a blank role', { model: 'm', task: 't', role: '' }, 'role', /role must be a non-empty string$/],
    ['a blank session id', { model: 'm', task: 't', sessionId: ' ' }, 'sessionId', /sessionId must be a non-empty string$/],
    ['a blank tree id', { model: 'm', task: 't', treeId: '' }, 'treeId', /treeId must be a non-empty string$/],
    ['a non-boolean taskHooks', { model: 'm', task: 't', taskHooks: 1 }, 'taskHooks', /taskHooks must be a boolean$/],
    ['an infinite start time', { model: 'm', task: 't', startedAt: Infinity }, 'startedAt', /must be a finite number \(ms since the epoch\)/],
    ['a snapshot that is not an object', { model: 'm', task: 't', snapshot: 'all' }, 'snapshot', /must be a context snapshot \(from selectSnapshot\)/],
    ['a snapshot that is an array', { model: 'm', task: 't', snapshot: Object.assign([], { mode: 'all', entries: {} }) }, 'snapshot', /must be a context snapshot/],
    ['a snapshot without a mode', { model: 'm', task: 't', snapshot: { entries: {} } }, 'snapshot', /must be a context snapshot/],
    ['a snapshot without entries', { model: 'm', task: 't', snapshot: { mode: 'all', entries: null } }, 'snapshot', /must be a context snapshot/],
    ['a snapshot without a task', { model: 'm', snapshot: selectSnapshot(parent(), 'all') }, 'snapshot', /needs a task: an agent without one starts idle and is never seeded/],
  ];

  it.each(cases)('%s', (_, options, field, says) => {
    const error = refusal(() => createAgentInput(options as AgentInputOptions));
    expect(error.name).toBe('AgentInputError');
    expect(error.code).toBe('invalid_agent_input');
    expect(error.field).toBe(field);
    expect(error.message.startsWith(`invalid agent input: ${field} `)).toBe(true);
    expect(error.message).toMatch(says);
  });

  it('accepts what is valid at the edges of each check', () => {
    expect(() => createAgentInput({ model: 'm', task: 't', maxSteps: 1, startedAt: 0, systemPrompt: '', taskHooks: false, effort: 'low' })).not.toThrow();
    expect(createAgentInput({ model: 'm', path: '/a_b-1/c2' }).parentPath).toBe('/a_b-1');
  });
});

describe('assertAgentInput', () => {
  const valid = (): Record<string, unknown> => ({ ...createAgentInput({ model: 'm', task: 't', path: '/root/w' }) });

  it('passes an input built by createAgentInput, and a root without a task', () => {
    expect(() => assertAgentInput(valid())).not.toThrow();
    expect(() => assertAgentInput({ ...valid(), task: null })).not.toThrow();
  });

  it('refuses a missing input with how to build one', () => {
    for (const input of [undefined, null, [], 'input']) {
      const error = refusal(() => assertAgentInput(input));
      expect(error.field).toBe('input');
      expect(error.message).toMatch(/is missing: start the agent with createActor\(logic, \{ input: createAgentInput\(\{ \.\.\. \}\) \}\)/);
    }
  });

  it('lists every field that is missing, null or of the wrong type, with its type', () => {
    const input = { ...valid(), sessionId: undefined, system: null, startedAt: '0', hasTaskHooks: 0, task: 5 };
    const error = refusal(() => assertAgentInput(input));
    expect(error.field).toBe('input');
    expect(error.message).toBe(
      'invalid agent input: input lacks or mistypes sessionId (string), system (object), hasTaskHooks (boolean), startedAt (number), task (string, or null for an agent that starts idle); build it with createAgentInput({ ... })',
    );
  });

  it('refuses a task that is missing rather than null', () => {
    const { task: _task, ...rest } = valid();
    expect(refusal(() => assertAgentInput(rest)).message).toContain('task (string, or null for an agent that starts idle)');
  });
});

describe('freezeAgentInput', () => {
  /** A system configuration that counts how often a freeze walks it (its keys are listed once per walk). */
  function countedSystem(): { system: AgentInput['system']; walks: () => number } {
    let walks = 0;
    const target = { preset: 'p', systemPrompt: '', tools: [] };
    const system = new Proxy(target, {
      ownKeys: (t) => {
        walks++;
        return Reflect.ownKeys(t);
      },
    });
    return { system, walks: () => walks };
  }

  it('freezes the input, its system, prefix, framing and snapshot', () => {
    const input = { ...createAgentInput({ model: 'm', task: 't', path: '/root/w' }) };
    const system = { preset: 'p', systemPrompt: '', tools: [tool('a')] };
    const prefix = { sharedBytes: 0, inheritedBytes: 0, reasons: [] as string[] };
    const framing = { kind: 'independent' as const, parentPath: '/root', instructions: undefined, projectContext: undefined, attachments: [{ name: 'a', content: 'x' }] };
    const snapshot = { ...selectSnapshot(parent(), 'all') };
    const frozen = freezeAgentInput({ ...input, system, prefix, framing, snapshot } as AgentInput);
    expect(Object.isFrozen(frozen)).toBe(true);
    expect(Object.isFrozen(system.tools[0]!.inputSchema)).toBe(true);
    expect(Object.isFrozen(prefix.reasons)).toBe(true);
    expect(Object.isFrozen(framing.attachments[0])).toBe(true);
    expect(Object.isFrozen(snapshot)).toBe(true);
  });

  it('walks a system configuration shared by many agents only the first time', () => {
    const { system, walks } = countedSystem();
    const base = createAgentInput({ model: 'm', task: 't', path: '/root/w' });
    freezeAgentInput({ ...base, system });
    const first = walks();
    expect(first).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) freezeAgentInput({ ...base, system });
    expect(walks()).toBe(first);
  });
});
