/**
 * A gateway node dies: two nodes on PostgreSQL and NATS, each with its own connection, and the
 * first cut off at once (it hears nothing more, answers nothing, sends nothing) while dispatches
 * keep coming, its last replay entries lost as if never written. The session resumes on the
 * second node, which reads what the session missed from the bus history (docs/gateway.md, Where
 * sessions live): no dispatch is lost, and only those the dead node sent but never stored may
 * come twice.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayIntentBits as I } from '@guildhall/protocol';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp, type App } from '../src/app.js';
import type { EventBus } from '../src/bus/index.js';
import { createNatsBus, historyStreamName } from '../src/bus/nats/index.js';
import { loadConfig } from '../src/config.js';
import { ALL_DISPATCHES, createBusDispatcher, type AnyDispatch } from '../src/events/dispatcher.js';
import { createLogger } from '../src/logger.js';
import { createPostgresStorage } from '../src/storage/postgres/index.js';
import { connectGateway, identifyGateway, type Frame } from './support/gatewayClient.js';
import { guildFixture } from './support/guildMembers.js';
import { TEST_NATS_URL, deleteStream, natsAvailable, uniqueSubjectPrefix } from './support/nats.js';
import {
  TEST_DATABASE_URL,
  dropSchema,
  postgresAvailable,
  uniqueSchema,
} from './support/postgres.js';
import type { TestServer } from './support/testServer.js';
import { countAppStart } from './support/testServer.js';

/** Replay entries of the dead node taken as never written (it writes every 25 ms). */
const LOST_ENTRIES = 5;

const roleEvent = (guildId: string, id: string) => ({
  type: 'GUILD_ROLE_CREATE',
  guildId,
  data: { guild_id: guildId, role: { id, name: id, permissions: '0', position: 1 } },
});

const roleOf = (f: Frame) =>
  f.t === 'GUILD_ROLE_CREATE' ? (f.d as { role: { id: string } }).role.id : null;

/** A bus a test can cut, as a node that died: nothing in, nothing out. */
function severable(bus: EventBus) {
  const state = { cut: false };
  const wrapped: EventBus = {
    driver: bus.driver,
    history: bus.history,
    publish: (subject, event) => (state.cut ? Promise.resolve() : bus.publish(subject, event)),
    subscribe: (subject, handler) =>
      bus.subscribe(subject, (event, delivered) =>
        state.cut ? undefined : handler(event, delivered),
      ),
    ping: () => bus.ping(),
    close: () => bus.close(),
  };
  return {
    bus: wrapped,
    sever: () => {
      state.cut = true;
    },
  };
}

/** The replay entries the database holds for a session, as seqs. */
async function storedSeqs(schema: string, sessionId: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ seq: string }>(
      `SELECT seq FROM "${schema}".gateway_replay WHERE session_id = $1 ORDER BY seq`,
      [sessionId],
    );
    return rows.map((row) => Number(row.seq));
  } finally {
    await client.end();
  }
}

async function forgetEntriesAfter(schema: string, sessionId: string, seq: number) {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(
      `DELETE FROM "${schema}".gateway_replay WHERE session_id = $1 AND seq > $2`,
      [sessionId, seq],
    );
  } finally {
    await client.end();
  }
}

