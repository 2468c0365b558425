import { AuditLogActions, PermissionFlags as P, isVoiceChannelType } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import { recordAudit } from '../auditLog/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ServiceDeps } from '../deps.js';
import { channelDispatches } from './dispatch.js';
import { loadChannelAccess } from './access.js';

/** Whether a user is connected to a voice channel. */
export type VoiceConnectionLookup = (
  userId: string,
  channelId: string,
) => boolean | Promise<boolean>;

export interface VoiceStatusServiceOptions {
  /** By default the voice states the gateway keeps (op 4), read in the request's transaction. */
  isConnected?: VoiceConnectionLookup;
}

/**
 * PUT /channels/{id}/voice-status (spec, Table A): voice and stage channels only. Needs
 * SET_VOICE_CHANNEL_STATUS, plus MANAGE_CHANNELS when the caller is not connected to the channel.
 * The status is ephemeral: kept beside the channel, never a field of the channel object. Setting
 * writes entry 192, clearing 193, each with the status in its options (spec, Audit log events).
 */
export function createVoiceStatusService(
  deps: ServiceDeps,
  options: VoiceStatusServiceOptions = {},
) {
  const { storage, clock, ids } = deps;
  return {
    async set(
      principal: Principal,
      channelId: string,
      input: { status: string | null; reason: string | null },
    ): Promise<void> {
      await storage.transaction(async (tx) => {
        const access = await loadChannelAccess(tx, {
          channelId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        const { channel } = access;
        if (!isVoiceChannelType(channel.type)) throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
        const connected = await (
          options.isConnected ??
          ((userId: string, id: string) => tx.gateway.isInVoiceChannel(userId, id))
        )(principal.user.id, channel.id);
        access.require(P.SET_VOICE_CHANNEL_STATUS | (connected ? 0n : P.MANAGE_CHANNELS));
        const status = input.status === '' ? null : input.status;
        const target = { id: channel.id, guildId: channel.guildId };
        const entry = {
          guildId: channel.guildId,
          userId: principal.user.id,
          targetId: channel.id,
          reason: input.reason,
        };
        if (status === null) {
          const previous = await tx.voiceStatus.find(channel.id);
          // Clearing a channel without a status changes nothing, so nothing is recorded.
          if (previous === null) return;
          await tx.voiceStatus.delete(channel.id);
          afterCommit(tx, channelDispatches.voiceChannelStatusUpdate({ ...target, status: null }));
          await recordAudit(tx, ids, {
            ...entry,
            actionType: AuditLogActions.VOICE_CHANNEL_STATUS_DELETE,
            options: { channel_id: channel.id, status: previous.status },
          });
          return;
        }
        await tx.voiceStatus.put({ channelId: channel.id, status, updatedAt: clock.now() });
        afterCommit(tx, channelDispatches.voiceChannelStatusUpdate({ ...target, status }));
        await recordAudit(tx, ids, {
          ...entry,
          actionType: AuditLogActions.VOICE_CHANNEL_STATUS_CREATE,
          options: { channel_id: channel.id, status },
        });
      });
    },
  };
}

export type VoiceStatusService = ReturnType<typeof createVoiceStatusService>;
