/**
 * @module events/tracing: a request's trace carried with the dispatches it causes. The API's
 * request span is active while its service runs (http/tracing.ts); the dispatcher writes that
 * span's context into each bus event as a W3C `traceparent` (BusEvent.trace), and the gateway
 * node that receives the event opens its dispatch span as a child of it. Only the OpenTelemetry
 * API is used here: without a registered tracer provider (tracing off, the default) nothing is
 * read or written, and the dispatcher and gateway do not call these at all (app.ts, tracing.ts).
 */
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';

/** The instrumentation scope of every span Guildhall makes. */
export const TRACER_NAME = 'guildhall';

/** The active span's context as a `traceparent`, or undefined when no span is active. */
export function activeTraceparent(): string | undefined {
  const carrier: { traceparent?: string } = {};
  propagation.inject(context.active(), carrier);
  return carrier.traceparent;
}

/**
 * Runs `fn` inside a consumer span that continues the trace `traceparent` names (an event's, from
 * the bus), and ends the span when `fn` returns or throws.
 */
export function inRemoteSpan<T>(
  name: string,
  input: { traceparent: string; attributes: Attributes },
  fn: (span: Span) => T,
): T {
  const parent = propagation.extract(ROOT_CONTEXT, { traceparent: input.traceparent });
  return trace
    .getTracer(TRACER_NAME)
    .startActiveSpan(
      name,
      { kind: SpanKind.CONSUMER, attributes: input.attributes },
      parent,
      (span) => {
        try {
          return fn(span);
        } catch (err) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: String(err) });
          throw err;
        } finally {
          span.end();
        }
      },
    );
}
