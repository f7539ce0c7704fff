/**
 * The demo's `--otlp URL`: a tracer whose spans go to an OTLP/HTTP endpoint (a collector, Jaeger,
 * any backend that takes OTLP), loaded on demand so the demo needs the OpenTelemetry packages only
 * when asked. The spans are batched and sent when the session ends (`close`).
 */
import type * as SdkTrace from '@opentelemetry/sdk-trace';
import type * as OtlpHttp from '@opentelemetry/exporter-trace-otlp-http';
import type { TelemetryOptions } from '../otel/types.js';

/** A started exporter: the telemetry option for the runtime and how to flush and stop it. */
export interface OtlpTracing {
  readonly telemetry: TelemetryOptions;
  readonly note: string;
  /** Sends what is still buffered and shuts the exporter down. */
  close(): Promise<void>;
}

/** Starts tracing to `url` (`http://127.0.0.1:4318/v1/traces`), or says why it cannot. */
export async function startOtlp(url: string): Promise<OtlpTracing | { readonly unavailable: string }> {
  let sdk: typeof SdkTrace;
  let exporterModule: typeof OtlpHttp;
  try {
    [sdk, exporterModule] = await Promise.all([import('@opentelemetry/sdk-trace'), import('@opentelemetry/exporter-trace-otlp-http')]);
  } catch (error) {
    return { unavailable: `--otlp needs @opentelemetry/sdk-trace and @opentelemetry/exporter-trace-otlp-http (npm i -D them): ${error instanceof Error ? error.message.split('\n')[0] : String(error)}` };
  }
  const exporter = new exporterModule.OTLPTraceExporter({ url });
  const provider = new sdk.TracerProvider({ spanProcessors: [new sdk.BatchSpanProcessor({ exporter })] });
  return {
    telemetry: { tracer: provider.getTracer('subagent-actors-demo') },
    note: `tracing the session to ${url} (OTLP/HTTP); the spans are sent when it ends`,
    close: async () => {
      await provider.forceFlush();
      await provider.shutdown();
    },
  };
}
