/**
 * @module voice/gateway/membership: calls and their members. A call starts with its first member
 * and ends with its last (its placement released: the next join may go to any node); a member
 * leaving tells the others and the call's DAVE group. A connection's close carries a reason cut
 * to what a WebSocket close allows.
 */
import { VoiceCloseCodes as Close, VoiceOpcodes as Op } from '@guildhall/protocol';
import { guildSubject, voiceCallSubject } from '../../events/dispatcher.js';
import { others, route, send } from './send.js';
import { announceSpeaking, isSpeaking } from './speakingFeed.js';
import type { Call, Conn, Member, VoiceNodeState } from './state.js';

/** Tokens ordered for the close reason (a WebSocket reason is at most 123 bytes). */
const reason = (text: string) => text.slice(0, 120);

export const closeConn = (conn: Conn, code: number, text: string) => {
  if (conn.ws.readyState === conn.ws.OPEN || conn.ws.readyState === conn.ws.CONNECTING) {
    conn.ws.close(code, reason(text));
  }
};

/** What a call's node watches: its guild's subject, or a private call's own voice subject. */
export const callSubject = (call: Pick<Call, 'guildId' | 'channelId'>) =>
  call.guildId !== null ? guildSubject(call.guildId) : voiceCallSubject(call.channelId);

export interface Membership {
  /** A call ends with its last member; the next join may go to any node. */
  endIfEmpty: (call: Call) => void;
  removeMember: (member: Member, why: string) => void;
  /** Ends a member's place and its connection (voice state gone, timed out, replaced). */
  disconnect: (member: Member, code: number, text: string) => void;
  /** The call of a grant's channel, started if there is none. */
  findCall: (grant: { guildId: string | null; channelId: string; serverId: string }) => Call;
  /** Every member of the call leaves it (the channel or the guild is gone). */
  endCall: (call: Call, why: string) => void;
}

export function createMembership(node: VoiceNodeState): Membership {
  const { calls, deps, subscriptions } = node;
  const { logger } = deps;

  /** A call ends with its last member; the next join may go to any node. */
  const endIfEmpty = (call: Call) => {
    if (call.members.size > 0 || calls.get(call.key) !== call) return;
    calls.delete(call.key);
    logger.info({ channelId: call.channelId }, 'voice call ended');
    deps.registry?.release(call.key).catch((err: unknown) => {
      logger.warn({ err }, 'voice call placement not released');
    });
  };

  const removeMember = (member: Member, why: string) => {
    const { call } = member;
    if (call.members.get(member.userId) !== member) return;
    call.members.delete(member.userId);
    node.relay?.removeMember(member.ssrc);
    subscriptions.release(callSubject(call));
    if (member.conn !== null) member.conn.member = null;
    if (member.selected) {
      for (const other of others(member)) {
        send(other, Op.CLIENT_DISCONNECT, { user_id: member.userId });
      }
    }
    route(call, call.dave.removeMember(member.userId));
    // Out of the call, nobody hears them: a member who was speaking has stopped.
    if (isSpeaking(member)) announceSpeaking(node, member, false);
    logger.info(
      { channelId: call.channelId, userId: member.userId, members: call.members.size, why },
      'voice member left',
    );
    endIfEmpty(call);
  };

  /** Ends a member's place and its connection (voice state gone, timed out, replaced). */
  const disconnect = (member: Member, code: number, text: string) => {
    const { conn } = member;
    removeMember(member, text);
    if (conn !== null) closeConn(conn, code, text);
  };

  const findCall = (grant: { guildId: string | null; channelId: string; serverId: string }) => {
    const key = grant.channelId;
    let call = calls.get(key);
    if (call === undefined) {
      call = {
        key,
        guildId: grant.guildId,
        channelId: grant.channelId,
        serverId: grant.serverId,
        members: new Map(),
        dave: deps.createDave(grant.channelId),
      };
      calls.set(key, call);
      logger.info({ channelId: grant.channelId, guildId: grant.guildId }, 'voice call started');
    }
    return call;
  };

  /** Every member of the call leaves it (the channel or the guild is gone). */
  const endCall = (call: Call, why: string) => {
    for (const member of [...call.members.values()]) disconnect(member, Close.DISCONNECTED, why);
  };

  return { endIfEmpty, removeMember, disconnect, findCall, endCall };
}
