/**
 * @module voice/gateway/speakingFeed: a guild call's speaking changes on the bus
 * (`voice.speaking.<guild>`, events/dispatcher.ts), for the clients that show the channel without
 * being in its call: the gateway passes them to the sessions that follow the channel (Guildhall's
 * op 1001, docs/gateway.md#guildhalls-own). Only changes are published: a member's Speaking that
 * keeps it speaking (another flag, say) is not one; leaving the call while speaking stops it.
 * Private calls (lobbies, DMs) have no feed.
 */
import { SPEAKING_UPDATE, speakingSubject, type SpeakingUpdate } from '../../events/dispatcher.js';
import type { Member, VoiceNodeState } from './state.js';

/** Whether a member's last Speaking said it speaks (any flag set). */
export function isSpeaking(member: Pick<Member, 'speaking'>): boolean {
  return member.speaking !== null && member.speaking.speaking !== 0;
}

/** Publishes that `member` started or stopped speaking, for a guild call. Never throws. */
export function announceSpeaking(node: VoiceNodeState, member: Member, speaking: boolean): void {
  const { call } = member;
  if (call.guildId === null) return;
  const data: SpeakingUpdate = {
    guild_id: call.guildId,
    channel_id: call.channelId,
    user_id: member.userId,
    speaking,
  };
  const { bus, clock, logger } = node.deps;
  bus
    .publish(speakingSubject(call.guildId), {
      type: SPEAKING_UPDATE,
      topic: call.guildId,
      data,
      publishedAt: clock.now(),
    })
    .catch((err: unknown) => {
      logger.warn({ err, channelId: call.channelId }, 'voice: speaking change not published');
    });
}
