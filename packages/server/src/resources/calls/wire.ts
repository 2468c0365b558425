/**
 * @module resources/calls/wire: the wire shapes of a DM or group-DM call: its voice states
 * (`guild_id: null`, the private channel's id) and the CALL_CREATE, CALL_UPDATE and CALL_DELETE
 * dispatches, addressed to the channel's recipients (a game DM's only to its game's sessions
 * and the users' own clients).
 */
import type { Dispatch } from '../../events/dispatcher.js';
import type {
  DmCallRecord,
  DmVoiceStateRecord,
  PrivateChannelRecord,
  Repositories,
} from '../../storage/index.js';

/** A recipient's voice state in a private channel's call (channel_id null: it left). */
export function dmVoiceStateWire(
  state: Pick<DmVoiceStateRecord, 'userId' | 'sessionId' | 'selfMute' | 'selfDeaf' | 'selfVideo'>,
  channelId: string | null,
) {
  return {
    guild_id: null,
    channel_id: channelId,
    user_id: state.userId,
    session_id: state.sessionId,
    deaf: false,
    mute: false,
    self_deaf: state.selfDeaf,
    self_mute: state.selfMute,
    self_video: state.selfVideo,
    self_stream: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
}

export type DmVoiceStateWire = ReturnType<typeof dmVoiceStateWire>;

/** CALL_UPDATE's payload (CALL_CREATE adds the voice states). */
export function callWire(call: DmCallRecord) {
  return {
    channel_id: call.channelId,
    message_id: call.messageId,
    region: call.region,
    ringing: call.ringing,
  };
}

type CallWire = ReturnType<typeof callWire>;

/** Where a private channel's call dispatches go: its recipients, in its game's scope. */
export function toRecipients(
  record: PrivateChannelRecord,
): Pick<Dispatch, 'guildId' | 'channelId' | 'userIds' | 'applicationId'> {
  const { applicationId } = record.channel;
  return {
    guildId: null,
    channelId: record.channel.id,
    userIds: record.recipients.map((r) => r.userId),
    ...(applicationId === null ? {} : { applicationId }),
  };
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    CALL_CREATE: CallCreateWire;
    CALL_UPDATE: CallWire;
    CALL_DELETE: { channel_id: string };
  }
}

/** CALL_CREATE's payload: the call and its members' voice states. */
function callCreateWire(call: DmCallRecord, states: readonly DmVoiceStateRecord[]) {
  return {
    ...callWire(call),
    voice_states: states.map((s) => dmVoiceStateWire(s, s.channelId)),
    embedded_activities: [],
  };
}

type CallCreateWire = ReturnType<typeof callCreateWire>;

/**
 * The CALL_CREATE payloads of the calls in progress in the user's DMs and group DMs (those
 * `shown` keeps): what a session gets after its READY, one per call, as on the platform.
 */
export async function callsInProgress(
  repos: Pick<Repositories, 'calls'>,
  userId: string,
  shown: (channelId: string) => boolean,
): Promise<CallCreateWire[]> {
  const calls = (await repos.calls.listCallsOfRecipient(userId)).filter((call) =>
    shown(call.channelId),
  );
  return Promise.all(
    calls.map(async (call) =>
      callCreateWire(call, await repos.calls.listVoiceStates(call.channelId)),
    ),
  );
}

export const callDispatches = {
  create(record: PrivateChannelRecord, call: DmCallRecord, states: readonly DmVoiceStateRecord[]) {
    return {
      type: 'CALL_CREATE',
      ...toRecipients(record),
      data: callCreateWire(call, states),
    } satisfies Dispatch;
  },
  update(record: PrivateChannelRecord, call: DmCallRecord) {
    return {
      type: 'CALL_UPDATE',
      ...toRecipients(record),
      data: callWire(call),
    } satisfies Dispatch;
  },
  delete(record: PrivateChannelRecord) {
    return {
      type: 'CALL_DELETE',
      ...toRecipients(record),
      data: { channel_id: record.channel.id },
    } satisfies Dispatch;
  },
  voiceState(
    record: PrivateChannelRecord,
    state: DmVoiceStateRecord,
    options: { left?: boolean; extraUserIds?: readonly string[] } = {},
  ) {
    const to = toRecipients(record);
    return {
      type: 'VOICE_STATE_UPDATE',
      ...to,
      userIds: [...new Set([...(to.userIds ?? []), ...(options.extraUserIds ?? [])])],
      // The voice node holding the call watches the call's subject, not each recipient's.
      voiceCall: record.channel.id,
      data: dmVoiceStateWire(state, options.left === true ? null : record.channel.id),
    } satisfies Dispatch;
  },
};
