/**
 * The parent a path run puts a subagent under. XState stops only root actors from outside
 * (`stop()` on an actor with a parent throws), so the runner owns the subagent's parent: a
 * root it can stop, holding the agent in a subagent supervisor as an agent that spawned it
 * would. Stopping it does what stopping a real parent does: its supervisor cancels the
 * subagent, which aborts what it runs.
 */
import { createActor, setup, type AnyActorRef, type EventObject } from 'xstate';
import { SubagentSet, superviseSubagents, SUPERVISOR_ID } from '../../machines/subagents.js';

const pathParentMachine = setup({
  types: { input: {} as { readonly forward: AnyActorRef | undefined } },
  actors: {
    /** Holds the subagent under test as a spawning agent holds its subagents; stopped, it cancels it. */
    superviseSubagents,
  },
  actions: {
    /** Passes what the subagent sends its parent on to the run's `parent` option. */
    forwardToCaller: ({ event }: { event: EventObject }, forward: AnyActorRef | undefined) => void forward?.send(event),
  },
}).createMachine({
  id: 'pathParent',
  description: "A path run's stand-in for the agent that spawned the subagent under test",
  context: ({ input }) => input,
  invoke: { id: SUPERVISOR_ID, src: 'superviseSubagents', input: () => new SubagentSet() },
  on: { '*': { actions: { type: 'forwardToCaller', params: ({ context }) => context.forward } } },
});

/**
 * Starts a parent that forwards every event its subagent sends it to `forward`; the runner
 * then holds the subagent's actor in it with `holdSubagent`.
 */
export function startPathParent(forward: AnyActorRef | undefined): AnyActorRef {
  return createActor(pathParentMachine, { input: { forward } }).start();
}

