/**
 * The speaking feed across nodes (docs/gateway.md#guildhalls-own): two platform nodes on one
 * PostgreSQL schema, one NATS subject prefix and one Redis key prefix. A person's session on
 * node B follows a voice channel (op 1001); the owner joins its call through node A and speaks
 * on the voice node the call was placed on; the change crosses NATS to B's session.
 *
 * @module
 */
import {
  GatewayIntentBits as I,
  GuildhallGatewayOpcodes as GuildhallOp,
  VoiceOpcodes as VOp,
} from '@guildhall/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { identifyGateway, type Frame } from './support/gatewayClient.js';
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
import { connectVoice } from './support/voiceClient.js';

const INTENTS = I.GUILDS | I.GUILD_VOICE_STATES;
const ready = natsAvailable && postgresAvailable && redisAvailable;

describe.skipIf(!ready)('the speaking feed across nodes (PostgreSQL, NATS, Redis)', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it("carries a speaker on node A's call to a follower on node B", async () => {
    const schema = uniqueSchema('speaking');
    const redisPrefix = uniqueRedisPrefix('speaking');
    cleanups.push(
      () => dropSchema(schema),
      () => deleteRedisPrefix(redisPrefix),
    );
    const config = {
      natsUrl: TEST_NATS_URL,
      natsSubjectPrefix: uniqueSubjectPrefix('speaking'),
      natsHistorySeconds: 0,
      redisUrl: TEST_REDIS_URL,
      redisKeyPrefix: redisPrefix,
    };
    const start = async (processId: number): Promise<TestServer> => {
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
    const a = await start(1);
    const b = await start(2);
    const fx = await guildFixture(a, { botPermissions: 0n });
    const created = await fx.call('POST', `/guilds/${fx.guildId}/channels`, {
      auth: fx.owner.token,
      payload: { name: 'Lounge', type: 2 },
    });
    const channelId = created.json<{ id: string }>().id;

    const session = async (server: TestServer, token: string) => {
      const identified = await identifyGateway(server.app.gatewayUrl(), {
        token,
        intents: INTENTS,
      });
      await identified.client.dispatch('GUILD_CREATE');
      cleanups.push(async () => {
        identified.client.raw.terminate();
        await identified.client.closed;
      });
      return identified;
    };

    // Ann follows Lounge from node B.
    const ann = await fx.join('ann');
    const { client: follower } = await session(b, ann.token);
    follower.send(GuildhallOp.SPEAKING_SUBSCRIBE, { guild_id: fx.guildId, channel_id: channelId });

    // The owner joins Lounge's call through node A, and speaks.
    const { client: owner, ready: ownerReady } = await session(a, fx.owner.token);
    owner.send(4, {
      guild_id: fx.guildId,
      channel_id: channelId,
      self_mute: false,
      self_deaf: false,
    });
    const server = (await owner.dispatch('VOICE_SERVER_UPDATE')).d as {
      token: string;
      endpoint: string;
    };
    const voice = await connectVoice(server.endpoint);
    cleanups.push(async () => {
      voice.raw.terminate();
      await voice.closed;
    });
    await voice.op(VOp.HELLO);
    voice.send(VOp.IDENTIFY, {
      server_id: fx.guildId,
      user_id: fx.owner.userId,
      session_id: ownerReady.session_id,
      token: server.token,
      max_dave_protocol_version: 1,
    });
    const { ssrc } = (await voice.op(VOp.READY)).d as { ssrc: number };
    voice.send(VOp.SELECT_PROTOCOL, {
      protocol: 'udp',
      data: { address: '127.0.0.1', port: 40_000, mode: 'aead_aes256_gcm_rtpsize' },
    });
    await voice.op(VOp.SESSION_DESCRIPTION);
    voice.send(VOp.SPEAKING, { speaking: 1, delay: 0, ssrc });

    const heard = await follower.next((f: Frame) => f.t === 'SPEAKING_UPDATE');
    expect(heard.d).toEqual({
      guild_id: fx.guildId,
      channel_id: channelId,
      user_id: fx.owner.userId,
      speaking: true,
    });
  });
});