describe.skipIf(!postgresAvailable || !natsAvailable)('a gateway node that dies', () => {
  let schema: string;
  let subjectPrefix: string;
  let dataDir: string;
  let nodes: App[] = [];
  const buses: EventBus[] = [];
  /** The log lines of the node taking the session over. */
  let takingLog: { msg: string; sessionId?: string; recovered?: number | null }[] = [];
  /** Samples of the taking node's /metrics. */
  const metricOf = async (app: App, series: string) => {
    const text = (await app.http.inject({ method: 'GET', url: '/metrics' })).body;
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line === undefined ? 0 : Number(line.slice(series.length + 1));
  };

  beforeEach(async () => {
    schema = uniqueSchema('recovery');
    takingLog = [];
    subjectPrefix = uniqueSubjectPrefix('recovery');
    dataDir = await mkdtemp(join(tmpdir(), 'guildhall-recovery-'));
  });
  afterEach(async () => {
    for (const node of nodes) await node.close();
    nodes = [];
    for (const bus of buses.splice(0)) await bus.close();
    await deleteStream(historyStreamName(subjectPrefix));
    await dropSchema(schema);
    await rm(dataDir, { recursive: true, force: true });
  });

  /** A NATS bus of this test, keeping the dispatches' history unless told not to. */
  const natsBus = (keepHistory: boolean) =>
    createNatsBus({
      servers: TEST_NATS_URL,
      subjectPrefix,
      ...(keepHistory ? { history: { subjects: [ALL_DISPATCHES], keepMs: 60_000 } } : {}),
    });

  const startNodes = async (keepHistory: boolean) => {
    const config = {
      // Port 0 read as the API's: the voice port is then a free one too.
      ...loadConfig({ GUILDHALL_PORT: '0' }, []),
      dataDir,
      logLevel: 'silent' as const,
      demo: false,
    };
    const first = severable(await natsBus(keepHistory));
    for (const [i, bus] of [first.bus, await natsBus(keepHistory)].entries()) {
      const storage = await createPostgresStorage({ connectionString: TEST_DATABASE_URL, schema });
      countAppStart();
      const app = await createApp(config, {
        processId: i,
        overrides: { storage, bus, gateway: { identifiesPerBucket: 100 } },
        ...(i === 1
          ? {
              logger: createLogger('info', {
                write: (line: string) => takingLog.push(JSON.parse(line) as (typeof takingLog)[0]),
              }),
            }
          : {}),
      });
      nodes.push(app);
      await app.listen();
    }
    const [dying, taking] = nodes as [App, App];
    const fixture = await guildFixture({ app: dying, baseUrl: dying.baseUrl() } as TestServer, {
      botPermissions: 0n,
    });
    // The API node's connection: it publishes on, whatever happens to the gateway nodes.
    const api = await natsBus(keepHistory);
    buses.push(api);
    const events = createBusDispatcher<AnyDispatch>({
      bus: api,
      clock: { now: () => Date.now() },
      onError: () => undefined,
    });
    return { dying, taking, sever: first.sever, fixture, events };
  };

  /**
   * Identifies on the dying node, keeps roles coming every 2 ms, cuts the node off after r20,
   * loses its last entries, and resumes on the other node with the last seq the client saw.
   */
  const dieAndResume = async (keepHistory: boolean) => {
    const { dying, taking, sever, fixture, events } = await startNodes(keepHistory);
    const { client, ready } = await identifyGateway(dying.gatewayUrl(), {
      token: fixture.bot.token,
      intents: I.GUILDS,
    });
    await client.dispatch('GUILD_CREATE');
    let published = 0;
    const flow = { on: true };
    const traffic = (async () => {
      while (flow.on) {
        events.dispatch(roleEvent(fixture.guildId, `r${String(published++)}`));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    await client.next((f) => roleOf(f) === 'r20', 10_000);
    sever();
    client.raw.terminate();
    await client.closed;
    const lastSeq = Math.max(...client.frames.map((f) => f.s ?? 0));
    // What the node recorded reaches the database; its last entries then go, as in a crash.
    await expect
      .poll(() => storedSeqs(schema, ready.session_id), { timeout: 5000 })
      .toContain(lastSeq);
    await forgetEntriesAfter(schema, ready.session_id, lastSeq - LOST_ENTRIES);
    const resumed = await connectGateway(taking.gatewayUrl());
    await resumed.next((f) => f.op === 10);
    resumed.send(6, { token: fixture.bot.token, session_id: ready.session_id, seq: lastSeq });
    const stop = async () => {
      flow.on = false;
      await traffic;
      return published;
    };
    return { client, resumed, lastSeq, stop, taking, sessionId: ready.session_id };
  };

  it('resumes on another node with every dispatch, from the bus history', async () => {
    const { client, resumed, lastSeq, stop, taking, sessionId } = await dieAndResume(true);
    const at = (await resumed.dispatch('RESUMED', 10_000)).s ?? 0;
    // One line says the session was taken over, with what the history gave back.
    const takeovers = takingLog.filter(
      (l) => l.msg === 'gateway: session taken over from a dead node',
    );
    expect(takeovers).toEqual([expect.objectContaining({ sessionId })]);
    expect(takeovers[0]?.recovered).toBeGreaterThan(0);
    expect(await metricOf(taking, 'guildhall_gateway_takeovers_total{from="dead"}')).toBe(1);
    expect(await metricOf(taking, 'guildhall_gateway_history_replays_total{result="ok"}')).toBe(1);
    await resumed.next((f) => (f.s ?? 0) > at + 20, 10_000);
    const published = await stop();
    const last = `r${String(published - 1)}`;
    await resumed.next((f) => roleOf(f) === last, 10_000);
    resumed.raw.terminate();

    // Every role, in order; the only ones seen twice are those whose entries were lost.
    const before = client.frames.map(roleOf).filter((id) => id !== null);
    const after = resumed.frames.map(roleOf).filter((id) => id !== null);
    const all = Array.from({ length: published }, (_, i) => `r${String(i)}`);
    expect([...new Set([...before, ...after])]).toEqual(all);
    const lost = client.frames
      .filter((f) => (f.s ?? 0) > lastSeq - LOST_ENTRIES)
      .map(roleOf)
      .filter((id) => id !== null);
    expect(after.filter((id) => before.includes(id))).toEqual(lost);
    // The resumed session numbers on from the client's seq.
    const seqs = resumed.frames.filter((f) => f.op === 0).map((f) => f.s);
    expect(seqs).toEqual(seqs.map((_, i) => lastSeq + 1 + i));
  });

  it('without a history, a client that saw more than was stored identifies anew', async () => {
    const { resumed, stop, taking, sessionId } = await dieAndResume(false);
    expect((await resumed.next((f) => f.op === 9, 10_000)).d).toBe(false);
    expect(takingLog.filter((l) => l.msg === 'gateway: invalid session')).toEqual([
      expect.objectContaining({ sessionId, reason: 'handoff_failed' }),
    ]);
    expect(
      await metricOf(taking, 'guildhall_gateway_history_replays_total{result="no_history"}'),
    ).toBe(1);
    await stop();
  });
});
