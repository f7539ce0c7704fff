/**
 * Makes the span builder a host's `telemetry` option asks for. `@opentelemetry/api` is loaded
 * here, and only when a host traces, so hosts that do not trace need none of it.
 */
import { createRequire } from 'node:module';
import { TraceBuilder, type OtelApi } from './trace-builder.js';
import type { TelemetryOptions } from './types.js';

/**
 * Loads `@opentelemetry/api` (a CommonJS package, so synchronously). Its state (the global
 * tracer provider, context manager, context keys) is kept on a process-wide symbol, so the
 * module loaded here and one a host imports share it.
 */
function loadOtelApi(): OtelApi {
  try {
    return createRequire(import.meta.url)('@opentelemetry/api') as OtelApi;
  } catch (error) {
    throw new TypeError('telemetry needs the @opentelemetry/api package (an optional peer dependency): npm install @opentelemetry/api', { cause: error });
  }
}

/** The span builder for a host's `telemetry` option, or none. Malformed options throw a TypeError. */
export function tracingFor(telemetry: TelemetryOptions | undefined): TraceBuilder | undefined {
  if (telemetry === undefined) return undefined;
  if (telemetry === null || typeof telemetry !== 'object') throw new TypeError('telemetry must be an object: { tracer?, recordContent? }');
  const tracer: unknown = telemetry.tracer;
  if (tracer !== undefined && (tracer === null || typeof (tracer as { startSpan?: unknown }).startSpan !== 'function')) {
    throw new TypeError('telemetry.tracer must be an OpenTelemetry Tracer (an object with startSpan)');
  }
  if (telemetry.recordContent !== undefined && typeof telemetry.recordContent !== 'boolean') throw new TypeError('telemetry.recordContent must be a boolean');
  return new TraceBuilder(loadOtelApi(), telemetry);
}

