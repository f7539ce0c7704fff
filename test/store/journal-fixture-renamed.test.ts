/**
 * Restore belongs to the machine: the committed fixtures resume into a copy of the agent
 * machine whose states and invoked actors have other names, because the journal records
 * phases and facts and `restoreAgent` finds the states and actors in the machine itself.
 */
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { agentCoreBuilders } from '../../src/runtime/agent-logic.js';
import { resumeWith } from '../../src/runtime/resume.js';
import { agentMachine } from '../../machines/agent.machine.js';
import { checkResumedFixture, FIXTURES, resumeFixture } from '../fixtures/journal/resume-fixture.js';
import { renamedMachine, renamedState } from '../fixtures/journal/renamed-machine.js';

const formats = readdirSync(FIXTURES)
  .filter((name) => /^format-\d+\.jsonl$/.test(name))
  .sort();

let cleanup: (() => void) | undefined;
afterEach(() => {
  cleanup?.();
  cleanup = undefined;
});

const renamedBuilders = { ...agentCoreBuilders, logic: (core: Parameters<typeof agentCoreBuilders.logic>[0]) => renamedMachine(agentCoreBuilders.logic(core)) };

describe('a journal resumes into a machine with renamed states and actors', () => {
  it('the copy really renames them', () => {
    const copy = renamedMachine(agentMachine);
    const working = copy.root.states['running']!.states['working']!;
    expect(Object.keys(working.states)).toEqual(['awaitingModel', 'runningTools']);
    expect(working.states['awaitingModel']!.invoke.map((i) => i.id)).toEqual(['llm']);
    expect(working.states['runningTools']!.invoke.map((i) => i.id)).toEqual(['toolStep']);
  });

  it.each(formats)('%s', async (name) => {
    const resumed = resumeFixture(name, (options) => resumeWith(options, renamedBuilders));
    cleanup = resumed.cleanup;
    await checkResumedFixture(resumed.rt, resumed.deployed, renamedState);
  });
});
