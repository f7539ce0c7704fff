/**
 * How the subagents of a tree that no runtime hosts ended, remembered for a while after their
 * actors are gone, so a message, close or cancel aimed at one is answered as `createRuntime`
 * answers it (`agent_closed`: finished, closed or cancelled) instead of `unknown_agent`. Held
 * by a tree service; bounded as the runtime's retention of settled results is by default.
 */
import type { AgentStatus, StopReason } from './agent.types.js';

/** How one agent ended. */
export interface Ending {
  readonly status: AgentStatus;
  readonly stopReason: StopReason;
}

/** The endings of a tree's agents, the most recent `limit` of them. */
export class EndedAgents {
  private readonly byPath = new Map<string, Ending>();

  constructor(private readonly limit = 1_000) {}

  /** Remembers how the agent at `path` ended (its latest ending, if the name was used again). */
  record(path: string, ending: Ending): void {
    this.byPath.delete(path);
    this.byPath.set(path, { status: ending.status, stopReason: ending.stopReason });
    if (this.byPath.size > this.limit) this.byPath.delete(this.byPath.keys().next().value!);
  }

  /** How the agent at `path` ended, while it is remembered. */
  of(path: string): Ending | undefined {
    return this.byPath.get(path);
  }
}
