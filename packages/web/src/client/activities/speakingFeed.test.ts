/**
 * The frame's SPEAKING_START and SPEAKING_STOP from the gateway's speaking feed
 * (speakingFeed.ts): op 1001 follows the activity's voice channel (again after READY and
 * RESUMED, and no longer once the frame closes), and each SPEAKING_UPDATE of that channel becomes
 * the SDK's event, which a subscribed frame receives.
 */
import { ChannelType } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { CONTEXT, harness, ME_ANSWER } from './frameHarness.js';
import { followSpeaking } from './speakingFeed.js';

/** A gateway that records what is sent and lets the test dispatch. */
function fakeGateway() {
  const sent: { op: number; d: unknown }[] = [];
  const handlers = new Map<string, Set<(data: unknown, type: string) => void>>();
  return {
    sent,
    send: (op: number, d: unknown) => sent.push({ op, d }),
    on(type: string, handler: (data: unknown, type: string) => void) {
      const set = handlers.get(type) ?? new Set();
      handlers.set(type, set);
      set.add(handler);
      return () => set.delete(handler);
    },
    emit(type: string, data: unknown) {
      for (const handler of handlers.get(type) ?? []) handler(data, type);
    },
  };
}

const GUILD = '300';
const VOICE = '310';
const update = (channelId: string, speaking: boolean) => ({
  guild_id: GUILD,
  channel_id: channelId,
  user_id: '77',
  speaking,
});

describe('followSpeaking', () => {
  it('follows the voice channel and turns its updates into the SDK events', () => {
    const gateway = fakeGateway();
    const events: [string, object][] = [];
    const stop = followSpeaking(
      gateway,
      { guildId: GUILD, channelId: VOICE, channelType: ChannelType.GuildVoice },
      (evt, data) => events.push([evt, data]),
    );
    const follow = { op: 1001, d: { guild_id: GUILD, channel_id: VOICE } };
    expect(gateway.sent).toEqual([follow]);
    gateway.emit('SPEAKING_UPDATE', update(VOICE, true));
    gateway.emit('SPEAKING_UPDATE', update('999', true));
    gateway.emit('SPEAKING_UPDATE', { channel_id: VOICE });
    gateway.emit('SPEAKING_UPDATE', update(VOICE, false));
    expect(events).toEqual([
      ['SPEAKING_START', { channel_id: VOICE, user_id: '77' }],
      ['SPEAKING_STOP', { channel_id: VOICE, user_id: '77' }],
    ]);
    // A new session (or a resumed one, on another node) follows again.
    gateway.emit('READY', {});
    gateway.emit('RESUMED', {});
    expect(gateway.sent).toEqual([follow, follow, follow]);
    stop();
    expect(gateway.sent.at(-1)).toEqual({ op: 1001, d: { guild_id: GUILD, channel_id: null } });
    gateway.emit('SPEAKING_UPDATE', update(VOICE, true));
    expect(events).toHaveLength(2);
  });

  it('follows nothing for a text channel, a DM or an unknown channel', () => {
    const gateway = fakeGateway();
    for (const place of [
      { guildId: GUILD, channelId: '320', channelType: ChannelType.GuildText },
      { guildId: null, channelId: '330', channelType: ChannelType.DM },
      { guildId: GUILD, channelId: '340', channelType: undefined },
    ]) {
      followSpeaking(gateway, place, () => undefined)();
    }
    expect(gateway.sent).toEqual([]);
  });

  it('reaches a frame subscribed to the activity channel', async () => {
    const { host, posted, handshake, send } = harness({
      oauthMe: () => Promise.resolve({ ...ME_ANSWER, scopes: ['identify', 'rpc.voice.read'] }),
    });
    handshake();
    await send('AUTHENTICATE', { access_token: 'voice' });
    const gateway = fakeGateway();
    followSpeaking(
      gateway,
      {
        guildId: CONTEXT.guildId,
        channelId: CONTEXT.channelId,
        channelType: ChannelType.GuildVoice,
      },
      (evt, data) => host.dispatch(evt, data),
    );
    await send('SUBSCRIBE', { channel_id: CONTEXT.channelId }, 'SPEAKING_START');
    const inActivity = (speaking: boolean) => ({
      ...update(CONTEXT.channelId, speaking),
      guild_id: CONTEXT.guildId,
    });
    gateway.emit('SPEAKING_UPDATE', inActivity(true));
    gateway.emit('SPEAKING_UPDATE', inActivity(false));
    const dispatched = posted.filter((m) => m[1]['cmd'] === 'DISPATCH' && m[1]['evt'] !== 'READY');
    // SPEAKING_STOP was not subscribed to.
    expect(dispatched).toEqual([
      [
        1,
        {
          cmd: 'DISPATCH',
          evt: 'SPEAKING_START',
          nonce: null,
          data: { channel_id: CONTEXT.channelId, user_id: '77' },
        },
      ],
    ]);
  });
});
