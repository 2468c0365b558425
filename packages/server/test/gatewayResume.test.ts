import { ApplicationFlags, GatewayIntentBits as I } from '@guildhall/protocol';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { EventBus } from '../src/bus/index.js';
import { MemoryBus } from '../src/bus/memory/index.js';
import { createBusDispatcher, type AnyDispatch } from '../src/events/dispatcher.js';
import { expandScopes } from '../src/oauth/index.js';
import { SESSION_RELEASE_SUBJECT } from '../src/gateway/handoff.js';
import { describeDrivers } from './support/drivers.js';
import { uniqueName } from './support/fileServer.js';
import { connectGateway, identifyGateway } from './support/gatewayClient.js';
import { useGatewayFixture } from './support/gatewayFixture.js';
import { guildFixture } from './support/guildMembers.js';
import { nodesDatabase, openNodePair } from './support/nodePair.js';
import { postgresAvailable } from './support/postgres.js';
import { seedDeveloper, startTestServer, type TestServer } from './support/testServer.js';

const SLOW_RELEASE_MS = 100;

const roleEvent = (guildId: string, id: string) => ({
  type: 'GUILD_ROLE_CREATE',
  guildId,
  data: { guild_id: guildId, role: { id, name: id, permissions: '0', position: 1 } },
});

describeDrivers('gateway resume on $driver', (driver) => {
  const gw = useGatewayFixture({ driver, gateway: { replayLimit: 3 } });
  const start = () => gw.session({ token: gw.guild.bot.token, intents: I.GUILDS });
  const reconnect = () => gw.connect();

  it('replays what the session missed, then RESUMED', async () => {
    const { client, ready } = await start();
    gw.server.app.gateway.dropAll(4000);
    expect((await client.closed).code).toBe(4000);
    gw.events.dispatch([roleEvent(gw.guild.guildId, '901'), roleEvent(gw.guild.guildId, '902')]);
    await expect.poll(() => gw.server.app.gateway.sessionCount()).toBe(1);
    const resumed = await reconnect();
    // Give the bus a moment to deliver both events before resuming (delivery is asynchronous).
    await new Promise((resolve) => setTimeout(resolve, 50));
    resumed.send(6, { token: gw.guild.bot.token, session_id: ready.session_id, seq: 2 });
    const done = await resumed.dispatch('RESUMED');
    const replayed = resumed.frames.filter((f) => f.t === 'GUILD_ROLE_CREATE');
    expect(replayed.map((f) => [f.s, (f.d as { role: { id: string } }).role.id])).toEqual([
      [3, '901'],
      [4, '902'],
    ]);
    expect(done.s).toBe(5);
    // Live dispatches continue on the resumed connection.
    gw.events.dispatch(roleEvent(gw.guild.guildId, '903'));
    const live = await resumed.next((f) => f.t === 'GUILD_ROLE_CREATE' && f.s === 6);
    expect((live.d as { role: { id: string } }).role.id).toBe('903');
  });

  it('INVALID_SESSION false for an unknown session or a seq older than the buffer', async () => {
    const unknown = await reconnect();
    unknown.send(6, { token: gw.guild.bot.token, session_id: 'nope', seq: 1 });
    expect((await unknown.next((f) => f.op === 9)).d).toBe(false);
    const { client, ready } = await start();
    client.raw.terminate();
    await client.closed;
    gw.events.dispatch(
      ['1', '2', '3', '4', '5', '6', '7', '8'].map((id) => roleEvent(gw.guild.guildId, `90${id}`)),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const late = await reconnect();
    late.send(6, { token: gw.guild.bot.token, session_id: ready.session_id, seq: 1 });
    expect((await late.next((f) => f.op === 9)).d).toBe(false);
  });

  it("4004 for a bad or another user's token, the session left as it was", async () => {
    const { client, ready } = await start();
    const stranger = await gw.guild.join('stranger');
    for (const token of ['Bot nope', stranger.token, '']) {
      const attempt = await reconnect();
      attempt.send(6, { token, session_id: ready.session_id, seq: 1 });
      expect((await attempt.closed).code).toBe(4004);
    }
    // An unknown session with a bad token learns nothing about which sessions exist.
    const probe = await reconnect();
    probe.send(6, { token: 'Bot nope', session_id: 'nope', seq: 1 });
    expect((await probe.closed).code).toBe(4004);
    // The live connection was not touched: it still receives dispatches.
    gw.events.dispatch(roleEvent(gw.guild.guildId, '904'));
    await client.next((f) => f.t === 'GUILD_ROLE_CREATE');
    expect(client.raw.readyState).toBe(client.raw.OPEN);
  });

  it('RESUME refuses what IDENTIFY refuses: a privileged intent turned off since', async () => {
    await gw.server.app.storage.applications.update(gw.guild.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED,
    });
    const { client, ready } = await gw.session({
      token: gw.guild.bot.token,
      intents: I.GUILDS | I.MESSAGE_CONTENT,
    });
    client.raw.terminate();
    await client.closed;
    await gw.server.app.storage.applications.update(gw.guild.bot.applicationId, { flags: 0n });
    const refused = await reconnect();
    refused.send(6, { token: gw.guild.bot.token, session_id: ready.session_id, seq: 2 });
    expect((await refused.closed).code).toBe(4014);
    // Allowed again, the same session resumes.
    await gw.server.app.storage.applications.update(gw.guild.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED,
    });
    const resumed = await reconnect();
    resumed.send(6, { token: gw.guild.bot.token, session_id: ready.session_id, seq: 2 });
    await resumed.dispatch('RESUMED');
  });

  it('4007 for a seq the session never reached', async () => {
    const { client, ready } = await start();
    client.raw.terminate();
    await client.closed;
    const resumed = await reconnect();
    resumed.send(6, { token: gw.guild.bot.token, session_id: ready.session_id, seq: 50 });
    expect((await resumed.closed).code).toBe(4007);
  });
});

