/**
 * @module resources/calls/lifecycle: a private channel's call inside the caller's transaction.
 * The first recipient to join starts it: its system message (type 3 CALL) and CALL_CREATE, ringing
 * the other recipients it may ring (people, no block either way with the caller). Each join takes
 * the joiner off the ringing list (CALL_UPDATE); the last one to leave ends it: the message gets
 * its participants and end (MESSAGE_UPDATE) and CALL_DELETE follows. Every change of a voice state
 * is a VOICE_STATE_UPDATE to the recipients.
 */
import { MessageTypes } from '@guildhall/protocol';
import type { IdGenerator } from '../../domain/snowflakes.js';
import type { Dispatch } from '../../events/dispatcher.js';
import { afterCommit } from '../../events/afterCommit.js';
import type {
  DmCallRecord,
  DmVoiceStateRecord,
  MessageRecord,
  PrivateChannelRecord,
  Repositories,
} from '../../storage/index.js';
import { loadMessageContext, serializeMessage, type AttachmentLinks } from '../messages/index.js';
import { callDispatches, toRecipients } from './wire.js';

export interface CallLifecycleDeps {
  ids: IdGenerator;
  links: () => AttachmentLinks;
  /** The voice region calls are in (the server's one, resources/voice/regions.ts). */
  region: string;
}

/** What a join changed: the state before and after, and who else is in the call. */
export interface CallJoin {
  previous: DmVoiceStateRecord | null;
  state: DmVoiceStateRecord;
  /** The call's other members (the joiner's session is told of each first). */
  others: DmVoiceStateRecord[];
  /**
   * The joiner's VOICE_STATE_UPDATE to the recipients, for the caller to send once the joiner's
   * session was told who is in the call already (and before its voice server).
   */
  announce: Dispatch;
}

/**
 * Whom `callerId` may ring in `record` among `wanted` (null: every other recipient): recipients
 * only, people (a bot is never rung), not already in the call, no block either way.
 */
export async function ringableRecipients(
  tx: Repositories,
  q: { record: PrivateChannelRecord; callerId: string; inCall: ReadonlySet<string> },
  wanted: readonly string[] | null,
): Promise<string[]> {
  const recipients = q.record.recipients.map((r) => r.userId);
  const candidates = (wanted ?? recipients).filter(
    (id, i, all) =>
      all.indexOf(id) === i && id !== q.callerId && recipients.includes(id) && !q.inCall.has(id),
  );
  const out: string[] = [];
  for (const userId of candidates) {
    const user = await tx.users.findById(userId);
    if (user === null || user.bot) continue;
    if (await tx.relationships.isBlockedEitherWay(q.callerId, userId)) continue;
    out.push(userId);
  }
  return out;
}

