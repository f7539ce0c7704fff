/**
 * The example of docs/path-tests.md, as a harness author would write it (imports from the
 * library's testing entry instead of the package name).
 *
 * The walk of every generated path, with the state-meta oracle and the complete transition
 * coverage, is test/machines/agent.paths.test.ts; walking the same paths again here would
 * check nothing new. So the example runs on the paths of one scenario, and checks what that
 * suite does not: the harness's own payloads and its own `provide` through the public entry.
 */
import { describe, expect, it } from 'vitest';
// Through the public entries, exactly as a harness author imports them.
import type { AgentResult } from '../../src/index.js';
import { toolStepLogic } from '../../machines/index.js';
import { agentPaths, agentScenarios, agentTransitionCoverage, runAgentPath, testAgentPaths } from '../../src/testing/index.js';

// Your composition: the actions your host runs when an agent publishes, reports or ends a turn.
const reported: AgentResult[] = [];
const provide = {
  actions: {
    releaseAndReport: (_: unknown, params: { result: AgentResult }) => void reported.push(params.result),
  },
};

// Your inputs and payloads: your model id and replies shaped like your model's.
// (The documented example passes every scenario; this file takes one, see above.)
const SCENARIO = 'subagent, hooks, summary, continuable';
const paths = agentPaths({
  scenarios: agentScenarios({ base: { model: 'my-model' } }).filter((s) => s.name === SCENARIO),
  payloads: {
    replies: {
      'search, then answer': { text: 'Searching.', toolCalls: [{ name: 'web_search', arguments: { q: 'xstate' } }, { name: 'web_search', arguments: { q: 'actors' } }] },
      answer: { text: 'Done.' },
    },
  },
});
const coverage = agentTransitionCoverage();

describe("my harness on one scenario's paths", () => {
  testAgentPaths(it, paths, { provide, inspect: coverage.inspect });

  it("ran the harness's payloads and its own provided action", () => {
    const ending = paths.filter((p) => /^(settled|cancelled)/.test(p.steps.at(-1)!.expected));
    expect(paths.length).toBeGreaterThan(100);
    expect(paths.every((p) => p.scenario === SCENARIO && p.input.model === 'my-model')).toBe(true);
    // One report per ended path reached my action (subagents the agent spawned report too).
    const own = reported.filter((r) => r.path === paths[0]!.input.path);
    expect(own.length).toBe(ending.length);
    // The texts are my reply payloads' (or none, when no reply came), by the labels I gave them.
    expect(paths.some((p) => p.steps.some((s) => s.label === 'search, then answer'))).toBe(true);
    expect(new Set(own.map((r) => r.text))).toEqual(new Set(['', 'Searching.', 'Done.']));
    expect(own.filter((r) => r.status === 'completed').map((r) => r.text)).toContain('Done.');
    // One scenario fires part of the machine; the full walk's coverage is the path suite's.
    const [summary] = coverage.report();
    expect(summary!.covered).toBeGreaterThan(0);
    expect(coverage.summary()).toBe(`agent.machine: ${summary!.covered}/${summary!.total} transitions`);
  });
});

describe('with my own tool running for real', () => {
  // One call at a time; toolStepLogic runs a reply's calls together and aborts them on cancel.
  const webSearch = toolStepLogic(async ({ call }, signal) => ({ content: signal.aborted ? '' : `results for ${call.id}`, isError: false }));
  // A tool that answers on its own fits the paths where results follow the reply directly.
  const fitting = paths.filter((p) => p.steps.every((s, i) => s.label !== 'search, then answer' || (p.steps[i + 1]?.label === 'tool result' && p.steps[i + 2]?.label === 'tool result')));

  it.each(fitting.slice(0, 20).map((p) => [p.name, p] as const))('%s', async (_, path) => {
    const run = await runAgentPath(path, { provide: { ...provide, actors: { runToolCalls: webSearch } } });
    expect(run.states).toEqual(path.steps.map((s) => s.expected));
  });
});
