/**
 * What the runtime core is built with: the agent machine with the runtime's implementations,
 * and compaction. The core takes them as arguments, so it imports none of the modules that
 * take the core (no import cycle, type-only ones included).
 */
import type { agentMachine } from '../../machines/agent.machine.js';
import type { CompactionEntry } from '../dialogue/entry.js';
import type { DialogueView } from '../dialogue/types.js';
import type { Usage } from '../model/adapter.js';

/** The agent machine with a runtime's implementations (`agentMachine.provide` keeps its type). */
export type AgentLogic = typeof agentMachine;

/** A written compaction and what writing it cost. */
export interface Compaction {
  readonly entry: CompactionEntry;
  readonly usage: Usage;
}

/** The builders a runtime core is made with (`Core` is the core's own type). */
export interface CoreBuilders<Core> {
  /** The agent machine with this core's implementations. */
  logic(core: Core): AgentLogic;
  /** Writes a compaction of the agent's dialogue; undefined when there is nothing to compact. */
  compact(core: Core, path: string, dialogue: DialogueView, signal: AbortSignal): Promise<Compaction | undefined>;
}
