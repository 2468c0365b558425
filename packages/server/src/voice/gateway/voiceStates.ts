/**
 * @module voice/gateway/voiceStates: the main gateway's voice states rule membership. A member
 * whose voice state leaves the call, whose channel or guild is gone, or who leaves the guild is
 * disconnected; a voice state that stays sets the member's deaf and mute at the relay.
 */
import { VoiceCloseCodes as Close } from '@guildhall/protocol';
import type { BusEvent } from '../../bus/index.js';
import type { DispatchEnvelope } from '../../events/dispatcher.js';
import type { Membership } from './membership.js';
import type { Member, VoiceNodeState } from './state.js';

/** The handler of the dispatches the node subscribes to (the voice states of its calls). */
export function createDispatchHandler(
  node: VoiceNodeState,
  membership: Membership,
): (event: BusEvent) => void {
  const { calls, deps } = node;
  const { logger } = deps;
  const { disconnect, endCall } = membership;

  /**
   * A voice state without a guild that names no call of this node may be the user's call in
   * another game (one lobby call per user per application) or their DM call while they are in a
   * lobby's: the member goes only if its own state is gone.
   */
  const recheckLobbyMember = (member: Member) => {
    const { call } = member;
    deps
      .voiceState({ guildId: null, channelId: call.channelId, userId: member.userId })
      .then((state) => {
        if (call.members.get(member.userId) !== member) return;
        if (state?.sessionId !== member.sessionId) {
          disconnect(member, Close.DISCONNECTED, 'the voice state left this call');
        }
      })
      .catch((err: unknown) => {
        logger.warn({ err }, 'voice state not read again');
      });
  };

  function onDispatch(event: BusEvent) {
    const envelope = event.data as DispatchEnvelope;
    const d = envelope.data as Record<string, unknown> | null;
    if (d === null || typeof d !== 'object') return;
    switch (event.type) {
      case 'VOICE_STATE_UPDATE':
        onVoiceState(d);
        return;
      case 'CHANNEL_DELETE':
        for (const call of calls.values()) {
          if (call.channelId === d['id']) endCall(call, 'the channel was deleted');
        }
        return;
      case 'GUILD_DELETE':
        for (const call of [...calls.values()]) {
          if (call.guildId !== null && call.guildId === d['id']) endCall(call, 'the guild is gone');
        }
        return;
      case 'GUILD_MEMBER_REMOVE': {
        const user = d['user'] as { id?: unknown } | undefined;
        for (const call of calls.values()) {
          const member = typeof user?.id === 'string' ? call.members.get(user.id) : undefined;
          if (member !== undefined && call.guildId === d['guild_id']) {
            disconnect(member, Close.DISCONNECTED, 'no longer a member of the guild');
          }
        }
        return;
      }
      default:
    }
  }

  function onVoiceState(state: Record<string, unknown>) {
    const userId = state['user_id'];
    if (typeof userId !== 'string') return;
    const guildId = (state['guild_id'] as string | null | undefined) ?? null;
    for (const call of calls.values()) {
      if (call.guildId !== guildId) continue;
      const member = call.members.get(userId);
      if (member === undefined) continue;
      if (state['channel_id'] === call.channelId && state['session_id'] === member.sessionId) {
        node.relay?.setDeaf(member.ssrc, state['self_deaf'] === true || state['deaf'] === true);
        node.relay?.setMuted(member.ssrc, state['mute'] === true || state['suppress'] === true);
      } else if (guildId === null) {
        recheckLobbyMember(member);
      } else {
        disconnect(member, Close.DISCONNECTED, 'the voice state left this call');
      }
    }
  }

  return onDispatch;
}