describe('gateway shutdown', () => {
  it('sends op 7 RECONNECT to every session, then closes', async () => {
    const server = await startTestServer({ listen: true });
    const fixture = await guildFixture(server, { botPermissions: 0n });
    const { client } = await identifyGateway(server.app.gatewayUrl(), {
      token: fixture.bot.token,
      intents: I.GUILDS,
    });
    await server.close();
    expect(client.frames.at(-1)).toEqual({ op: 7, d: null, s: null, t: null });
    expect((await client.closed).code).toBe(1012);
  });
});

describe.skipIf(!postgresAvailable)('gateway resume across nodes (PostgreSQL)', () => {
  /** Two listening nodes sharing a PostgreSQL schema and a bus, and what closes them. */
  interface Nodes {
    bus: MemoryBus;
    first: TestServer;
    second: TestServer;
    close: () => Promise<void>;
  }

  /** Starts two nodes on a pooled schema and one bus; `firstBus` wraps it as the first sees it. */
  const openNodes = async (firstBus?: (bus: EventBus) => EventBus): Promise<Nodes> => {
    const bus = new MemoryBus();
    const { options, cleanup } = await nodesDatabase('postgres');
    const pair = await openNodePair({
      options: { ...options, bus, listen: true },
      ...(firstBus === undefined ? {} : { a: { bus: firstBus(bus) } }),
      cleanup,
    });
    return { bus, first: pair.a, second: pair.b, close: pair.close };
  };

  // The block's pair, for the tests that take the bus as it is: started by the first of them.
  let shared: Promise<Nodes> | undefined;
  /** What ends the test: its sessions on the block's pair, or a pair of its own. */
  let endTest: (() => void | Promise<void>) | undefined;
  afterEach(async () => {
    const end = endTest;
    endTest = undefined;
    await end?.();
  });
  afterAll(async () => {
    // A pair that failed to start has closed what it had started.
    const nodes = await shared?.catch(() => undefined);
    shared = undefined;
    await nodes?.close();
  });

  /**
   * The block's pair, or with `firstBus` a pair of the test's own whose first node sees the bus
   * through it; and a guild of the test's own with a bot.
   */
  const startNodes = async (firstBus?: (bus: EventBus) => EventBus) => {
    let nodes: Nodes;
    if (firstBus === undefined) {
      nodes = await (shared ??= openNodes());
    } else {
      const own = await openNodes(firstBus);
      endTest = own.close;
      nodes = own;
    }
    const fixture = await guildFixture(nodes.first, { botPermissions: 0n });
    if (firstBus === undefined) {
      // This test's sessions end rather than wait for a RESUME: the next one counts the pair's.
      endTest = () => {
        for (const { app } of [nodes.first, nodes.second]) {
          app.gateway.revoke({ tokenHashes: [], userIds: fixture.userIds() });
        }
      };
    }
    return { bus: nodes.bus, first: nodes.first.app, second: nodes.second.app, fixture };
  };

  it('resumes on another node sharing the database and the bus', async () => {
    const { bus, first, second, fixture } = await startNodes();
    const { client, ready } = await identifyGateway(first.gatewayUrl(), {
      token: fixture.bot.token,
      intents: I.GUILDS,
    });
    await client.dispatch('GUILD_CREATE');
    await expect.poll(() => first.storage.gateway.findSession(ready.session_id)).not.toBeNull();
    const firstNode = (await first.storage.gateway.findSession(ready.session_id))?.node;
    first.gateway.dropAll(4000);
    await client.closed;
    const events = createBusDispatcher<AnyDispatch>({
      bus,
      clock: { now: () => Date.now() },
      onError: () => undefined,
    });
    events.dispatch(roleEvent(fixture.guildId, '777'));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const resumed = await connectGateway(second.gatewayUrl());
    await resumed.next((f) => f.op === 10);
    resumed.send(6, { token: fixture.bot.token, session_id: ready.session_id, seq: 2 });
    await resumed.dispatch('RESUMED');
    const replayed = resumed.frames.find((f) => f.t === 'GUILD_ROLE_CREATE');
    expect(replayed?.s).toBe(3);
    // Later dispatches reach the session on its new node.
    events.dispatch(roleEvent(fixture.guildId, '778'));
    const live = await resumed.next((f) => f.t === 'GUILD_ROLE_CREATE' && f.s === 5);
    expect((live.d as { role: { id: string } }).role.id).toBe('778');
    await expect.poll(() => first.gateway.sessionCount()).toBe(0);
    // Its row names the second node now: it is not swept when the first one stops.
    await expect
      .poll(async () => (await second.storage.gateway.findSession(ready.session_id))?.node)
      .not.toBe(firstNode);
    expect(firstNode).toMatch(/^[0-9a-f]{16}$/);
    resumed.raw.terminate();
  });

  it('hands a session over while dispatches flow: none is lost, none is sent twice', async () => {
    // The first node takes 100 ms to act on RELEASE: dispatches meanwhile reach the session on
    // both nodes, and the second must not send again what the first sent.
    let slowReleases = 0;
    const { bus, first, second, fixture } = await startNodes((bus) => ({
      driver: bus.driver,
      history: bus.history,
      publish: (subject, event) => bus.publish(subject, event),
      subscribe: (subject, handler) =>
        bus.subscribe(subject, (event, delivered) =>
          subject === SESSION_RELEASE_SUBJECT
            ? new Promise<void>((resolve) => {
                slowReleases += 1;
                setTimeout(resolve, SLOW_RELEASE_MS);
              }).then(() => handler(event, delivered))
            : handler(event, delivered),
        ),
      ping: () => bus.ping(),
      close: () => bus.close(),
    }));
    const { client, ready } = await identifyGateway(first.gatewayUrl(), {
      token: fixture.bot.token,
      intents: I.GUILDS,
    });
    await client.dispatch('GUILD_CREATE');
    const events = createBusDispatcher<AnyDispatch>({
      bus,
      clock: { now: () => Date.now() },
      onError: () => undefined,
    });
    const roleOf = (f: { t: string | null; d: unknown }) =>
      f.t === 'GUILD_ROLE_CREATE' ? (f.d as { role: { id: string } }).role.id : null;
    // A role every 2 ms, from before the drop until well after the RESUME: the second node
    // watches the guild, then the first lets go, while they keep coming.
    let published = 0;
    const flow = { on: true };
    const traffic = (async () => {
      while (flow.on) {
        events.dispatch(roleEvent(fixture.guildId, `r${String(published++)}`));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    await client.next((f) => roleOf(f) === 'r20', 10_000);
    first.gateway.dropAll(4000);
    await client.closed;
    const lastSeq = Math.max(...client.frames.map((f) => f.s ?? 0));
    const resumed = await connectGateway(second.gatewayUrl());
    await resumed.next((f) => f.op === 10);
    resumed.send(6, { token: fixture.bot.token, session_id: ready.session_id, seq: lastSeq });
    const at = (await resumed.dispatch('RESUMED', 10_000)).s ?? 0;
    await resumed.next((f) => (f.s ?? 0) > at + 20, 10_000);
    flow.on = false;
    await traffic;
    const last = `r${String(published - 1)}`;
    await resumed.next((f) => roleOf(f) === last, 10_000);

    const dispatches = [...client.frames, ...resumed.frames].filter((f) => f.op === 0);
    const roles = dispatches.map(roleOf).filter((id) => id !== null);
    expect(roles).toEqual(Array.from({ length: published }, (_, i) => `r${String(i)}`));
    expect(dispatches.map((f) => f.s)).toEqual(dispatches.map((_, i) => i + 1));
    // The first node did act on the release late: the overlap above was there to be handled.
    expect(slowReleases).toBeGreaterThan(0);
    resumed.raw.terminate();
  });

  it('a RESUME with a bad token on another node leaves the session where it is', async () => {
    const { bus, first, second, fixture } = await startNodes();
    const { client, ready } = await identifyGateway(first.gatewayUrl(), {
      token: fixture.bot.token,
      intents: I.GUILDS,
    });
    await client.dispatch('GUILD_CREATE');
    const stranger = await fixture.join('stranger');
    for (const token of ['Bot nope', stranger.token]) {
      const attempt = await connectGateway(second.gatewayUrl());
      await attempt.next((f) => f.op === 10);
      attempt.send(6, { token, session_id: ready.session_id, seq: 2 });
      expect((await attempt.closed).code).toBe(4004);
    }
    // The first node still serves the session: it was neither asked to let go nor closed.
    expect(first.gateway.sessionCount()).toBe(1);
    expect(second.gateway.sessionCount()).toBe(0);
    const events = createBusDispatcher<AnyDispatch>({
      bus,
      clock: { now: () => Date.now() },
      onError: () => undefined,
    });
    events.dispatch(roleEvent(fixture.guildId, '779'));
    const live = await client.next((f) => f.t === 'GUILD_ROLE_CREATE');
    expect((live.d as { role: { id: string } }).role.id).toBe('779');
    expect(client.raw.readyState).toBe(client.raw.OPEN);
    client.raw.terminate();
  });

  it('an SDK session resumes on another node: still no guild, still its game', async () => {
    const { bus, first, second, fixture } = await startNodes();
    const player = await fixture.join('player');
    const seed = await seedDeveloper(first, uniqueName('game'));
    const { access_token: token } = await first.services.oauth.issueTokens({
      userId: player.userId,
      applicationId: seed.applicationId,
      scopes: expandScopes(['sdk.social_layer']),
      refresh: false,
    });
    const { client, ready } = await identifyGateway(first.gatewayUrl(), { token, intents: 0 });
    const seq = client.frames.at(-1)?.s ?? 0;
    first.gateway.dropAll(4000);
    await client.closed;
    const events = createBusDispatcher<AnyDispatch>({
      bus,
      clock: { now: () => Date.now() },
      onError: () => undefined,
    });
    const toPlayer = (type: string, data: Record<string, unknown>) => ({
      type,
      guildId: null,
      userIds: [player.userId],
      data,
    });
    events.dispatch(toPlayer('LOBBY_UPDATE', { id: '1' }));
    const resumed = await connectGateway(second.gatewayUrl());
    await resumed.next((f) => f.op === 10);
    resumed.send(6, { token, session_id: ready.session_id, seq });
    await resumed.dispatch('RESUMED');
    expect(resumed.frames.some((f) => f.t === 'LOBBY_UPDATE')).toBe(true);
    // On its new node: the game's ACTIVITY_JOIN reaches it, another game's and guild events do not.
    events.dispatch([
      roleEvent(fixture.guildId, '780'),
      toPlayer('ACTIVITY_JOIN', { application_id: fixture.bot.applicationId, secret: 'a' }),
      toPlayer('ACTIVITY_JOIN', { application_id: seed.applicationId, secret: 'b' }),
    ]);
    expect((await resumed.dispatch('ACTIVITY_JOIN')).d).toMatchObject({ secret: 'b' });
    expect(resumed.frames.some((f) => f.t === 'GUILD_ROLE_CREATE' || f.t === 'GUILD_CREATE')).toBe(
      false,
    );
    resumed.raw.terminate();
  });
});
