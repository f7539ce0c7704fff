import type { AgentContext } from '../../machines/agent.types.js';
/**
 * The public agent path generator: scenarios, payloads, names and determinism.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_PAYLOADS, replyOutput, resolvePayloads } from '../../src/testing/agent-events.js';
import { agentPaths } from '../../src/testing/agent-paths.js';
import { agentScenarios } from '../../src/testing/agent-scenarios.js';
import { agentStateKey } from '../../src/testing/agent-state.js';

describe('agentScenarios', () => {
  const scenarios = agentScenarios();

  it('covers root and every subagent combination of hooks, context, lifetime and step limit', () => {
    expect(scenarios).toHaveLength(18);
    expect(new Set(scenarios.map((s) => s.name)).size).toBe(18);
    expect(scenarios.filter((s) => s.input.task === null).map((s) => s.name)).toEqual(['root', 'root, maxSteps 2']);
    const children = scenarios.filter((s) => s.input.task !== null).map((s) => s.input);
    expect(new Set(children.map((i) => `${i.hasTaskHooks}/${i.contextMode === 'summary'}/${i.lifetime}/${i.maxSteps}`)).size).toBe(16);
  });

  it('applies a base input without changing what defines a scenario', () => {
    const custom = agentScenarios({ base: { model: 'my-model', lifetime: 'continuable', sessionId: 's1' }, maxSteps: 3 });
    expect(custom.every((s) => s.input.model === 'my-model' && s.input.sessionId === 's1')).toBe(true);
    expect(custom.filter((s) => s.input.lifetime === 'one-shot')).toHaveLength(8);
    expect(custom.find((s) => s.name === 'root, maxSteps 3')?.input.maxSteps).toBe(3);
  });
});

describe('agentPaths', () => {
  const paths = agentPaths();

  it('names every path uniquely, scenario first', () => {
    expect(new Set(paths.map((p) => p.name)).size).toBe(paths.length);
    for (const p of paths) expect(p.name.startsWith(`${p.scenario}: `)).toBe(true);
  });

  it('starts every path at xstate.init in the scenario input state', () => {
    for (const p of paths) expect(p.steps[0]!.event.type).toBe('xstate.init');
    const root = paths.find((p) => p.scenario === 'root')!;
    expect(root.steps[0]!.expected).toBe('running.idle');
    const hooked = paths.find((p) => p.scenario.startsWith('subagent, hooks'))!;
    expect(hooked.steps[0]!.expected).toBe('reserved.runningHooks');
  });

  it('reaches every way of ending', () => {
    const endings = new Set(paths.map((p) => p.steps.at(-1)!.expected).filter((k) => /^(settled|cancelled) /.test(k)));
    expect([...endings].sort()).toEqual([
      'cancelled (cancelled: cancelled)',
      'cancelled (cancelled: hook_denied)',
      'cancelled (cancelled: hook_failed)',
      'cancelled (cancelled: summary_failed)',
      'settled (completed: closed)',
      'settled (completed: completed)',
      'settled (failed: budget_exceeded)',
      'settled (failed: internal_error)',
      'settled (failed: max_steps)',
      'settled (failed: model_error)',
    ]);
  });

  it('is deterministic', () => {
    const again = agentPaths();
    expect(again.map((p) => [p.name, p.steps.map((s) => s.expected)])).toEqual(paths.map((p) => [p.name, p.steps.map((s) => s.expected)]));
  });

  it('uses the given payloads as step labels', () => {
    const mine = agentPaths({
      scenarios: agentScenarios().filter((s) => s.name === 'subagent, no hooks, none, one-shot'),
      payloads: { replies: { 'search the web': { toolCalls: [{ name: 'web_search' }] }, answer: { text: 'Done.' } }, modelErrors: {} },
    });
    const labels = new Set(mine.flatMap((p) => p.steps.map((s) => s.label)));
    expect(labels).toEqual(new Set(['xstate.init', 'search the web', 'answer', 'request refused by budget', 'tool result', 'subagent answers the call', 'subagent result notice', 'inbox', 'message from a peer', 'spawn a subagent', 'message to a peer', 'tool step crashes', 'subagent crashed', 'close', 'cancel', 'compaction', 'compaction (stale)']));
    expect(mine.some((p) => p.steps.at(-1)!.expected === 'settled (failed: model_error)')).toBe(false);
  });

  it('offers other strategies', () => {
    const scenarios = agentScenarios().slice(0, 1);
    const states = agentPaths({ scenarios, strategy: 'states' });
    expect(new Set(states.map((p) => p.steps.at(-1)!.expected)).size).toBe(states.length);
    expect(agentPaths({ scenarios, strategy: 'simple' }).length).toBeGreaterThanOrEqual(states.length);
  });
});

describe('payloads', () => {
  it('fill in defaults per record', () => {
    const p = resolvePayloads({ inbox: {} });
    expect(p.inbox).toEqual({});
    expect(p.replies).toBe(DEFAULT_PAYLOADS.replies);
  });

  it('give tool calls ids unique per turn and step', () => {
    const out = replyOutput({ toolCalls: [{ name: 'a' }, { name: 'b', arguments: { x: 1 } }] }, { turnsCompleted: 2, step: 1 });
    expect(out.response.toolCalls).toEqual([
      { id: 'call_t2_s1_0', name: 'a', arguments: {} },
      { id: 'call_t2_s1_1', name: 'b', arguments: { x: 1 } },
    ]);
  });

  it('answer the first awaited call with a tool result (results are written in call order)', () => {
    const scenario = agentScenarios().find((s) => s.name === 'subagent, no hooks, none, one-shot')!;
    const path = agentPaths({ scenarios: [scenario] }).find((p) => p.steps.some((s) => s.label === 'tool result'))!;
    const first = path.steps.find((s) => s.label === 'tool result')!.event;
    expect(first).toMatchObject({ type: 'tool.result', callId: 'call_t0_s0_0', toolName: 'lookup', isError: false });
  });
});

describe('agentStateKey', () => {
  const pending = (n: number) => ({ pendingCalls: () => Array.from({ length: n }, (_, i) => ({ id: `c${i}`, name: 't', arguments: {} })) });
  const context = { dialogue: pending(0), closeRequested: false, step: 0, input: { maxSteps: undefined as number | undefined }, status: undefined, stopReason: undefined, inbox: null as AgentContext['inbox'] };

  it('keys active states by what the guards read', () => {
    expect(agentStateKey({ value: { running: 'idle' }, status: 'active', context })).toBe('running.idle');
    expect(agentStateKey({ value: { running: { working: 'acting' } }, status: 'active', context: { ...context, dialogue: pending(2), closeRequested: true, step: 1, input: { maxSteps: 2 } } })).toBe(
      'running.working.acting awaiting=2 close-requested step=1/2',
    );
    const inbox = { item: { text: 'hi', origin: { kind: 'person' as const } }, next: null, size: 1 };
    expect(agentStateKey({ value: { running: { working: 'sampling' } }, status: 'active', context: { ...context, inbox } })).toBe('running.working.sampling inbox-waiting');
  });

  it('keys final states by how they ended', () => {
    expect(agentStateKey({ value: 'settled', status: 'done', context: { ...context, status: 'failed', stopReason: 'max_steps' } })).toBe('settled (failed: max_steps)');
  });
});
