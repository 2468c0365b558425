/**
 * @module gateway/metrics: the gateway's figures for /metrics (docs/operations.md#gateway): the
 * counters gateway/lifecycle.ts keeps, and gauges read from the open connections at each scrape
 * (nothing is kept for them on the hot path).
 */
import { LabelledCounts, labelText, metricLines } from '../domain/metricText.js';
import { compressionOf, type GatewayStats } from './lifecycle.js';
import type { Connection } from './session.js';

/** The exposition lines of one scrape. `sessions` counts identified sessions, with or without a connection. */
export function gatewayMetricLines(
  stats: GatewayStats,
  live: { connections: Iterable<Connection>; sessions: number },
): string[] {
  const connected = new LabelledCounts();
  let connections = 0;
  let attached = 0;
  let queuedBytes = 0;
  for (const conn of live.connections) {
    connections++;
    queuedBytes += conn.ws.bufferedAmount;
    if (conn.session === null) continue;
    attached++;
    connected.add(labelText({ encoding: conn.encoding, compression: compressionOf(conn) }));
  }
  return [
    ...metricLines(
      'guildhall_gateway_connections',
      { type: 'gauge', help: 'Open gateway WebSocket connections, identified or not.' },
      connections,
    ),
    ...metricLines(
      'guildhall_gateway_sessions',
      {
        type: 'gauge',
        help: 'Sessions served on an open connection, by encoding and compression.',
      },
      connected.entries(),
    ),
    ...metricLines(
      'guildhall_gateway_sessions_resumable',
      { type: 'gauge', help: 'Sessions without a connection, waiting for a RESUME.' },
      Math.max(0, live.sessions - attached),
    ),
    ...metricLines(
      'guildhall_gateway_queued_bytes',
      {
        type: 'gauge',
        help: 'Bytes written to gateway connections and not yet taken by the network.',
      },
      queuedBytes,
    ),
    ...metricLines(
      'guildhall_gateway_identifies_total',
      { type: 'counter', help: 'IDENTIFYs, by result (ok, refused) and the reason of a refusal.' },
      stats.identifies.entries(),
    ),
    ...metricLines(
      'guildhall_gateway_resumes_total',
      { type: 'counter', help: 'RESUMEs, by result (ok, refused) and the reason of a refusal.' },
      stats.resumes.entries(),
    ),
    ...metricLines(
      'guildhall_gateway_invalid_sessions_total',
      {
        type: 'counter',
        help: 'INVALID_SESSION (op 9) sent, by whether it was resumable and why.',
      },
      stats.invalidSessions.entries(),
    ),
    ...metricLines(
      'guildhall_gateway_dispatches_sent_total',
      { type: 'counter', help: 'Dispatches written to a session connection.' },
      stats.dispatchesSent,
    ),
    ...metricLines(
      'guildhall_gateway_dispatches_dropped_total',
      {
        type: 'counter',
        help: 'Dispatches not written, by reason (a fault, a connection already closing).',
      },
      stats.dispatchesDropped.entries(),
    ),
    ...metricLines(
      'guildhall_gateway_closes_total',
      {
        type: 'counter',
        help: 'Gateway connections closed, by close code and by whom (server, client).',
      },
      stats.closes.entries(),
    ),
    ...stats.identifyWait.lines(
      'guildhall_gateway_identify_wait_seconds',
      "Time a bot's IDENTIFY waited for its turn in the identify bucket (max_concurrency).",
    ),
    ...metricLines(
      'guildhall_gateway_takeovers_total',
      {
        type: 'counter',
        help: 'Sessions resumed here that another node served, by whether that node answered (live) or had died (dead).',
      },
      stats.takeovers.entries(),
    ),
    ...metricLines(
      'guildhall_gateway_history_replays_total',
      {
        type: 'counter',
        help: 'Reads of the bus history for a session taken over from a dead node, by result (ok, no_history).',
      },
      stats.historyReplays.entries(),
    ),
    ...metricLines(
      'guildhall_gateway_history_replayed_dispatches_total',
      { type: 'counter', help: 'Dispatches those reads recovered for the sessions.' },
      stats.historyReplayedDispatches,
    ),
  ];
}
