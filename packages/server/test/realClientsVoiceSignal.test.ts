/**
 * discord.js 14's voice adapter with @discordjs/voice: `joinVoiceChannel` sends op 4, and the
 * connection gets the VOICE_STATE_UPDATE (its session id) and then the VOICE_SERVER_UPDATE
 * (token, endpoint) it needs to start its voice networking, with this process's voice node as
 * the endpoint. What happens on the voice WebSocket itself is voiceClients.test.ts's.
 *
 * @module
 */
import {
  VoiceConnectionStatus,
  joinVoiceChannel,
  type VoiceConnection,
  type VoiceConnectionState,
} from '@discordjs/voice';
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { beforeEach, expect, it } from 'vitest';
import { loadKeyring } from '../src/secrets.js';
import { createVoiceTokens } from '../src/voice/token.js';
import { useFileServer } from './support/fileServer.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { once } from './support/realClients.js';
import { type TestServer } from './support/testServer.js';

let server: TestServer;
let fx: GuildFixture;

const shared = useFileServer({ listen: true, gateway: { identifiesPerBucket: 1000 } });
beforeEach(async () => {
  server = shared.server;
  fx = await guildFixture(server, { botPermissions: 0n });
});

it('discord.js joins a voice channel: its adapter gets both dispatches and this voice node', async () => {
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
      endpoint: server.app.voice?.endpoint(),
    });
    expect(options.sessionId).toBe(guild.voiceStates.cache.get(fx.bot.userId)?.sessionId);
    const grant = createVoiceTokens(loadKeyring(server.app.config).keyring).verify(
      options.token,
      Date.now(),
    );
    expect(grant).toMatchObject({ channelId, sessionId: options.sessionId, guildId: fx.guildId });
    // The server holds the bot in the channel.
    expect(
      await server.app.storage.gateway.findVoiceState(fx.guildId, fx.bot.userId),
    ).toMatchObject({ channelId, sessionId: options.sessionId });
  } finally {
    connection?.destroy();
    await client.destroy();
  }
});
