/**
 * A trace crosses from the API to the gateway through the bus (docs/operations.md#tracing): a
 * message POSTed over HTTP to a server on NATS is traced by its request span, the trace travels
 * with the dispatch on the bus, and the gateway's span of that dispatch, which wrote it to the
 * bot's WebSocket, is a child of the request's span, in the trace the caller's `traceparent`
 * began. Spans go to an in-memory exporter. And with OTEL_EXPORTER_OTLP_ENDPOINT set, they are
 * POSTed to `<endpoint>/v1/traces` (a collector on loopback).
 *
 * @module
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { GatewayIntentBits as I } from '@guildhall/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { identifyGateway, type GatewayClient } from './support/gatewayClient.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { TEST_NATS_URL, natsAvailable, uniqueSubjectPrefix } from './support/nats.js';
import { startTestServer, type TestServer } from './support/testServer.js';

/** The caller's trace: the request span continues it. */
const CALLER_TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CALLER_SPAN_ID = '00f067aa0ba902b7';

describe.skipIf(!natsAvailable)('tracing on the NATS bus', () => {
  const exporter = new InMemorySpanExporter();
  let server: TestServer;
  let guild: GuildFixture;
  let bot: GatewayClient | undefined;

  beforeAll(async () => {
    server = await startTestServer({
      listen: true,
      traceExporter: exporter,
      config: {
        natsUrl: TEST_NATS_URL,
        natsSubjectPrefix: uniqueSubjectPrefix('tracing'),
        natsHistorySeconds: 0,
      },
    });
    guild = await guildFixture(server, { botPermissions: 0n });
  });
  afterAll(async () => {
    bot?.raw.terminate();
    await server.close();
  });

  it("makes the gateway's dispatch span a child of the API request's span", async () => {
    expect(server.app.bus.driver).toBe('nats');
    const session = await identifyGateway(server.app.gatewayUrl(), {
      token: guild.bot.token,
      intents: I.GUILDS | I.GUILD_MESSAGES,
    });
    bot = session.client;
    const channels = await guild.call(
      'GET',
      `/guilds/${guild.guildId}/channels`,
      guild.owner.token,
    );
    const channelId = (JSON.parse(channels.body) as { id: string; type: number }[]).find(
      (c) => c.type === 0,
    )?.id;
    exporter.reset();

    const res = await fetch(`${server.baseUrl}/api/v10/channels/${String(channelId)}/messages`, {
      method: 'POST',
      headers: {
        authorization: guild.owner.token,
        'content-type': 'application/json',
        traceparent: `00-${CALLER_TRACE_ID}-${CALLER_SPAN_ID}-01`,
      },
      body: JSON.stringify({ content: 'traced' }),
    });
    expect(res.status).toBe(200);
    await bot.dispatch('MESSAGE_CREATE');

    const spans = exporter.getFinishedSpans();
    const request = spans.find(
      (s: ReadableSpan) => s.kind === SpanKind.SERVER && s.name.endsWith('/messages'),
    );
    const dispatch = spans.find((s) => s.name === 'gateway dispatch MESSAGE_CREATE');
    expect(request?.spanContext().traceId).toBe(CALLER_TRACE_ID);
    expect(request?.parentSpanContext?.spanId).toBe(CALLER_SPAN_ID);
    expect(request?.attributes['http.response.status_code']).toBe(200);
    expect(dispatch?.kind).toBe(SpanKind.CONSUMER);
    expect(dispatch?.spanContext().traceId).toBe(CALLER_TRACE_ID);
    expect(dispatch?.parentSpanContext?.spanId).toBe(request?.spanContext().spanId);
    expect(dispatch?.attributes['guildhall.gateway.dispatches_sent']).toBe(1);
  });
});

/** A stand-in OTLP/HTTP collector on loopback: what was POSTed to it, by path. */
async function startCollector() {
  const received: { path: string; body: string }[] = [];
  const server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString() });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    received,
    close: () =>
      new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      ),
  };
}

describe('tracing to an OTLP collector', () => {
  it('sends the spans of a request to <endpoint>/v1/traces, as service guildhall', async () => {
    const collector = await startCollector();
    try {
      const server = await startTestServer({
        listen: true,
        config: { otlpEndpoint: collector.url },
      });
      const res = await fetch(`${server.baseUrl}/api/v10/gateway`);
      expect(res.status).toBe(200);
      // Closing the server flushes the batch of spans.
      await server.close();
      const traces = collector.received.filter((r) => r.path === '/v1/traces');
      expect(traces.length).toBeGreaterThan(0);
      const body = traces.map((t) => t.body).join('\n');
      expect(body).toContain('GET /api/v10/gateway');
      expect(body).toContain('guildhall');
    } finally {
      await collector.close();
    }
  });
});