export function createCallLifecycle(deps: CallLifecycleDeps) {
  /** MESSAGE_CREATE or MESSAGE_UPDATE of the call's system message, to the recipients. */
  const announceMessage = async (
    tx: Repositories,
    record: PrivateChannelRecord,
    change: { type: 'MESSAGE_CREATE' | 'MESSAGE_UPDATE'; message: MessageRecord },
  ) => {
    const context = await loadMessageContext(tx, [change.message], {
      links: deps.links(),
      viewerId: change.message.authorId,
      reader: null,
      reactions: change.type === 'MESSAGE_UPDATE',
    });
    afterCommit(tx, {
      type: change.type,
      ...toRecipients(record),
      data: serializeMessage(change.message, context),
    });
  };

  /** A new call in `record` started by `callerId`: its message, CALL_CREATE (after the state). */
  async function start(
    tx: Repositories,
    q: { record: PrivateChannelRecord; callerId: string; nowMs: number },
  ): Promise<DmCallRecord> {
    const { record, callerId, nowMs } = q;
    const message: MessageRecord = {
      id: deps.ids(),
      channelId: record.channel.id,
      guildId: null,
      authorId: callerId,
      type: MessageTypes.CALL,
      content: '',
      embeds: [],
      flags: 0,
      tts: false,
      mentionEveryone: false,
      mentionUserIds: [],
      mentionRoleIds: [],
      reference: null,
      snapshots: null,
      nonce: null,
      applicationId: null,
      webhookId: null,
      pinnedAt: null,
      editedAt: null,
      createdAt: nowMs,
      attachments: [],
      call: { participants: [callerId], endedAt: null },
    };
    await tx.messages.create(message);
    await announceMessage(tx, record, { type: 'MESSAGE_CREATE', message });
    const ringing = await ringableRecipients(
      tx,
      { record, callerId, inCall: new Set([callerId]) },
      null,
    );
    const call: DmCallRecord = {
      channelId: record.channel.id,
      messageId: message.id,
      region: deps.region,
      ringing,
      participants: [callerId],
      startedAt: nowMs,
      rangAt: nowMs,
    };
    await tx.calls.putCall(call);
    return call;
  }

  /** The call's last member left: its message records the end, CALL_DELETE follows. */
  async function end(
    tx: Repositories,
    q: { record: PrivateChannelRecord; call: DmCallRecord; nowMs: number },
  ) {
    const { record, call } = q;
    await tx.calls.deleteCall(call.channelId);
    const message = await tx.messages.findById(call.channelId, call.messageId);
    if (message !== null) {
      const ended = { participants: call.participants, endedAt: q.nowMs };
      await tx.messages.update(call.channelId, call.messageId, { call: ended });
      await announceMessage(tx, record, {
        type: 'MESSAGE_UPDATE',
        message: { ...message, call: ended },
      });
    }
    afterCommit(tx, callDispatches.delete(record));
  }

  /**
   * Ends the user's DM voice state (held by `sessionId`, in `channelId`, when given): VOICE_STATE_UPDATE with
   * `channel_id: null` to the recipients and the user, and the call's end if it was the last.
   */
  async function leave(
    tx: Repositories,
    q: { userId: string; nowMs: number; sessionId?: string; channelId?: string },
  ): Promise<boolean> {
    const state = await tx.calls.findVoiceState(q.userId);
    if (
      state === null ||
      (q.sessionId !== undefined && state.sessionId !== q.sessionId) ||
      (q.channelId !== undefined && state.channelId !== q.channelId)
    ) {
      return false;
    }
    await tx.calls.lock(state.channelId);
    await tx.calls.deleteVoiceState(q.userId);
    const record = await tx.privateChannels.find(state.channelId);
    if (record === null) return true;
    afterCommit(
      tx,
      callDispatches.voiceState(record, state, { left: true, extraUserIds: [q.userId] }),
    );
    const call = await tx.calls.findCall(state.channelId);
    if (call !== null && (await tx.calls.listVoiceStates(state.channelId)).length === 0) {
      await end(tx, { record, call, nowMs: q.nowMs });
    }
    return true;
  }

  /**
   * `state.userId` joins the call of `record` (starting it when there is none), leaving any other
   * DM call first. The caller has checked that the user may (a recipient, no block in a DM).
   */
  async function join(
    tx: Repositories,
    q: {
      record: PrivateChannelRecord;
      state: Omit<DmVoiceStateRecord, 'channelId' | 'joinedAt'>;
      nowMs: number;
    },
  ): Promise<CallJoin> {
    const { record, nowMs } = q;
    const channelId = record.channel.id;
    const found = await tx.calls.findVoiceState(q.state.userId);
    const previous = found?.channelId === channelId ? found : null;
    if (found !== null && previous === null) {
      await leave(tx, { userId: q.state.userId, nowMs });
    }
    await tx.calls.lock(channelId);
    const state: DmVoiceStateRecord = {
      ...q.state,
      channelId,
      joinedAt: previous?.joinedAt ?? nowMs,
    };
    await tx.calls.putVoiceState(state);
    const others = (await tx.calls.listVoiceStates(channelId)).filter(
      (s) => s.userId !== state.userId,
    );
    const existing = await tx.calls.findCall(channelId);
    if (existing === null) {
      const call = await start(tx, { record, callerId: state.userId, nowMs });
      afterCommit(tx, callDispatches.create(record, call, [state]));
    }
    if (existing !== null && previous === null) {
      const call: DmCallRecord = {
        ...existing,
        ringing: existing.ringing.filter((id) => id !== state.userId),
        participants: existing.participants.includes(state.userId)
          ? existing.participants
          : [...existing.participants, state.userId],
      };
      await tx.calls.putCall(call);
      await tx.messages.update(channelId, call.messageId, {
        call: { participants: call.participants, endedAt: null },
      });
      if (call.ringing.length !== existing.ringing.length) {
        afterCommit(tx, callDispatches.update(record, call));
      }
    }
    return { previous, state, others, announce: callDispatches.voiceState(record, state) };
  }

  /**
   * `userId` stops being a recipient of `record` (left the group, or was removed): they leave its
   * call (its end, with CALL_DELETE to everyone, if they were the last in it); a call going on
   * without them stops ringing them (CALL_UPDATE to the others) and is a CALL_DELETE to them.
   */
  async function recipientLeaves(
    tx: Repositories,
    q: { record: PrivateChannelRecord; userId: string; nowMs: number },
  ) {
    const { record, userId } = q;
    const channelId = record.channel.id;
    await leave(tx, { userId, channelId, nowMs: q.nowMs });
    await tx.calls.lock(channelId);
    const call = await tx.calls.findCall(channelId);
    if (call === null) return;
    if (call.ringing.includes(userId)) {
      const next = { ...call, ringing: call.ringing.filter((id) => id !== userId) };
      await tx.calls.putCall(next);
      const rest = { ...record, recipients: record.recipients.filter((r) => r.userId !== userId) };
      afterCommit(tx, callDispatches.update(rest, next));
    }
    afterCommit(tx, { ...callDispatches.delete(record), userIds: [userId] });
  }

  return { join, leave, recipientLeaves };
}

export type CallLifecycle = ReturnType<typeof createCallLifecycle>;
