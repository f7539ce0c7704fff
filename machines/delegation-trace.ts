/**
 * Traces for {@link delegatingAgent}: the same spans `createRuntime` makes, reported from the
 * machine's own hooks (an agent adopted, a reply, a tool call, a settlement). One span builder
 * per actor system, so every root a harness starts is its own trace.
 */
import type { AnyActorRef } from 'xstate';
import { tracingFor } from '../src/otel/load.js';
import type { TraceBuilder } from '../src/otel/trace-builder.js';
import type { DelegatingTelemetryOptions } from '../src/otel/types.js';
import { SaEvents } from '../src/otel/attributes.js';
import type { AgentContext, AgentInput } from './agent.types.js';
import { traceAgentStart } from './agent-trace.js';

/** The span builders of one `delegatingAgent`, one per actor system (a root and its tree). */
export class DelegationTracer {
  private readonly builders = new WeakMap<object, TraceBuilder>();
  readonly provider: string;

  constructor(private readonly options: DelegatingTelemetryOptions) {
    if (options.provider !== undefined && typeof options.provider !== 'string') throw new TypeError('telemetry.provider must be a string');
    this.provider = options.provider ?? 'unknown';
    // Checks the options (and that @opentelemetry/api is there) when the harness is built.
    tracingFor(options);
  }

  /**
   * The builder of `system`'s tree, with the agent at `path` open: opened from `input`, or
   * from its actor's (found by its path, the system id every subagent has), if not yet.
   */
  at(system: object, path: string, input?: AgentInput): TraceBuilder {
    let trace = this.builders.get(system);
    if (!trace) {
      trace = tracingFor(this.options)!;
      this.builders.set(system, trace);
    }
    if (!trace.isOpen(path) && input) traceAgentStart(trace, input);
    else if (!trace.isOpen(path)) {
      const actor = (system as { get(id: string): AnyActorRef | undefined }).get(path);
      const context = (actor?.getSnapshot() as { context?: AgentContext } | undefined)?.context;
      if (context) traceAgentStart(trace, context.input);
    }
    return trace;
  }

  /** Opens a subagent's span from its actor (its parent just created it). */
  adopted(system: object, child: AnyActorRef | undefined): void {
    const context = (child?.getSnapshot() as { context?: AgentContext } | undefined)?.context;
    if (!context) return;
    const trace = this.at(system, context.input.parentPath ?? context.input.path);
    if (!trace.isOpen(context.input.path)) traceAgentStart(trace, context.input);
  }

  /** A `cancel_agent` call stops `target`'s subtree (`stopped`, children first). */
  cancelling(system: object, by: { readonly path: string; readonly callId: string }, target: string, stopped: readonly { readonly path: string; readonly state: string }[]): void {
    this.at(system, by.path).cancelled(target, stopped, `cancelled by ${by.path}`, by);
  }

  /** A summary was prepared for the subagent at `path`. */
  summarized(system: object, path: string, length: number): void {
    this.at(system, path).event(path, SaEvents.summary, { phase: 'prepared', 'summary.length': length });
  }
}
