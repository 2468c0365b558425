/**
 * discord.js 14's voice adapter with @discordjs/voice: `joinVoiceChannel` sends op 4, and the
 * connection gets the VOICE_STATE_UPDATE (its session id) and then the VOICE_SERVER_UPDATE
 * (token, endpoint) it needs to start its voice networking, which dials the advertised endpoint.
 * What happens on the voice WebSocket itself is the voice node's (the lead's e2e test).
 *
 * @module
 */
import { createServer, type Server, type Socket } from 'node:net';
import {
  VoiceConnectionStatus,
  joinVoiceChannel,
  type VoiceConnection,
  type VoiceConnectionState,
} from '@discordjs/voice';
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { loadSecretKey } from '../src/secrets.js';
import { createVoiceTokens } from '../src/voice/token.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { once } from './support/realClients.js';
import { startTestServer, type TestServer } from './support/testServer.js';

let server: TestServer;
let fx: GuildFixture;
/** Stands where a voice node would: records that the client dialled it. */
let voiceNode: Server;
let dialled: Promise<Socket>;

beforeEach(async () => {
  voiceNode = createServer();
  dialled = new Promise((resolve) => {
    voiceNode.once('connection', resolve);
  });
  await new Promise<void>((resolve) => voiceNode.listen(0, '127.0.0.1', resolve));
  const address = voiceNode.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  server = await startTestServer({
    listen: true,
    gateway: { identifiesPerBucket: 1000 },
    config: { voiceEndpoint: `127.0.0.1:${String(port)}` },
  });
  fx = await guildFixture(server, { botPermissions: 0n });
});
afterEach(async () => {
  await server.close();
  await new Promise<void>((resolve) =>
    voiceNode.close(() => {
      resolve();
    }),
  );
});

it('discord.js joins a voice channel: its adapter gets both dispatches and dials the endpoint', async () => {
  const created = await fx.call('POST', `/guilds/${fx.guildId}/channels`, {
    auth: fx.owner.token,
    payload: { name: 'voice', type: 2 },
  });
  const channelId = created.json<{ id: string }>().id;
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildVoiceStates],
    rest: { api: `${server.baseUrl}/api` },
    waitGuildTimeout: 10 * 60_000,
  });
  let connection: VoiceConnection | undefined;
  try {
    const ready = once(client, Events.ClientReady);
    await client.login(fx.bot.token.replace(/^Bot /, ''));
    await ready;
    const guild = client.guilds.cache.get(fx.guildId);
    expect(guild).toBeDefined();
    if (guild === undefined) return;
    connection = joinVoiceChannel({
      channelId,
      guildId: fx.guildId,
      adapterCreator: guild.voiceAdapterCreator,
      selfDeaf: false,
    });
    // Connecting: the adapter had the voice state and then the voice server.
    const [, state] = await once<[VoiceConnectionState, VoiceConnectionState]>(
      connection,
      'stateChange',
      (_, next) => next.status === VoiceConnectionStatus.Connecting,
    );
    if (state.status !== VoiceConnectionStatus.Connecting) return;
    const networking = state.networking.state;
    if (!('connectionOptions' in networking)) throw new Error('no voice networking');
    const options = networking.connectionOptions;
    expect(options).toMatchObject({
      channelId,
      serverId: fx.guildId,
      userId: fx.bot.userId,
      endpoint: server.app.config.voiceEndpoint,
    });
    expect(options.sessionId).toBe(guild.voiceStates.cache.get(fx.bot.userId)?.sessionId);
    const grant = createVoiceTokens(loadSecretKey(server.app.config).key).verify(
      options.token,
      Date.now(),
    );
    expect(grant).toMatchObject({ channelId, sessionId: options.sessionId, guildId: fx.guildId });
    (await dialled).destroy();
    // The server holds the bot in the channel.
    expect(
      await server.app.storage.gateway.findVoiceState(fx.guildId, fx.bot.userId),
    ).toMatchObject({ channelId, sessionId: options.sessionId });
  } finally {
    connection?.destroy();
    await client.destroy();
  }
});
