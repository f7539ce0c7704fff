/**
 * `subagent-actors/otel`: OpenTelemetry traces of the agent tree. Pass a tracer to
 * `createRuntime({ telemetry: { tracer } })` (or to `delegatingAgent`, or the Pi extension);
 * this entry holds the names the spans use and the builder behind them.
 *
 * @example
 * ```ts
 * import { trace } from '@opentelemetry/api';
 * import { createRuntime } from 'subagent-actors';
 * const runtime = createRuntime({ model, telemetry: { tracer: trace.getTracer('my-app'), recordContent: false } });
 * ```
 */
export { GenAi, Sa, SaEvents } from './attributes.js';
export { TraceBuilder, TRACER_NAME, type OtelApi } from './trace-builder.js';
export type { AgentEnd, DelegatingTelemetryOptions, AgentStart, ChatEnd, ChatRetry, ChatStart, ChatUsage, EventAttributes, SpanRef, TelemetryOptions, ToolEnd, ToolStart, TracerLike } from './types.js';
