/**
 * @module tracing: OpenTelemetry tracing of a process, started only when configured
 * (OTEL_EXPORTER_OTLP_ENDPOINT, docs/operations.md#tracing) or by a test with an exporter of its
 * own. The SDK and the OTLP exporter are imported here, when it starts: a process without
 * tracing never loads them. The spans themselves are made through the OpenTelemetry API
 * (http/tracing.ts, events/tracing.ts).
 */
import { context, propagation, trace } from '@opentelemetry/api';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';

export interface TracingOptions {
  /** The OTLP/HTTP collector spans are POSTed to (`<endpoint>/v1/traces`), batched. */
  endpoint?: string;
  /** An exporter each span goes to as it ends (tests: an in-memory one). */
  exporter?: SpanExporter;
  /** The `service.name` spans are reported under. */
  serviceName: string;
}

export interface Tracing {
  /** Sends what is left, then unregisters the provider (the API is a no-op again). */
  shutdown(): Promise<void>;
}

/** The OTLP traces URL of a collector's base endpoint, as OpenTelemetry's exporters make it. */
export function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

/** Registers a tracer provider for the process: the API's spans are recorded from now on. */
export async function startTracing(options: TracingOptions): Promise<Tracing> {
  const [
    { NodeTracerProvider, BatchSpanProcessor, SimpleSpanProcessor },
    { resourceFromAttributes },
  ] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/resources'),
  ]);
  const processors = [];
  if (options.endpoint !== undefined) {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    processors.push(
      new BatchSpanProcessor(new OTLPTraceExporter({ url: tracesUrl(options.endpoint) })),
    );
  }
  if (options.exporter !== undefined) processors.push(new SimpleSpanProcessor(options.exporter));
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: processors,
  });
  // The W3C trace context propagator and the AsyncLocalStorage context manager, process-wide.
  provider.register();
  return {
    async shutdown() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
