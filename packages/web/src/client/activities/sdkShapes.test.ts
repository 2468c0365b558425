/**
 * The client's state in the embedded app SDK's shapes: each answer goes through the SDK's own
 * response parser, as the SDK parses it (a throw there is an answer the SDK rejects).
 */
import { Responses } from '@discord/embedded-app-sdk';
import { ChannelType, type APIMessage, type APIUser } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import { initialState, type ClientState } from '../state.js';
import { sdkChannel, sdkParticipant, sdkRelationships } from './sdkShapes.js';

function sdkParses(cmd: string, data: unknown) {
  return Responses.parseResponsePayload(
    Responses.ResponseFrame.parse({ cmd, evt: null, nonce: 'n', data }),
  ).data;
}

const ada: APIUser = {
  id: '10',
  username: 'ada',
  discriminator: '0',
  global_name: 'Ada',
  avatar: null,
};
const bob: APIUser = {
  id: '11',
  username: 'bob',
  discriminator: '0',
  global_name: null,
  avatar: 'abc',
  bot: false,
};

const message = {
  id: '50',
  channel_id: '2',
  author: ada,
  content: 'hi',
  timestamp: '2026-11-24T10:00:00.000Z',
  edited_timestamp: null,
  tts: false,
  mention_everyone: false,
  mentions: [bob],
  mention_roles: [],
  attachments: [],
  embeds: [{ title: 'Card', fields: [{ name: 'a', value: 'b' }] }],
  pinned: false,
  type: 0,
} as unknown as APIMessage;

const state: ClientState = {
  ...initialState,
  me: ada,
  users: { '10': ada, '11': bob },
  channels: {
    '2': {
      id: '2',
      type: ChannelType.GuildVoice,
      guild_id: '1',
      name: 'Lounge',
      position: 0,
      bitrate: 64000,
      user_limit: 0,
    },
  },
  voiceStates: {
    '1': {
      '10': {
        channel_id: '2',
        self_mute: true,
        self_deaf: false,
        self_video: false,
        mute: false,
        deaf: false,
        suppress: false,
      },
    },
  },
  messages: { '2': { ids: ['50'], byId: { '50': message }, hasMore: false } },
  relationships: { '11': { id: '11', type: 1, user: bob, nickname: null } },
  presences: {
    '11': {
      status: 'online',
      activities: [{ name: 'Tiles', type: 0, application_id: '500', url: null, state: 'Lobby' }],
    },
  },
};

describe('sdk shapes', () => {
  it('GET_CHANNEL: the channel, who is connected, the loaded messages', () => {
    const data = sdkParses('GET_CHANNEL', sdkChannel(state, '2')) as {
      voice_states: { user: { id: string }; voice_state: { self_mute: boolean } }[];
      messages: { content: string }[];
    };
    expect(data).toMatchObject({ id: '2', type: 2, guild_id: '1', name: 'Lounge' });
    expect(data.voice_states).toMatchObject([
      { user: { id: '10' }, voice_state: { self_mute: true } },
    ]);
    expect(data.messages.map((m) => m.content)).toEqual(['hi']);
    expect(sdkChannel(state, '999')).toBeNull();
  });

  it('GET_RELATIONSHIPS: each friend with status and activity', () => {
    const data = sdkParses('GET_RELATIONSHIPS', { relationships: sdkRelationships(state) });
    expect(data).toEqual({
      relationships: [
        {
          type: 1,
          user: {
            id: '11',
            username: 'bob',
            global_name: null,
            discriminator: '0',
            avatar: 'abc',
            flags: 0,
            bot: false,
          },
          presence: {
            status: 'online',
            activity: { name: 'Tiles', type: 0, application_id: '500', state: 'Lobby' },
          },
        },
      ],
    });
  });

  it('GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS', () => {
    const participant = sdkParticipant(
      {
        id: '11',
        username: 'bob',
        global_name: null,
        avatar: null,
        discriminator: '0',
        nickname: 'B',
      },
      bob,
    );
    expect(
      sdkParses('GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS', { participants: [participant] }),
    ).toEqual({
      participants: [
        {
          id: '11',
          username: 'bob',
          global_name: null,
          discriminator: '0',
          avatar: null,
          flags: 0,
          bot: false,
          nickname: 'B',
        },
      ],
    });
  });
});
