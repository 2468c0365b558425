import { describe, expect, it } from 'vitest';
import { reduce, type ClientState } from '../state.js';
import { GUILD_ID, guildCreate, readyState } from '../test/render.js';
import {
  callDuration,
  connectedTo,
  isoDuration,
  parseStartTime,
  parseVoiceState,
} from './voiceState.js';

const LOUNGE = '300000000000000002';
const STAGE = '300000000000000003';
const BOB = '100000000000000002';
const CAT = '100000000000000003';

function feed(state: ClientState, t: string, d: unknown): ClientState {
  return reduce(state, { t, d }, 0);
}

const joined = (userId: string, channelId: string | null, extra: Record<string, unknown> = {}) => ({
  guild_id: GUILD_ID,
  user_id: userId,
  channel_id: channelId,
  session_id: 'x',
  self_mute: false,
  self_deaf: false,
  ...extra,
});

describe('parseVoiceState', () => {
  it('reads the flags the list shows, false when left out', () => {
    expect(
      parseVoiceState(
        joined(BOB, LOUNGE, { self_video: true, mute: true, deaf: true, suppress: true }),
      ),
    ).toEqual({
      guildId: GUILD_ID,
      userId: BOB,
      entry: {
        channel_id: LOUNGE,
        self_mute: false,
        self_deaf: false,
        self_video: true,
        mute: true,
        deaf: true,
        suppress: true,
      },
    });
    expect(parseVoiceState({ user_id: BOB, channel_id: LOUNGE })?.entry).toMatchObject({
      self_mute: false,
      suppress: false,
    });
  });

  it('refuses states whose ids are not snowflakes', () => {
    expect(parseVoiceState(null)).toBeNull();
    expect(parseVoiceState('x')).toBeNull();
    expect(parseVoiceState({ channel_id: LOUNGE })).toBeNull();
    expect(parseVoiceState({ user_id: 5, channel_id: LOUNGE })).toBeNull();
    expect(parseVoiceState({ user_id: BOB, channel_id: '<script>' })).toBeNull();
    expect(parseVoiceState({ user_id: BOB, channel_id: LOUNGE, guild_id: {} })).toBeNull();
  });

  it('reads start times as positive whole seconds only', () => {
    expect(parseStartTime(1_790_000_000)).toBe(1_790_000_000);
    for (const bad of [null, undefined, 0, -5, 1.5, '1790000000', Number.NaN]) {
      expect(parseStartTime(bad)).toBeNull();
    }
  });
});

