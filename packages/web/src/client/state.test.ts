import { describe, expect, it } from 'vitest';
import {
  addMessages,
  addPending,
  applyReaction,
  expireTyping,
  initialState,
  reduce,
  settlePending,
  startHistory,
  TYPING_MS,
  type ClientState,
} from './state.js';
import { CHANNEL_ID, GUILD_ID, ME, guildCreate, message, readyState } from './test/render.js';

const OTHER = {
  id: '100000000000000002',
  username: 'bo',
  global_name: null,
  discriminator: '0',
  avatar: null,
};

function feed(state: ClientState, t: string, d: unknown): ClientState {
  return reduce(state, { t, d }, 0);
}

describe('reduce', () => {
  it('READY sets the user, session, DMs (newest first) and relationships', () => {
    const state = feed(initialState, 'READY', {
      user: ME,
      session_id: 'abc',
      guilds: [{ id: GUILD_ID, unavailable: true }],
      private_channels: [
        {
          id: '700000000000000001',
          type: 1,
          last_message_id: '800000000000000001',
          recipients: [OTHER],
        },
        {
          id: '700000000000000002',
          type: 1,
          last_message_id: '800000000000000009',
          recipients: [OTHER],
        },
      ],
      relationships: [{ id: OTHER.id, type: 1, user: OTHER }],
      presences: [{ user: { id: OTHER.id }, status: 'idle', activities: [] }],
    });
    expect(state.me?.id).toBe(ME.id);
    expect(state.sessionId).toBe('abc');
    expect(state.ready).toBe(true);
    expect(state.privateChannelIds).toEqual(['700000000000000002', '700000000000000001']);
    expect(state.relationships[OTHER.id]).toEqual({
      id: OTHER.id,
      type: 1,
      user: OTHER,
      nickname: null,
    });
    expect(state.users[OTHER.id]?.username).toBe('bo');
    expect(state.presences[OTHER.id]?.status).toBe('idle');
    // Unavailable guilds wait for their GUILD_CREATE.
    expect(state.guilds).toEqual({});
  });

  it('a new session drops loaded histories (events may have been missed), not pending sends', () => {
    let state = addMessages(readyState(), CHANNEL_ID, { messages: [message()] });
    state = addPending(state, {
      nonce: '1',
      channelId: CHANNEL_ID,
      content: 'x',
      files: [],
      error: null,
    });
    state = feed(state, 'READY', { user: ME, session_id: 'new' });
    expect(state.messages).toEqual({});
    expect(state.pending[CHANNEL_ID]).toHaveLength(1);
    expect(state.sessionId).toBe('new');
  });

  it('GUILD_CREATE fills guild, channels, members, presences, voice states; DELETE empties them', () => {
    let state = readyState();
    state = feed(
      state,
      'GUILD_CREATE',
      guildCreate({
        presences: [{ user: { id: ME.id }, status: 'dnd', activities: [] }],
        voice_states: [
          { user_id: ME.id, channel_id: '300000000000000009', self_mute: true, self_deaf: false },
        ],
      }),
    );
    expect(state.guilds[GUILD_ID]?.name).toBe('Lab');
    expect(state.guilds[GUILD_ID]).not.toHaveProperty('channels');
    expect(state.guildChannelIds[GUILD_ID]).toEqual([CHANNEL_ID]);
    expect(state.channels[CHANNEL_ID]).toMatchObject({ name: 'general', guild_id: GUILD_ID });
    expect(state.members[GUILD_ID]?.[ME.id]?.user.id).toBe(ME.id);
    expect(state.presences[ME.id]?.status).toBe('dnd');
    expect(state.voiceStates[GUILD_ID]?.[ME.id]).toEqual({
      channel_id: '300000000000000009',
      self_mute: true,
      self_deaf: false,
      self_video: false,
      mute: false,
      deaf: false,
      suppress: false,
    });
    expect(state.memberCounts[GUILD_ID]).toBe(1);
    state = feed(state, 'GUILD_DELETE', { id: GUILD_ID });
    expect(state.guilds[GUILD_ID]).toBeUndefined();
    expect(state.channels[CHANNEL_ID]).toBeUndefined();
    expect(state.members[GUILD_ID]).toBeUndefined();
  });

  it('keeps channels and roles current', () => {
    let state = readyState();
    state = feed(state, 'CHANNEL_CREATE', {
      id: '300000000000000002',
      type: 2,
      name: 'Voice',
      guild_id: GUILD_ID,
    });
    state = feed(state, 'CHANNEL_UPDATE', {
      id: CHANNEL_ID,
      type: 0,
      name: 'renamed',
      guild_id: GUILD_ID,
    });
    expect(state.guildChannelIds[GUILD_ID]).toEqual([CHANNEL_ID, '300000000000000002']);
    expect(state.channels[CHANNEL_ID]?.name).toBe('renamed');
    state = feed(state, 'CHANNEL_DELETE', { id: '300000000000000002', guild_id: GUILD_ID });
    expect(state.guildChannelIds[GUILD_ID]).toEqual([CHANNEL_ID]);
    const role = { ...guildCreate().roles[0], id: '500000000000000001', name: 'Mods', position: 1 };
    state = feed(state, 'GUILD_ROLE_CREATE', { guild_id: GUILD_ID, role });
    state = feed(state, 'GUILD_ROLE_UPDATE', {
      guild_id: GUILD_ID,
      role: { ...role, name: 'Admins' },
    });
    expect(state.guilds[GUILD_ID]?.roles.map((r) => r.name)).toEqual(['@everyone', 'Admins']);
    state = feed(state, 'GUILD_ROLE_DELETE', { guild_id: GUILD_ID, role_id: role.id });
    expect(state.guilds[GUILD_ID]?.roles.map((r) => r.name)).toEqual(['@everyone']);
  });

  it('tracks members, counts and presences', () => {
    let state = readyState();
    const member = {
      user: OTHER,
      roles: [],
      joined_at: '2026-01-01T00:00:00.000Z',
      deaf: false,
      mute: false,
    };
    state = feed(state, 'GUILD_MEMBER_ADD', { ...member, guild_id: GUILD_ID });
    expect(state.memberCounts[GUILD_ID]).toBe(2);
    state = feed(state, 'GUILD_MEMBER_UPDATE', { ...member, nick: 'Bobby', guild_id: GUILD_ID });
    expect(state.members[GUILD_ID]?.[OTHER.id]?.nick).toBe('Bobby');
    state = feed(state, 'PRESENCE_UPDATE', {
      user: { id: OTHER.id },
      guild_id: GUILD_ID,
      status: 'online',
      activities: [],
    });
    expect(state.presences[OTHER.id]?.status).toBe('online');
    state = feed(state, 'GUILD_MEMBER_REMOVE', { guild_id: GUILD_ID, user: OTHER });
    expect(state.members[GUILD_ID]?.[OTHER.id]).toBeUndefined();
    expect(state.memberCounts[GUILD_ID]).toBe(1);
    // The current user leaving (or kicked) loses the guild.
    state = feed(state, 'GUILD_MEMBER_REMOVE', { guild_id: GUILD_ID, user: ME });
    expect(state.guilds[GUILD_ID]).toBeUndefined();
  });

  it('adds live messages to loaded channels only, edits and deletes them', () => {
    let state = readyState();
    state = feed(state, 'MESSAGE_CREATE', { ...message(), guild_id: GUILD_ID });
    expect(state.messages[CHANNEL_ID]).toBeUndefined();
    expect(state.channels[CHANNEL_ID]).toMatchObject({ last_message_id: message().id });
    state = addMessages(state, CHANNEL_ID, {
      messages: [message({ id: '400000000000000005' })],
      hasMore: false,
    });
    state = feed(state, 'MESSAGE_CREATE', message({ id: '400000000000000007' }));
    state = feed(state, 'MESSAGE_CREATE', message({ id: '400000000000000006' }));
    expect(state.messages[CHANNEL_ID]?.ids).toEqual([
      '400000000000000005',
      '400000000000000006',
      '400000000000000007',
    ]);
    state = feed(state, 'MESSAGE_UPDATE', {
      id: '400000000000000006',
      channel_id: CHANNEL_ID,
      content: 'edited',
      edited_timestamp: '2026-01-02T00:00:00.000Z',
    });
    expect(state.messages[CHANNEL_ID]?.byId['400000000000000006']?.content).toBe('edited');
    expect(state.messages[CHANNEL_ID]?.byId['400000000000000006']?.author.id).toBe(ME.id);
    state = feed(state, 'MESSAGE_DELETE', { id: '400000000000000005', channel_id: CHANNEL_ID });
    state = feed(state, 'MESSAGE_DELETE_BULK', {
      ids: ['400000000000000007'],
      channel_id: CHANNEL_ID,
    });
    expect(state.messages[CHANNEL_ID]?.ids).toEqual(['400000000000000006']);
    expect(state.messages[CHANNEL_ID]?.hasMore).toBe(false);
  });

  it('settles a pending message when its MESSAGE_CREATE carries the nonce', () => {
    let state = addMessages(readyState(), CHANNEL_ID, { messages: [] });
    state = addPending(state, {
      nonce: '42',
      channelId: CHANNEL_ID,
      content: 'hi',
      files: [],
      error: null,
    });
    state = addPending(state, {
      nonce: '43',
      channelId: CHANNEL_ID,
      content: 'yo',
      files: [],
      error: null,
    });
    state = settlePending(state, { channelId: CHANNEL_ID, nonce: '43' }, 'Missing Permissions');
    expect(state.pending[CHANNEL_ID]?.map((p) => p.error)).toEqual([null, 'Missing Permissions']);
    state = feed(state, 'MESSAGE_CREATE', message({ nonce: '42' }));
    expect(state.pending[CHANNEL_ID]?.map((p) => p.nonce)).toEqual(['43']);
    expect(state.messages[CHANNEL_ID]?.ids).toEqual([message().id]);
  });

  it('counts reactions, mine and others, and clears them', () => {
    let state = addMessages(readyState(), CHANNEL_ID, { messages: [message()] });
    const at = {
      channel_id: CHANNEL_ID,
      message_id: message().id,
      emoji: { id: null, name: '👍' },
    };
    state = feed(state, 'MESSAGE_REACTION_ADD', { ...at, user_id: OTHER.id });
    state = feed(state, 'MESSAGE_REACTION_ADD', { ...at, user_id: ME.id });
    let reaction = state.messages[CHANNEL_ID]?.byId[message().id]?.reactions?.[0];
    expect(reaction).toMatchObject({ count: 2, me: true, emoji: { name: '👍' } });
    // The echo of a reaction already applied optimistically changes nothing.
    state = feed(state, 'MESSAGE_REACTION_ADD', { ...at, user_id: ME.id });
    reaction = state.messages[CHANNEL_ID]?.byId[message().id]?.reactions?.[0];
    expect(reaction?.count).toBe(2);
    state = feed(state, 'MESSAGE_REACTION_REMOVE', { ...at, user_id: ME.id });
    reaction = state.messages[CHANNEL_ID]?.byId[message().id]?.reactions?.[0];
    expect(reaction).toMatchObject({ count: 1, me: false });
    state = feed(state, 'MESSAGE_REACTION_ADD', {
      ...at,
      emoji: { id: null, name: '🔥' },
      user_id: OTHER.id,
    });
    state = feed(state, 'MESSAGE_REACTION_REMOVE_EMOJI', { ...at });
    expect(
      state.messages[CHANNEL_ID]?.byId[message().id]?.reactions?.map((r) => r.emoji.name),
    ).toEqual(['🔥']);
    state = feed(state, 'MESSAGE_REACTION_REMOVE_ALL', {
      channel_id: CHANNEL_ID,
      message_id: message().id,
    });
    expect(state.messages[CHANNEL_ID]?.byId[message().id]?.reactions).toEqual([]);
  });

  it('removes a reaction when its count reaches zero', () => {
    const emoji = { id: null, name: '🎉' };
    const one = applyReaction(undefined, { emoji, delta: 1, mine: false });
    expect(applyReaction(one, { emoji, delta: -1, mine: false })).toEqual([]);
  });

  it('shows typing for ten seconds, until the message arrives', () => {
    let state = addMessages(readyState(), CHANNEL_ID, { messages: [] });
    const typing = { channel_id: CHANNEL_ID, user_id: OTHER.id, timestamp: 1 };
    state = reduce(state, { t: 'TYPING_START', d: typing }, 1_000);
    expect(state.typing[CHANNEL_ID]).toEqual({ [OTHER.id]: 1_000 + TYPING_MS });
    expect(expireTyping(state, 5_000)).toBe(state);
    expect(expireTyping(state, 1_000 + TYPING_MS).typing[CHANNEL_ID]).toEqual({});
    state = feed(state, 'MESSAGE_CREATE', message({ author: OTHER }));
    expect(state.typing[CHANNEL_ID]).toEqual({});
  });

  it("keeps no member for a typing member's partial object of someone not loaded", () => {
    let state = addMessages(readyState(), CHANNEL_ID, { messages: [] });
    const stranger = '100000000000000077';
    const typing = {
      channel_id: CHANNEL_ID,
      guild_id: GUILD_ID,
      user_id: stranger,
      timestamp: 1,
      member: { roles: [], joined_at: '2026-01-01T00:00:00Z', deaf: false, mute: false },
    };
    state = reduce(state, { t: 'TYPING_START', d: typing }, 1_000);
    expect(state.members[GUILD_ID]?.[stranger]).toBeUndefined();
    expect(state.typing[CHANNEL_ID]).toEqual({ [stranger]: 1_000 + TYPING_MS });
  });

  it('keeps voice states, statuses and pins times', () => {
    let state = readyState();
    const voice = {
      guild_id: GUILD_ID,
      channel_id: '300000000000000002',
      user_id: OTHER.id,
      self_mute: false,
      self_deaf: true,
    };
    state = feed(state, 'VOICE_STATE_UPDATE', voice);
    expect(state.voiceStates[GUILD_ID]?.[OTHER.id]).toEqual({
      channel_id: '300000000000000002',
      self_mute: false,
      self_deaf: true,
      self_video: false,
      mute: false,
      deaf: false,
      suppress: false,
    });
    state = feed(state, 'VOICE_STATE_UPDATE', { ...voice, channel_id: null });
    expect(state.voiceStates[GUILD_ID]?.[OTHER.id]).toBeUndefined();
    state = feed(state, 'CHANNEL_INFO', {
      guild_id: GUILD_ID,
      channels: [{ id: '300000000000000002', status: 'Raid night' }],
    });
    expect(state.voiceStatuses['300000000000000002']).toBe('Raid night');
    state = feed(state, 'VOICE_CHANNEL_STATUS_UPDATE', {
      id: '300000000000000002',
      guild_id: GUILD_ID,
      status: null,
    });
    expect(state.voiceStatuses['300000000000000002']).toBeNull();
    state = feed(state, 'CHANNEL_PINS_UPDATE', {
      channel_id: CHANNEL_ID,
      last_pin_timestamp: '2026-01-03T00:00:00.000Z',
    });
    expect(state.channels[CHANNEL_ID]).toMatchObject({
      last_pin_timestamp: '2026-01-03T00:00:00.000Z',
    });
  });

  it('returns the same state for dispatches it does not keep', () => {
    const state = readyState();
    expect(feed(state, 'INVITE_CREATE', { code: 'x' })).toBe(state);
    expect(feed(state, 'MESSAGE_UPDATE', { id: '1', channel_id: '2', content: 'x' })).toBe(state);
  });
});

describe('a history being read', () => {
  it('keeps a message that arrives live while the first page is in flight', () => {
    let state = startHistory(readyState(), CHANNEL_ID);
    expect(state.messages[CHANNEL_ID]).toMatchObject({ ids: [], loading: true });
    const live = message({ id: '400000000000000009', content: 'sent meanwhile' });
    state = feed(state, 'MESSAGE_CREATE', live);
    // The page was read before the live message was sent: it does not hold it.
    const older = message({ id: '400000000000000001', content: 'older' });
    state = addMessages(state, CHANNEL_ID, { messages: [older], hasMore: false });
    expect(state.messages[CHANNEL_ID]).toMatchObject({
      ids: [older.id, live.id],
      hasMore: false,
      loading: false,
    });
    // Starting again keeps what is there.
    expect(startHistory(state, CHANNEL_ID)).toBe(state);
  });
});
