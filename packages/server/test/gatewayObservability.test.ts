/**
 * What an operator sees of the gateway (docs/operations.md#gateway): one info line per session
 * event (identify, resume, invalid session, close), with the session id and shard and never a
 * token, and the counters and gauges /metrics shows, scraped over HTTP as a collector does.
 *
 * @module
 */
import { GatewayIntentBits as I } from '@guildhall/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../src/logger.js';
import { connectGateway, identifyGateway, type GatewayClient } from './support/gatewayClient.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { startTestServer, type TestServer } from './support/testServer.js';

interface LogLine {
  msg: string;
  sessionId?: string;
  shard?: [number, number];
  code?: number;
  reason?: string;
  by?: string;
  login?: string;
  replayed?: number;
}

/** The value of a sample of /metrics (`name{labels}`), 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

describe('gateway observability', () => {
  const raw: string[] = [];
  let server: TestServer;
  let guild: GuildFixture;
  const clients: GatewayClient[] = [];
  const lines = () => raw.map((line) => JSON.parse(line) as LogLine);
  const gatewayLines = (msg: string) => lines().filter((line) => line.msg === msg);
  const scrape = async () => {
    const res = await fetch(`${server.baseUrl}/metrics`);
    expect(res.status).toBe(200);
    return res.text();
  };
  const identify = async (shard?: [number, number]) => {
    const session = await identifyGateway(server.app.gatewayUrl(), {
      token: guild.bot.token,
      intents: I.GUILDS,
      ...(shard === undefined ? {} : { shard }),
    });
    clients.push(session.client);
    return session;
  };
  const connect = async () => {
    const client = await connectGateway(server.app.gatewayUrl());
    clients.push(client);
    await client.next((f) => f.op === 10);
    return client;
  };

  beforeAll(async () => {
    server = await startTestServer({
      listen: true,
      gateway: { identifiesPerBucket: 1000 },
      logger: createLogger('info', { write: (line: string) => raw.push(line) }),
    });
    guild = await guildFixture(server, { botPermissions: 0n });
  });
  afterAll(async () => {
    for (const client of clients) client.raw.terminate();
    await server.close();
  });

  it('logs identify, resume, invalid session and close once each, with session and shard', async () => {
    const { client, ready } = await identify([0, 1]);
    const sessionId = ready.session_id;
    expect(gatewayLines('gateway: session identified')).toEqual([
      expect.objectContaining({ sessionId, shard: [0, 1] }),
    ]);
    // A resumable close by the client, then the RESUME.
    client.raw.close(4000, 'going to resume');
    await client.closed;
    const again = await connect();
    again.send(6, { token: guild.bot.token, session_id: sessionId, seq: 1 });
    await again.dispatch('RESUMED');
    // A RESUME of a session nobody has: INVALID_SESSION, one line naming the RESUME.
    const stranger = await connect();
    stranger.send(6, { token: guild.bot.token, session_id: 'f'.repeat(32), seq: 1 });
    await stranger.next((f) => f.op === 9);
    // A token that opens nothing: refused with 4004.
    const refused = await connect();
    refused.send(2, { token: 'Bot not-a-token', intents: 0, properties: {} });
    expect((await refused.closed).code).toBe(4004);
    await again.close(1000);

    const resumed = gatewayLines('gateway: session resumed');
    expect(resumed).toEqual([expect.objectContaining({ sessionId, shard: [0, 1] })]);
    expect(resumed[0]?.replayed).toBeTypeOf('number');
    expect(gatewayLines('gateway: invalid session')).toEqual([
      expect.objectContaining({
        login: 'resume',
        sessionId: 'f'.repeat(32),
        reason: 'unknown_session',
      }),
    ]);
    expect(gatewayLines('gateway: identify refused')).toEqual([
      expect.objectContaining({ reason: 'authentication_failed' }),
    ]);
    const closes = gatewayLines('gateway: connection closed');
    expect(closes).toContainEqual(
      expect.objectContaining({ sessionId, shard: [0, 1], code: 4000, by: 'client' }),
    );
    expect(closes).toContainEqual(expect.objectContaining({ code: 4004, by: 'server' }));
    expect(closes).toContainEqual(expect.objectContaining({ sessionId, code: 1000, by: 'client' }));
  });

  it('writes no token in any line, a refused one included', () => {
    const secret = guild.bot.token.slice('Bot '.length);
    const text = raw.join('\n');
    expect(text).toContain('gateway: session identified');
    expect(text).not.toContain(secret);
    expect(text).not.toContain('not-a-token');
  });

  it('counts logins, dispatches and closes on /metrics, and gauges the sessions', async () => {
    const before = await scrape();
    const { client, ready } = await identify();
    // GUILD_UPDATE is a dispatch the session is sent.
    const renamed = await guild.call('PATCH', `/guilds/${guild.guildId}`, {
      auth: guild.owner.token,
      payload: { name: 'Renamed for metrics' },
    });
    expect(renamed.statusCode).toBe(200);
    await client.dispatch('GUILD_UPDATE');
    const during = await scrape();
    expect(sample(during, 'guildhall_gateway_sessions{encoding="json",compression="none"}')).toBe(
      1,
    );
    expect(sample(during, 'guildhall_gateway_queued_bytes')).toBeGreaterThanOrEqual(0);

    client.raw.close(4000);
    await client.closed;
    const resumed = await connect();
    resumed.send(6, { token: guild.bot.token, session_id: ready.session_id, seq: 2 });
    await resumed.dispatch('RESUMED');
    const stale = await connect();
    stale.send(6, { token: guild.bot.token, session_id: 'e'.repeat(32), seq: 0 });
    await stale.next((f) => f.op === 9);
    const after = await scrape();

    const moved = (series: string) => sample(after, series) - sample(before, series);
    expect(moved('guildhall_gateway_identifies_total{result="ok"}')).toBe(1);
    expect(moved('guildhall_gateway_resumes_total{result="ok"}')).toBe(1);
    expect(
      moved('guildhall_gateway_resumes_total{result="refused",reason="unknown_session"}'),
    ).toBe(1);
    expect(
      moved('guildhall_gateway_invalid_sessions_total{resumable="false",reason="unknown_session"}'),
    ).toBe(1);
    // READY, the GUILD_CREATE, GUILD_UPDATE and RESUMED at least.
    expect(moved('guildhall_gateway_dispatches_sent_total')).toBeGreaterThanOrEqual(4);
    expect(moved('guildhall_gateway_closes_total{code="4000",by="client"}')).toBe(1);
    expect(moved('guildhall_gateway_identify_wait_seconds_count')).toBe(1);
    expect(after).toContain('# TYPE guildhall_gateway_history_replays_total counter');
    expect(after).toContain('# TYPE guildhall_webhook_events_failed_total counter');
  });
});
