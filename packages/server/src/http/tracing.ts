/**
 * @module http/tracing: a server span per HTTP request, registered only when tracing is on
 * (app.ts). The span continues the caller's trace when the request carries a `traceparent`, is
 * named after the route's template (never a path with ids or tokens in it), and is the active
 * span while the route's handler runs: the dispatches its service announces carry it to the
 * gateway (events/tracing.ts).
 */
import {
  SpanKind,
  SpanStatusCode,
  context,
  propagation,
  trace,
  type Span,
} from '@opentelemetry/api';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { TRACER_NAME } from '../events/tracing.js';

/** The first status that marks a span as failed: a server error. */
const SERVER_ERROR = 500;

export function traceRequests(app: FastifyInstance): void {
  const tracer = trace.getTracer(TRACER_NAME);
  const spans = new WeakMap<FastifyRequest, Span>();

  app.addHook('onRequest', (request, _reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    const parent = propagation.extract(context.active(), request.headers);
    const span = tracer.startSpan(
      `${request.method} ${route}`,
      {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': request.method, 'http.route': route },
      },
      parent,
    );
    spans.set(request, span);
    done();
  });
  // After the body is read (its stream's callbacks run outside any context), the hooks left and
  // the handler run with the span active.
  app.addHook('preHandler', (request, _reply, done) => {
    const span = spans.get(request);
    if (span === undefined) {
      done();
      return;
    }
    context.with(trace.setSpan(context.active(), span), done);
  });
  app.addHook('onResponse', (request, reply, done) => {
    const span = spans.get(request);
    if (span !== undefined) {
      span.setAttribute('http.response.status_code', reply.statusCode);
      if (reply.statusCode >= SERVER_ERROR) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
      spans.delete(request);
    }
    done();
  });
}
