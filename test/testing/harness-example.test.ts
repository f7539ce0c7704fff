/**
 * The example of docs/path-tests.md, as a harness author would write it (imports from the
 * library's testing entry instead of the package name).
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
const paths = agentPaths({
  scenarios: agentScenarios({ base: { model: 'my-model' } }),
  payloads: {
    replies: {
      'search, then answer': { text: 'Searching.', toolCalls: [{ name: 'web_search', arguments: { q: 'xstate' } }, { name: 'web_search', arguments: { q: 'actors' } }] },
      answer: { text: 'Done.' },
    },
  },
});
const coverage = agentTransitionCoverage();

describe('my harness on every agent path', () => {
  testAgentPaths(it, paths, { provide, inspect: coverage.inspect });

  it('exercised every transition of the agent machine', () => {
    expect(coverage.summary()).toMatch(/^agent\.machine: (\d+)\/\1 transitions$/);
    coverage.assertComplete();
    expect(reported.length).toBeGreaterThan(0);
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
