/**
 * Vitest setup of a configuration-mutant run (scripts/config-mutants/run.ts): replaces the
 * agent machine, for every module of the run, with one built from a mutated copy of its
 * configuration. The mutant is named by CONFIG_MUTANT; without it nothing changes.
 */
import { vi } from 'vitest';
import type * as AgentMachineModule from '../../machines/agent.machine.js';
import { mutatedMachine, type ConfigMutant } from './apply.js';
import mutants from './mutants.json' with { type: 'json' };

const id = process.env['CONFIG_MUTANT'];
if (id !== undefined && id !== '') {
  const mutant = (mutants as ConfigMutant[]).find((m) => m.id === id);
  if (!mutant) throw new Error(`no configuration mutant ${id}`);
  vi.doMock('../../machines/agent.machine.js', async (importOriginal) => {
    const original = await importOriginal<typeof AgentMachineModule>();
    return { ...original, agentMachine: mutatedMachine(original.agentMachine, mutant) };
  });
}
