/**
 * The path runner: it follows generated paths on the real machine, reports where a
 * composition leaves them, and runs a harness's own actors and actions.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, setup, type AnyActorRef, type EventObject } from 'xstate';
import { subagentOf } from '../../machines/subagents.js';
import { agentMachine } from '../../machines/agent.machine.js';
import type { AgentResult } from '../../machines/agent.types.js';
import { toolStepLogic } from '../../machines/tool-step.js';
import { agentPaths, type AgentPath } from '../../src/testing/agent-paths.js';
import { agentScenarios } from '../../src/testing/agent-scenarios.js';
import { PathMismatchError } from '../../src/testing/path-error.js';
import { testAgentPaths, agentTransitionCoverage } from '../../src/testing/register.js';
import { runAgentPath } from '../../src/testing/run-agent-path.js';

const scenario = (name: string) => agentScenarios().filter((s) => s.name === name);
const oneShot = agentPaths({ scenarios: scenario('subagent, no hooks, none, one-shot') });
const continuable = agentPaths({ scenarios: scenario('subagent, no hooks, none, continuable') });
const byLabels = (paths: AgentPath[], ...labels: string[]) => paths.find((p) => p.steps.slice(1).map((s) => s.label).join(' | ') === labels.join(' | '))!;

describe('runAgentPath', () => {
  it('returns the states reached, and no report while the agent still runs', async () => {
    const run = await runAgentPath(byLabels(oneShot, 'reply with 2 tool calls', 'tool result', 'tool result'));
    expect(run.states).toEqual(['running.working.sampling', 'running.working.acting awaiting=2', 'running.working.acting awaiting=1', 'running.working.sampling']);
    expect(run.output).toBeUndefined();
    expect(run.reports).toBe(0);
  });

  it('returns the output and one report when the path ends in a final state', async () => {
    const run = await runAgentPath(byLabels(oneShot, 'final reply'));
    expect(run.states).toEqual(['running.working.sampling', 'settled (completed: completed)']);
    expect(run.output).toMatchObject({ status: 'completed', stopReason: 'completed', text: 'Here is the answer.', turns: 1, path: '/root/worker' });
    expect(run.reports).toBe(1);
  });

  it('delivers results late after a cancel and sees them dropped', async () => {
    const run = await runAgentPath(byLabels(oneShot, 'reply with 2 tool calls', 'cancel'));
    expect(run.output?.status).toBe('cancelled');
    expect(run.lateDeliveries).toBe(2);
  });

  it('throws a PathMismatchError naming the path, the step and both states', async () => {
    const path = byLabels(oneShot, 'final reply');
    const tampered: AgentPath = { ...path, steps: [path.steps[0]!, { ...path.steps[1]!, expected: 'running.idle' }] };
    const error = await runAgentPath(tampered).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PathMismatchError);
    expect((error as PathMismatchError).mismatch).toEqual({ path: path.name, step: 1, label: 'final reply', expected: 'running.idle', actual: 'settled (completed: completed)' });
    expect((error as Error).message).toContain('at step 1 (final reply)');
  });

  it('says when a step cannot be delivered at all', async () => {
    const path = agentPaths({ scenarios: scenario('subagent, hooks, fork, one-shot') }).find((p) => p.steps[1]?.label === 'hooks deny')!;
    const wrongInput: AgentPath = { ...path, input: { ...path.input, hasTaskHooks: false } };
    await expect(runAgentPath(wrongInput)).rejects.toThrow(/expected: reserved\.runningHooks\n {2}actual: {3}running\.working\.sampling/);
    const noHooks: AgentPath = { ...wrongInput, steps: [{ ...path.steps[0]!, expected: 'running.working.sampling' }, path.steps[1]!] };
    await expect(runAgentPath(noHooks)).rejects.toThrow(/no running "hooks" actor/);
  });

  it('runs the harness actions it is given, once per final state', async () => {
    const results: AgentResult[] = [];
    const provide = { actions: { releaseAndReport: (_: unknown, params: { result: AgentResult }) => void results.push(params.result) } };
    for (const path of oneShot) await runAgentPath(path, { provide });
    // A path that spawns a subagent also gets the subagent's one result: the runner stops the
    // parent at the end of the path, which cancels the subagent.
    const spawning = oneShot.filter((p) => p.steps.some((s) => s.label === 'spawn a subagent'));
    expect(spawning.length).toBeGreaterThan(0);
    expect(results.filter((r) => r.path.endsWith('/helper'))).toHaveLength(spawning.length);
    const finals = oneShot.filter((p) => /^(settled|cancelled) /.test(p.steps.at(-1)!.expected));
    expect(results.filter((r) => !r.path.endsWith('/helper'))).toHaveLength(finals.length);
  });

  it('runs a harness tool for real and waits for the results it sends', async () => {
    const echo = toolStepLogic(({ call }) => ({ content: `echo ${call.id}`, isError: false }));
    // Paths whose tool results come right after the reply fit a tool that answers at once.
    const fitting = oneShot.filter((p) => p.steps.every((s, i) => s.label !== 'reply with 2 tool calls' || (p.steps[i + 1]?.label === 'tool result' && p.steps[i + 2]?.label === 'tool result')));
    expect(fitting.length).toBeGreaterThan(3);
    for (const path of fitting) await runAgentPath(path, { provide: { actors: { runToolCalls: echo } } });
  });

  it('finds where a composition that overrides guards leaves the generated paths, and regenerates them', async () => {
    const neverIdle = agentMachine.provide({ guards: { staysOpen: () => false } });
    const idlePath = byLabels(continuable, 'final reply', 'close');
    await expect(runAgentPath(idlePath, { provide: { guards: { staysOpen: () => false } } })).rejects.toThrow(/expected: running\.idle\n {2}actual: {3}settled \(completed: completed\)/);
    const regenerated = agentPaths({ scenarios: scenario('subagent, no hooks, none, continuable'), machine: neverIdle });
    expect(regenerated.some((p) => p.steps.some((s) => s.expected === 'running.idle'))).toBe(false);
    for (const path of regenerated) await runAgentPath(path, { provide: { guards: { staysOpen: () => false } } });
  });
});

describe('runAgentPath with a parent', () => {
  /** A parent that keeps what reaches it. */
  const collector = () => {
    const events: EventObject[] = [];
    const actor = createActor(setup({ actions: { keep: ({ event }) => void events.push(event) } }).createMachine({ on: { '*': { actions: 'keep' } } })).start();
    return { actor, events };
  };

  it("passes the agent's one report on, and the parent lets go of it when it settles", async () => {
    const parent = collector();
    let agent: AnyActorRef | undefined;
    const held: boolean[] = [];
    const run = await runAgentPath(byLabels(oneShot, 'final reply'), {
      parent: parent.actor,
      observer: { created: (actor) => void (agent = actor), step: () => void held.push(subagentOf(agent!._parent!, '/root/worker') === agent) },
    });
    expect(run.reports).toBe(1);
    expect(held).toEqual([true, false]);
    const reports = parent.events.filter((e) => e.type === 'subagent.report') as Array<EventObject & { report: { kind: string; result?: AgentResult } }>;
    expect(reports.map((e) => [e.report.kind, e.report.result?.path])).toEqual([['result', '/root/worker']]);
  });

  it('stops a path that ends mid-turn with public calls only: the agent is cancelled, its actors aborted, nothing reported in the run', async () => {
    const parent = collector();
    let agent: AnyActorRef | undefined;
    const run = await runAgentPath(byLabels(oneShot, 'reply with 2 tool calls', 'tool result', 'tool result'), { parent: parent.actor, observer: { created: (actor) => void (agent = actor) } });
    expect(run.reports).toBe(0);
    expect(run.output).toBeUndefined();
    // Stopped as a stopped parent stops a subagent: it settled cancelled, and its held parent is stopped.
    expect(agent!.getSnapshot().status).toBe('done');
    expect((agent!.getSnapshot().output as AgentResult).status).toBe('cancelled');
    expect(agent!._parent!.getSnapshot().status).toBe('stopped');
  });
});

describe('testAgentPaths', () => {
  it('registers one test per path with any framework, feeding coverage', async () => {
    const registered: Array<[string, () => Promise<void>]> = [];
    const coverage = agentTransitionCoverage();
    testAgentPaths((name, fn) => registered.push([name, fn]), oneShot, { inspect: coverage.inspect });
    expect(registered.map(([name]) => name)).toEqual(oneShot.map((p) => p.name));
    for (const [, fn] of registered) await fn();
    const [report] = coverage.report();
    expect(report!.name).toBe('agent.machine');
    expect(report!.covered).toBeGreaterThan(5);
    expect(report!.covered).toBeLessThan(report!.total);
    expect(report!.missing.map((t) => t.event)).toContain('xstate.done.actor.hooks');
  });
});

describe('with fake timers', () => {
  it('still checks late results (the runner never waits on a timer)', async () => {
    vi.useFakeTimers();
    try {
      const run = await runAgentPath(byLabels(oneShot, 'reply with 2 tool calls', 'cancel'));
      expect(run.lateDeliveries).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });
});
