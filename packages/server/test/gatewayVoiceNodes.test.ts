/**
 * Op 4 across nodes: two platform nodes on one PostgreSQL schema, one NATS subject prefix and one
 * Redis key prefix. A voice node announced through node A's shared state is where node B sends
 * a session that joins, and B's session gets its VOICE_SERVER_UPDATE after its own voice state
 * (both come over NATS); the call stays on its node for a second session on A. And the speaking
 * feed across them: a follower on node B (op 1001) hears a speaker whose call joined through A.
 *
 * @module
 */
import {
  GatewayIntentBits as I,
  GuildhallGatewayOpcodes as GuildhallOp,
} from '@guildhall/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { identifyGateway, type Frame, type GatewayClient } from './support/gatewayClient.js';
import { guildFixture } from './support/guildMembers.js';
import { TEST_NATS_URL, natsAvailable, uniqueSubjectPrefix } from './support/nats.js';
import { dropSchema, postgresAvailable, uniqueSchema } from './support/postgres.js';
import {
  TEST_REDIS_URL,
  deleteRedisPrefix,
  redisAvailable,
  uniqueRedisPrefix,
} from './support/redis.js';
import { startTestServer, type TestServer } from './support/testServer.js';
import { joinCallAt, speakerIn } from './support/voiceCalls.js';

const INTENTS = I.GUILDS | I.GUILD_VOICE_STATES;
const ready = natsAvailable && postgresAvailable && redisAvailable;

describe.skipIf(!ready)('voice servers across nodes (PostgreSQL, NATS, Redis)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  /**
   * Starts node `processId` of a deployment of the test's own: one PostgreSQL schema, NATS
   * subject prefix and Redis key prefix, removed after the test.
   */
  const deployment = (name: string) => {
    const schema = uniqueSchema(name);
    const redisPrefix = uniqueRedisPrefix(name);
    cleanups.push(
      () => dropSchema(schema),
      () => deleteRedisPrefix(redisPrefix),
    );
    const config = {
      natsUrl: TEST_NATS_URL,
      natsSubjectPrefix: uniqueSubjectPrefix(name),
      natsHistorySeconds: 0,
      redisUrl: TEST_REDIS_URL,
      redisKeyPrefix: redisPrefix,
    };
    return async (processId: number): Promise<TestServer> => {
      const server = await startTestServer({
        storage: 'postgres',
        database: schema,
        listen: true,
        processId,
        config,
        gateway: { identifiesPerBucket: 1000 },
      });
      cleanups.push(() => server.close());
      return server;
    };
  };

  /** Two nodes of a deployment, a guild on node A and a voice channel named `channel` in it. */
  const twoNodes = async (name: string, channel: string) => {
    const start = deployment(name);
    const a = await start(1);
    const b = await start(2);
    const fx = await guildFixture(a, { botPermissions: 0n });
    const created = await fx.call('POST', `/guilds/${fx.guildId}/channels`, {
      auth: fx.owner.token,
      payload: { name: channel, type: 2 },
    });
    return { a, b, fx, channelId: created.json<{ id: string }>().id };
  };

  it('sends a join on any node to the voice node holding the call, new calls to the idlest', async () => {
    const { a, b, fx, channelId } = await twoNodes('voicenodes', 'voice');

    // A voice node announces itself on node A's shared state (Redis).
    await a.app.voicePlacement.register('10.9.8.7:9000');
    await a.app.voicePlacement.heartbeat(0);

    const session = async (server: TestServer): Promise<GatewayClient> => {
      const { client } = await identifyGateway(server.app.gatewayUrl(), {
        token: fx.bot.token,
        intents: INTENTS,
      });
      await client.dispatch('GUILD_CREATE');
      cleanups.push(async () => {
        client.raw.terminate();
        await client.closed;
      });
      return client;
    };
    const onB = await session(b);
    onB.send(4, {
      guild_id: fx.guildId,
      channel_id: channelId,
      self_mute: false,
      self_deaf: false,
    });
    const server = await onB.dispatch('VOICE_SERVER_UPDATE');
    const state = await onB.next((f: Frame) => f.t === 'VOICE_STATE_UPDATE');
    expect(state.s ?? 0).toBeLessThan(server.s ?? 0);
    expect(server.d).toMatchObject({ guild_id: fx.guildId, endpoint: '10.9.8.7:9000' });
    expect(await b.app.voicePlacement.pick(channelId)).toBe('10.9.8.7:9000');

    // A second, idle voice node announces itself on node B; the first one gets busy. The call
    // stays where it is, for a session on node A too; a new call goes to the idle node.
    await b.app.voicePlacement.register('10.9.8.6:9000');
    await b.app.voicePlacement.heartbeat(0);
    await a.app.voicePlacement.heartbeat(5, [channelId]);
    const second = await fx.call('POST', `/guilds/${fx.guildId}/channels`, {
      auth: fx.owner.token,
      payload: { name: 'second', type: 2 },
    });
    expect(await a.app.voicePlacement.pick(second.json<{ id: string }>().id)).toBe('10.9.8.6:9000');
    const onA = await session(a);
    onA.send(4, { guild_id: fx.guildId, channel_id: channelId, self_mute: true, self_deaf: false });
    expect((await onA.dispatch('VOICE_SERVER_UPDATE')).d).toMatchObject({
      endpoint: '10.9.8.7:9000',
    });
  });

  it("carries a speaker in a call through node A to op 1001's follower on node B", async () => {
    const { a, b, fx, channelId } = await twoNodes('speaking', 'Lounge');

    // Ann follows Lounge from node B (docs/gateway.md#guildhalls-own).
    const ann = await fx.join('ann');
    const { client: follower } = await identifyGateway(b.app.gatewayUrl(), {
      token: ann.token,
      intents: INTENTS,
    });
    cleanups.push(async () => {
      follower.raw.terminate();
      await follower.closed;
    });
    await follower.dispatch('GUILD_CREATE');
    follower.send(GuildhallOp.SPEAKING_SUBSCRIBE, { guild_id: fx.guildId, channel_id: channelId });

    // The owner joins Lounge's call through node A and speaks on the call's voice node: the
    // change crosses NATS to node B.
    const owner = await joinCallAt(a.app.gatewayUrl(), fx.owner.token, {
      guildId: fx.guildId,
      channelId,
    });
    const talker = await speakerIn(owner);
    cleanups.push(async () => {
      talker.voice.raw.terminate();
      owner.client.raw.terminate();
      await Promise.all([talker.voice.closed, owner.client.closed]);
    });
    talker.speak(1);
    const heard = await follower.next((f: Frame) => f.t === 'SPEAKING_UPDATE');
    expect(heard.d).toEqual({
      guild_id: fx.guildId,
      channel_id: channelId,
      user_id: fx.owner.userId,
      speaking: true,
    });
  });
});
