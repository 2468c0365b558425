/**
 * The voice state routes (docs/voice.md#voice-state-routes): read a member's voice state, and in
 * a stage channel move between speaker and listener or raise a hand. They change the same
 * records the gateway's op 4 keeps and announce VOICE_STATE_UPDATE as op 4 does.
 */
import { ChannelTypes, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { afterCommit } from '../../events/afterCommit.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import { voiceStateWire } from './wire.js';
import type { Repositories, VoiceStateRecord } from '../../storage/index.js';
import { accessLoader } from '../access/index.js';
import { loadChannelAccess } from '../channels/index.js';
import type { ServiceDeps } from '../deps.js';
import { serializeMember } from '../members/index.js';
import type { UpdateSelfVoiceStateInput, UpdateVoiceStateInput } from './schemas.js';

/** The wire voice state with its member, or null when the member or user is gone. */
async function present(repos: Repositories, state: VoiceStateRecord) {
  const [member, user] = await Promise.all([
    repos.members.find(state.guildId, state.userId),
    repos.users.findById(state.userId),
  ]);
  if (member === null || user === null) return null;
  return voiceStateWire(state, serializeMember(member, user), member);
}

export function createVoiceStateService(deps: ServiceDeps) {
  const { storage, clock } = deps;
  const accessFor = accessLoader(clock);

  /** The target's state in a stage channel the caller may act in, or the platform's error. */
  async function stageState(
    tx: Repositories,
    principal: Principal,
    target: { guildId: string; userId: string; channelId: string | null | undefined },
  ) {
    const access = await accessFor(tx, principal, target.guildId);
    const state = isSnowflake(target.userId)
      ? await tx.gateway.findVoiceState(access.guild.id, target.userId)
      : null;
    if (state === null) throw new ApiError('UNKNOWN_VOICE_STATE');
    // channel_id names the stage the user is in now; another channel is refused.
    if (target.channelId != null && target.channelId !== state.channelId) {
      throw invalidField(['channel_id'], 'BASE_TYPE_INVALID', 'The user is not in this channel.');
    }
    const channel = await loadChannelAccess(tx, {
      channelId: state.channelId,
      userId: principal.user.id,
      nowMs: clock.now(),
    });
    if (channel.channel.type !== ChannelTypes.GUILD_STAGE_VOICE) {
      throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
    }
    return { state, channel };
  }

  async function write(tx: Repositories, next: VoiceStateRecord) {
    await tx.gateway.putVoiceState(next);
    const wire = await present(tx, next);
    if (wire !== null) {
      afterCommit(tx, { type: 'VOICE_STATE_UPDATE', guildId: next.guildId, data: wire });
    }
  }

  return {
    async get(principal: Principal, guildId: string, userId: string) {
      const access = await accessFor(storage, principal, guildId);
      const who = userId === '@me' ? principal.user.id : userId;
      const state = isSnowflake(who)
        ? await storage.gateway.findVoiceState(access.guild.id, who)
        : null;
      const wire = state === null ? null : await present(storage, state);
      if (wire === null) throw new ApiError('UNKNOWN_VOICE_STATE');
      return wire;
    },

    /** The caller in a stage: become a speaker (MUTE_MEMBERS), a listener, or raise a hand. */
    async updateSelf(principal: Principal, guildId: string, input: UpdateSelfVoiceStateInput) {
      await storage.transaction(async (tx) => {
        const { state, channel } = await stageState(tx, principal, {
          guildId,
          userId: principal.user.id,
          channelId: input.channel_id,
        });
        channel.require(P.CONNECT);
        const next = { ...state };
        if (input.suppress === false) {
          channel.require(P.MUTE_MEMBERS);
          next.suppress = false;
          next.requestToSpeakAt = null;
        } else if (input.suppress === true) {
          next.suppress = true;
        }
        if (input.request_to_speak_timestamp !== undefined) {
          if (input.request_to_speak_timestamp !== null) channel.require(P.REQUEST_TO_SPEAK);
          next.requestToSpeakAt = input.request_to_speak_timestamp;
        }
        await write(tx, next);
      });
    },

    /** Another member in a stage: invite to speak (suppress false) or move to the audience. */
    async update(
      principal: Principal,
      target: { guildId: string; userId: string },
      input: UpdateVoiceStateInput,
    ) {
      if (input.channel_id == null) {
        throw invalidField(['channel_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
      }
      await storage.transaction(async (tx) => {
        const { state, channel } = await stageState(tx, principal, {
          ...target,
          channelId: input.channel_id,
        });
        channel.require(P.MUTE_MEMBERS);
        if (input.suppress == null) return;
        // Invited to speak, the raised hand stays (the client shows the invitation with it).
        await write(tx, { ...state, suppress: input.suppress });
      });
    },
  };
}

export type VoiceStateService = ReturnType<typeof createVoiceStateService>;