describe('voice states in the client state', () => {
  it('follows joins, moves, flag changes and leaves', () => {
    let state = readyState();
    state = feed(state, 'VOICE_STATE_UPDATE', joined(BOB, LOUNGE, { self_mute: true }));
    expect(state.voiceStates[GUILD_ID]?.[BOB]).toMatchObject({
      channel_id: LOUNGE,
      self_mute: true,
    });
    state = feed(state, 'VOICE_STATE_UPDATE', joined(BOB, STAGE, { suppress: true }));
    expect(state.voiceStates[GUILD_ID]?.[BOB]).toMatchObject({
      channel_id: STAGE,
      self_mute: false,
      suppress: true,
    });
    state = feed(state, 'VOICE_STATE_UPDATE', joined(BOB, null));
    expect(state.voiceStates[GUILD_ID]).toEqual({});
  });

  it('ignores lobby calls and malformed states, keeping the same object', () => {
    const state = readyState();
    expect(feed(state, 'VOICE_STATE_UPDATE', { ...joined(BOB, LOUNGE), guild_id: null })).toBe(
      state,
    );
    expect(feed(state, 'VOICE_STATE_UPDATE', { ...joined(BOB, LOUNGE), user_id: 'bob' })).toBe(
      state,
    );
  });

  it("reads GUILD_CREATE's voice states, skipping malformed ones", () => {
    const state = feed(
      readyState(),
      'GUILD_CREATE',
      guildCreate({
        voice_states: [
          { user_id: BOB, channel_id: LOUNGE, self_deaf: true, self_mute: true },
          { user_id: 'nobody', channel_id: LOUNGE },
          { user_id: CAT, channel_id: null },
        ],
      }),
    );
    expect(Object.keys(state.voiceStates[GUILD_ID] ?? {})).toEqual([BOB]);
    expect(state.voiceStates[GUILD_ID]?.[BOB]).toMatchObject({ self_deaf: true });
  });

  it('keeps call start times from CHANNEL_INFO and VOICE_CHANNEL_START_TIME_UPDATE', () => {
    let state = feed(readyState(), 'CHANNEL_INFO', {
      guild_id: GUILD_ID,
      channels: [
        { id: LOUNGE, status: null, voice_start_time: 1_790_000_000 },
        { id: STAGE, status: null, voice_start_time: null },
      ],
    });
    expect(state.voiceStartTimes).toEqual({ [LOUNGE]: 1_790_000_000, [STAGE]: null });
    state = feed(state, 'VOICE_CHANNEL_START_TIME_UPDATE', {
      id: STAGE,
      guild_id: GUILD_ID,
      voice_start_time: 1_790_000_100,
    });
    expect(state.voiceStartTimes[STAGE]).toBe(1_790_000_100);
    state = feed(state, 'VOICE_CHANNEL_START_TIME_UPDATE', {
      id: LOUNGE,
      guild_id: GUILD_ID,
      voice_start_time: null,
    });
    expect(state.voiceStartTimes[LOUNGE]).toBeNull();
    // A CHANNEL_INFO asked for statuses only leaves the start times alone.
    state = feed(state, 'CHANNEL_INFO', {
      guild_id: GUILD_ID,
      channels: [{ id: STAGE, status: 'x' }],
    });
    expect(state.voiceStartTimes[STAGE]).toBe(1_790_000_100);
  });
});

describe('connectedTo', () => {
  const entry = (channelId: string, suppress = false) => ({
    channel_id: channelId,
    self_mute: false,
    self_deaf: false,
    self_video: false,
    mute: false,
    deaf: false,
    suppress,
  });
  const names: Record<string, string> = {
    '1': 'zed',
    '2': 'amy',
    '3': 'bo',
    '4': 'amy',
    '5': 'amy',
  };

  it("lists one channel's people, speakers first, then by name and id", () => {
    const voice = {
      '1': entry(STAGE),
      '2': entry(STAGE, true),
      '3': entry(LOUNGE),
      '4': entry(STAGE),
      '5': entry(STAGE, true),
    };
    expect(connectedTo(voice, STAGE, (id) => names[id] ?? '').map((c) => c.userId)).toEqual([
      '4',
      '1',
      '2',
      '5',
    ]);
    expect(connectedTo(voice, LOUNGE, (id) => names[id] ?? '').map((c) => c.name)).toEqual(['bo']);
    expect(connectedTo(voice, '9', () => '')).toEqual([]);
  });
});

describe('callDuration', () => {
  const start = 1_790_000_000;
  it('counts m:ss under an hour and h:mm:ss after', () => {
    expect(callDuration(start, start * 1000)).toBe('0:00');
    expect(callDuration(start, (start + 65) * 1000 + 999)).toBe('1:05');
    expect(callDuration(start, (start + 3600 + 62) * 1000)).toBe('1:01:02');
    expect(callDuration(start, (start + 26 * 3600) * 1000)).toBe('26:00:00');
    expect(isoDuration(start, (start + 65) * 1000)).toBe('PT65S');
  });

  it('shows 0:00 for a start ahead of this clock', () => {
    expect(callDuration(start, (start - 30) * 1000)).toBe('0:00');
    expect(isoDuration(start, (start - 30) * 1000)).toBe('PT0S');
  });
});
