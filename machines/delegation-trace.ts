/**
 * Traces for {@link delegatingAgent}: the same spans `createRuntime` makes, reported from the
 * machine's own hooks (an agent adopted, a reply, a tool call, a settlement). One span builder
 * per tree, held by a tree service (an actor registered in the tree's system), so every root a
 * harness starts is its own trace and the builder lives exactly as long as its tree.
 */
import type { AnyActorRef } from 'xstate';
import { treeServiceOf } from './tree-service.js';
import { tracingFor } from '../src/otel/load.js';
import type { TraceBuilder } from '../src/otel/trace-builder.js';
import type { DelegatingTelemetryOptions } from '../src/otel/types.js';
import { SaEvents } from '../src/otel/attributes.js';
import type { AgentContext, AgentInput } from './agent.types.js';
import { traceAgentStart } from './agent-trace.js';

/** Tells the tree services of two `delegatingAgent`s apart (a tree could run both). */
let tracers = 0;

/** The span builders of one `delegatingAgent`, one per tree (a root and its subagents). */
export class DelegationTracer {
  /** The system id of this tracer's builder in each tree. */
  private readonly serviceId = `subagent-actors.trace.${++tracers}`;
  readonly provider: string;

  constructor(private readonly options: DelegatingTelemetryOptions) {
    if (options.provider !== undefined && typeof options.provider !== 'string') throw new TypeError('telemetry.provider must be a string');
    this.provider = options.provider ?? 'unknown';
    // Checks the options (and that @opentelemetry/api is there) when the harness is built.
    tracingFor(options);
  }

  /**
   * The builder of the tree `actor` (any actor of it) belongs to; given the agent's `input`,
   * with the agent at `path` opened from it if it is not open yet (a root as it publishes; a
   * subagent is opened as it is adopted). An agent that already ended is not opened again.
   */
  at(actor: AnyActorRef, path: string, input?: AgentInput): TraceBuilder {
    const trace = treeServiceOf(actor, this.serviceId, () => tracingFor(this.options)!);
    if (input && !trace.isOpen(path)) traceAgentStart(trace, input);
    return trace;
  }

  /** Opens a subagent's span from its actor (its parent just created it). */
  adopted(parent: AnyActorRef, child: AnyActorRef | undefined): void {
    const context = (child?.getSnapshot() as { context?: AgentContext } | undefined)?.context;
    if (context) this.at(parent, context.input.path, context.input);
  }

  /** A `cancel_agent` call stops `target`'s subtree (`stopped`, children first). */
  cancelling(agent: AnyActorRef, by: { readonly path: string; readonly callId: string }, target: string, stopped: readonly { readonly path: string; readonly state: string }[]): void {
    this.at(agent, by.path).cancelled(target, stopped, `cancelled by ${by.path}`, by);
  }

  /** A summary was prepared for the subagent at `path`. */
  summarized(actor: AnyActorRef, path: string, length: number): void {
    this.at(actor, path).event(path, SaEvents.summary, { phase: 'prepared', 'summary.length': length });
  }
}
