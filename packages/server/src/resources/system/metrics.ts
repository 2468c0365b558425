import { randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Registry, collectDefaultMetrics } from 'prom-client';
import { hashSecret } from '../../domain/credentials.js';
import { ApiError, toErrorResponse } from '../../errors/index.js';
import { SECOND_MS } from '../../domain/time.js';
import { escapeLabel } from '../../domain/metricText.js';
import { isLoopbackHost } from '../../domain/loopback.js';
import { closeListener, closeServer } from '../../http/closeListener.js';

/** Upper bounds of the latency histogram, in seconds. */
const BUCKETS_SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1, 5];

interface RouteStats {
  method: string;
  route: string;
  byStatus: Map<number, number>;
  /** Cumulative counts are derived at scrape time; these are per bucket. */
  buckets: number[];
  sumSeconds: number;
  count: number;
}

/**
 * The process's metrics: Node's from prom-client, and HTTP request counts and latencies kept in
 * plain maps and written out only when scraped. prom-client hashes its label objects on every
 * observation, which cost more per request than the rest of a cached-auth route (see
 * docs/benchmarks.md), so the per-request path here is two map reads and a few additions.
 */
export function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'guildhall_' });
  const routes = new Map<string, RouteStats>();
  const sources: (() => string[])[] = [];

  return {
    /**
     * Adds exposition lines another part writes at each scrape (the voice node's, the gateway's,
     * the webhook event worker's).
     */
    addSource(lines: () => string[]) {
      sources.push(lines);
    },

    observe({
      method,
      route,
      status,
      seconds,
    }: {
      method: string;
      route: string;
      status: number;
      seconds: number;
    }) {
      const key = `${method} ${route}`;
      let stats = routes.get(key);
      if (stats === undefined) {
        stats = {
          method,
          route,
          byStatus: new Map(),
          buckets: BUCKETS_SECONDS.map(() => 0),
          sumSeconds: 0,
          count: 0,
        };
        routes.set(key, stats);
      }
      stats.byStatus.set(status, (stats.byStatus.get(status) ?? 0) + 1);
      const bucket = BUCKETS_SECONDS.findIndex((bound) => seconds <= bound);
      if (bucket !== -1) stats.buckets[bucket] = (stats.buckets[bucket] ?? 0) + 1;
      stats.sumSeconds += seconds;
      stats.count += 1;
    },

    contentType: registry.contentType,

    /** The Prometheus text exposition of everything. */
    async render(): Promise<string> {
      const lines = [
        '# HELP guildhall_http_requests_total HTTP requests answered, by route template and status.',
        '# TYPE guildhall_http_requests_total counter',
      ];
      for (const stats of routes.values()) {
        const labels = `method="${stats.method}",route="${escapeLabel(stats.route)}"`;
        for (const [status, count] of stats.byStatus) {
          lines.push(`guildhall_http_requests_total{${labels},status="${status}"} ${count}`);
        }
      }
      lines.push(
        '# HELP guildhall_http_request_duration_seconds Time to answer an HTTP request, by route template.',
        '# TYPE guildhall_http_request_duration_seconds histogram',
      );
      for (const stats of routes.values()) {
        const labels = `method="${stats.method}",route="${escapeLabel(stats.route)}"`;
        let cumulative = 0;
        BUCKETS_SECONDS.forEach((bound, i) => {
          cumulative += stats.buckets[i] ?? 0;
          lines.push(
            `guildhall_http_request_duration_seconds_bucket{${labels},le="${bound}"} ${cumulative}`,
          );
        });
        lines.push(
          `guildhall_http_request_duration_seconds_bucket{${labels},le="+Inf"} ${stats.count}`,
          `guildhall_http_request_duration_seconds_sum{${labels}} ${stats.sumSeconds}`,
          `guildhall_http_request_duration_seconds_count{${labels}} ${stats.count}`,
        );
      }
      for (const source of sources) lines.push(...source());
      return `${await registry.metrics()}\n${lines.join('\n')}\n`;
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/** Counts every response; routes are labelled by template so ids never explode the series. */
export function instrument(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', (request, reply, done) => {
    metrics.observe({
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status: reply.statusCode,
      seconds: reply.elapsedTime / SECOND_MS,
    });
    done();
  });
}

/** Who may read /metrics: a bearer token's holders, or anyone on a loopback-only listener. */
export interface MetricsAccess {
  /** SHA-256 (hex) of the required bearer token, or null. */
  tokenHash: string | null;
  /** The address the HTTP server listens on. */
  host: string;
}

/**
 * Checks a request for /metrics: with a token configured, only `Authorization: Bearer <token>`
 * passes (else 401); without one, /metrics exists only while the server listens on loopback, where
 * nobody else can connect (else 404).
 */
export function checkMetricsAccess(access: MetricsAccess, authorization: string | undefined): void {
  if (access.tokenHash === null) {
    if (!isLoopbackHost(access.host)) throw new ApiError('NOT_FOUND');
    return;
  }
  const match = /^Bearer (\S+)$/i.exec(authorization ?? '');
  const given = Buffer.from(hashSecret(match?.[1] ?? ''), 'hex');
  const expected = Buffer.from(access.tokenHash, 'hex');
  if (match === null || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new ApiError('UNAUTHORIZED');
  }
}

/**
 * /metrics on a listener of its own (GUILDHALL_METRICS_LISTEN), so that the API's address need not
 * expose it: GET /metrics under the same rule (the loopback test applies to this listener's
 * host), the platform's error body for anything else.
 */
export function createMetricsListener(
  metrics: Metrics,
  options: { tokenHash: string | null; host: string; port: number },
) {
  const access: MetricsAccess = { tokenHash: options.tokenHash, host: options.host };
  const respond = async (req: IncomingMessage, res: ServerResponse) => {
    try {
      if ((req.url ?? '/').split('?', 1)[0] !== '/metrics') throw new ApiError('NOT_FOUND');
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('allow', 'GET, HEAD');
        throw new ApiError('METHOD_NOT_ALLOWED');
      }
      checkMetricsAccess(access, req.headers.authorization);
      const body = await metrics.render();
      res.writeHead(200, { 'content-type': metrics.contentType });
      res.end(req.method === 'HEAD' ? undefined : body);
    } catch (err) {
      const answer = toErrorResponse(err, randomUUID());
      res.writeHead(answer.status, { ...answer.headers, 'content-type': 'application/json' });
      res.end(JSON.stringify(answer.body));
    }
  };
  const server = createServer((req, res) => {
    void respond(req, res);
  });
  return {
    /** Starts listening; resolves to the listener's base URL (port 0 picks a free port). */
    listen(): Promise<string> {
      return new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port, options.host, () => {
          server.off('error', reject);
          const { port } = server.address() as AddressInfo;
          const host = options.host.includes(':') ? `[${options.host}]` : options.host;
          resolve(`http://${host}:${String(port)}`);
        });
      });
    },
    close(): Promise<void> {
      return closeListener(server, () => closeServer(server), 0);
    },
  };
}
