import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { connect as connectNats } from 'nats';
import {
  TEST_NATS_URL,
  deleteStream,
  natsAvailable,
  uniqueSubjectPrefix,
} from '../test/support/nats.js';
import {
  TEST_REDIS_URL,
  deleteRedisPrefix,
  redisAvailable,
  uniqueRedisPrefix,
} from '../test/support/redis.js';
import { openBus, openSharedState } from './appDrivers.js';
import { historyStreamName } from './bus/nats/index.js';
import { ConfigError, loadConfig } from './config.js';
import { manualClock } from './domain/clock.js';
import { createLogger } from './logger.js';

function captureLogs() {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as { level: number; msg: string });
      }
      done();
    },
  });
  return { logger: createLogger('info', sink), messages: () => lines.map((l) => l.msg) };
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A TCP relay to Redis that a test can cut (every connection dropped) and bring back. */
async function relayTo(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | null = null;
  let port = 0;
  const up = async () => {
    server = createServer((client) => {
      const upstream = connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream).pipe(client);
    });
    const listening = server;
    await new Promise<void>((resolve) => listening.listen(port, '127.0.0.1', resolve));
    port = (listening.address() as AddressInfo).port;
  };
  await up();
  return {
    url: `redis://127.0.0.1:${port}`,
    async cut() {
      const closing = server;
      server = null;
      for (const socket of sockets) socket.destroy();
      if (closing !== null) await new Promise((resolve) => closing.close(resolve));
    },
    up,
  };
}

describe('openSharedState', () => {
  it('keeps everything in the process without REDIS_URL', async () => {
    const { logger } = captureLogs();
    const state = await openSharedState(
      { redisUrl: null, redisKeyPrefix: 'guildhall:' },
      { logger, clock: manualClock(0) },
    );
    expect(state.driver).toBe('memory');
    await state.close();
  });

  it('stops the start with what to do when Redis does not answer, never naming credentials', async () => {
    const port = await closedPort();
    const { logger } = captureLogs();
    const opening = openSharedState(
      { redisUrl: `redis://app:hunter2@127.0.0.1:${port}/3`, redisKeyPrefix: 'guildhall:' },
      { logger, clock: manualClock(0) },
    );
    await expect(opening).rejects.toThrow(ConfigError);
    await expect(opening).rejects.toThrow(
      `Redis at redis://127.0.0.1:${port}/3 did not answer (connect ECONNREFUSED 127.0.0.1:${port}). Start Redis there or correct REDIS_URL (--redis-url), or unset it to keep rate limits, identify buckets and presences in this process; then start again.`,
    );
    await expect(opening).rejects.not.toThrow(/hunter2|app:/);
  });
});

describe.skipIf(!redisAvailable)('openSharedState on Redis', () => {
  it('serves from the process while Redis is away, then shares again', async () => {
    const relay = await relayTo(new URL(TEST_REDIS_URL));
    const redisKeyPrefix = uniqueRedisPrefix('failover');
    const { logger, messages } = captureLogs();
    const clock = manualClock(0);
    const config = { redisKeyPrefix };
    const node = await openSharedState({ ...config, redisUrl: relay.url }, { logger, clock });
    // Another node, on Redis directly, sees what this one counts.
    const other = await openSharedState({ ...config, redisUrl: TEST_REDIS_URL }, { logger, clock });
    const limit = { limit: 1, windowMs: 60_000 };
    try {
      expect(node.driver).toBe('redis');
      expect(await node.rateLimits.consume('shared', limit, 0)).toMatchObject({ allowed: true });
      expect(await other.rateLimits.peek('shared', limit, 0)).toMatchObject({ remaining: 0 });

      await relay.cut();
      // Failing safe: the request is answered (by this process's count), not refused or stalled.
      expect(await node.rateLimits.consume('cut', limit, 0)).toMatchObject({ allowed: true });
      expect(await node.rateLimits.consume('cut', limit, 0)).toMatchObject({ allowed: false });
      expect(await other.rateLimits.peek('cut', limit, 0)).toMatchObject({ remaining: 1 });
      expect(messages()).toContain(
        'Redis unavailable: rate limits, identify buckets and presences are kept per node until it answers',
      );

      await relay.up();
      await expect
        .poll(
          async () => {
            await node.rateLimits.peek('shared', limit, 0);
            return messages();
          },
          { timeout: 15_000, interval: 100 },
        )
        .toContain('Redis answers again: limits are shared again');
      expect(await node.rateLimits.consume('after', limit, 0)).toMatchObject({ allowed: true });
      expect(await other.rateLimits.consume('after', limit, 0)).toMatchObject({ allowed: false });
      expect(
        messages().filter((m) => m.startsWith('Redis unavailable')),
        'one warning for the whole outage',
      ).toHaveLength(1);
    } finally {
      await relay.cut();
      await Promise.all([node.close(), other.close()]);
      await deleteRedisPrefix(redisKeyPrefix);
    }
  });
});

describe.skipIf(!natsAvailable)('openBus on NATS', () => {
  const natsConfig = (env: Record<string, string>) =>
    loadConfig({ NATS_URL: TEST_NATS_URL, ...env });

  it('keeps the dispatches for the configured time under its prefix, or nothing at 0', async () => {
    const prefix = uniqueSubjectPrefix('drivers');
    const { logger } = captureLogs();
    const bus = await openBus(
      natsConfig({ GUILDHALL_NATS_PREFIX: prefix, GUILDHALL_NATS_HISTORY_SECONDS: '120' }),
      logger,
    );
    try {
      expect(bus.history?.keepMs).toBe(120_000);
      expect(bus.history?.covers('dispatch.guild.1')).toBe(true);
      expect(bus.history?.covers('gateway.session-release')).toBe(false);
      const since = Date.now() - 1000;
      await bus.publish('dispatch.guild.1', { type: 'T', topic: '1', data: {}, publishedAt: 1 });
      await bus.ping();
      expect(await bus.history?.read(['dispatch.guild.1'], since)).toHaveLength(1);
    } finally {
      await bus.close();
      await deleteStream(historyStreamName(prefix));
    }
    const none = await openBus(
      natsConfig({ GUILDHALL_NATS_PREFIX: prefix, GUILDHALL_NATS_HISTORY_SECONDS: '0' }),
      logger,
    );
    expect(none.history).toBeNull();
    await none.close();
  });

  it('stops the start with what to do when NATS cannot keep the history', async () => {
    const prefix = uniqueSubjectPrefix('drivers');
    const taken = `${historyStreamName(prefix)}_taken`;
    const nc = await connectNats({ servers: TEST_NATS_URL });
    try {
      const jsm = await nc.jetstreamManager();
      await jsm.streams.add({ name: taken, subjects: [`${prefix}dispatch.>`] });
      const refused = openBus(natsConfig({ GUILDHALL_NATS_PREFIX: prefix }), captureLogs().logger);
      await expect(refused).rejects.toThrow(ConfigError);
      await expect(refused).rejects.toThrow(
        'Start nats-server with JetStream (-js), or set GUILDHALL_NATS_HISTORY_SECONDS=0',
      );
    } finally {
      await nc.close();
      await deleteStream(taken);
    }
  });
});
