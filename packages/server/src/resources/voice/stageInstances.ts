/**
 * Stage instances (docs/voice.md#stage-instances): a live stage in a stage channel, at most one
 * per channel. Opening, editing and closing one needs the stage moderator permissions
 * (MANAGE_CHANNELS, MUTE_MEMBERS, MOVE_MEMBERS) in the channel, writes audit entries 83–85 and
 * announces STAGE_INSTANCE_CREATE/UPDATE/DELETE to those who can see the channel.
 */
import { AuditLogActions, ChannelTypes, PermissionFlags as P } from '@guildhall/protocol';
import type { APIStageInstance } from 'discord-api-types/v10';
import { afterCommit } from '../../events/afterCommit.js';
import type { WireShape } from '../wireShape.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories, StageInstanceRecord } from '../../storage/index.js';
import { diffChanges, recordAudit, recordChanges, snapshotChanges } from '../auditLog/index.js';
import { loadChannelAccess } from '../channels/index.js';
import type { ServiceDeps } from '../deps.js';
import type { Mutation } from '../expressions/index.js';
import {
  StagePrivacy,
  type CreateStageInstanceInput,
  type ModifyStageInstanceInput,
} from './schemas.js';

/** The stage moderator permissions. */
const STAGE_MODERATOR = P.MANAGE_CHANNELS | P.MUTE_MEMBERS | P.MOVE_MEMBERS;
/** A scheduled event's entity type for a stage. */
const STAGE_EVENT = 1;

/**
 * The stage instance object (StageInstanceResponse), against discord-api-types except
 * `guild_scheduled_event_id`, which the library makes optional and the document (and the
 * platform) sends as null when there is none, and the deprecated `discoverable_disabled`.
 */
export function serializeStageInstance(instance: StageInstanceRecord) {
  return {
    id: instance.id,
    guild_id: instance.guildId,
    channel_id: instance.channelId,
    topic: instance.topic,
    privacy_level: instance.privacyLevel,
    discoverable_disabled: true,
    guild_scheduled_event_id: instance.scheduledEventId,
  } satisfies WireShape<
    Omit<APIStageInstance, 'guild_scheduled_event_id' | 'discoverable_disabled'>
  > & {
    guild_scheduled_event_id: string | null;
    /** Deprecated in the library; the document still requires it. */
    discoverable_disabled: boolean;
  };
}

export type StageInstanceWire = ReturnType<typeof serializeStageInstance>;

const audited = (i: StageInstanceRecord) => ({ topic: i.topic, privacy_level: i.privacyLevel });

/** The dispatches of a stage instance, each carrying the instance. */
type StageInstanceEvent =
  'STAGE_INSTANCE_CREATE' | 'STAGE_INSTANCE_UPDATE' | 'STAGE_INSTANCE_DELETE';

function announce(tx: Repositories, type: StageInstanceEvent, instance: StageInstanceRecord) {
  afterCommit(tx, {
    type,
    guildId: instance.guildId,
    channelId: instance.channelId,
    data: serializeStageInstance(instance),
  });
}

export function createStageInstanceService(deps: ServiceDeps) {
  const { storage, clock, ids } = deps;

  const stageAccess = async (repos: Repositories, principal: Principal, channelId: string) => {
    const access = await loadChannelAccess(repos, {
      channelId,
      userId: principal.user.id,
      nowMs: clock.now(),
    });
    if (access.channel.type !== ChannelTypes.GUILD_STAGE_VOICE) {
      throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
    }
    return access;
  };

  const findOpen = async (repos: Repositories, channelId: string) => {
    const instance = await repos.stageInstances.findByChannel(channelId);
    if (instance === null) throw new ApiError('UNKNOWN_STAGE_INSTANCE');
    return instance;
  };

  return {
    async create(principal: Principal, input: CreateStageInstanceInput & Mutation) {
      return storage.transaction(async (tx) => {
        const access = await stageAccess(tx, principal, input.channel_id);
        access.require(
          STAGE_MODERATOR | (input.send_start_notification === true ? P.MENTION_EVERYONE : 0n),
        );
        if ((await tx.stageInstances.findByChannel(access.channel.id)) !== null) {
          throw new ApiError('STAGE_ALREADY_OPEN');
        }
        const eventId = input.guild_scheduled_event_id ?? null;
        if (eventId !== null) {
          const event = await tx.scheduledEvents.findById(eventId);
          if (
            event?.guildId !== access.channel.guildId ||
            event.entityType !== STAGE_EVENT ||
            event.channelId !== access.channel.id
          ) {
            throw invalidField(
              ['guild_scheduled_event_id'],
              'BASE_TYPE_INVALID',
              'Not a stage event of this channel.',
            );
          }
        }
        const instance: StageInstanceRecord = {
          id: ids(),
          guildId: access.channel.guildId,
          channelId: access.channel.id,
          topic: input.topic,
          privacyLevel: input.privacy_level ?? StagePrivacy.GUILD_ONLY,
          scheduledEventId: eventId,
          createdAt: clock.now(),
        };
        await tx.stageInstances.create(instance);
        announce(tx, 'STAGE_INSTANCE_CREATE', instance);
        await recordAudit(tx, ids, {
          guildId: instance.guildId,
          userId: principal.user.id,
          targetId: instance.id,
          actionType: AuditLogActions.STAGE_INSTANCE_CREATE,
          changes: snapshotChanges(audited(instance)),
          options: { channel_id: instance.channelId },
          reason: input.reason,
        });
        return serializeStageInstance(instance);
      });
    },

    async get(principal: Principal, channelId: string) {
      const access = await stageAccess(storage, principal, channelId);
      access.require(P.VIEW_CHANNEL);
      return serializeStageInstance(await findOpen(storage, access.channel.id));
    },

    async modify(
      principal: Principal,
      channelId: string,
      input: ModifyStageInstanceInput & Mutation,
    ) {
      return storage.transaction(async (tx) => {
        const access = await stageAccess(tx, principal, channelId);
        access.require(STAGE_MODERATOR);
        const before = await findOpen(tx, access.channel.id);
        const after = await tx.stageInstances.update(access.channel.id, {
          ...(input.topic === undefined ? {} : { topic: input.topic }),
          ...(input.privacy_level === undefined ? {} : { privacyLevel: input.privacy_level }),
        });
        if (after === null) throw new ApiError('UNKNOWN_STAGE_INSTANCE');
        const changes = diffChanges(audited(before), audited(after));
        if (changes.length > 0) announce(tx, 'STAGE_INSTANCE_UPDATE', after);
        await recordChanges(tx, ids, {
          guildId: after.guildId,
          userId: principal.user.id,
          targetId: after.id,
          actionType: AuditLogActions.STAGE_INSTANCE_UPDATE,
          changes,
          options: { channel_id: after.channelId },
          reason: input.reason,
        });
        return serializeStageInstance(after);
      });
    },

    async delete(principal: Principal, channelId: string, m: Mutation) {
      await storage.transaction(async (tx) => {
        const access = await stageAccess(tx, principal, channelId);
        access.require(STAGE_MODERATOR);
        const instance = await findOpen(tx, access.channel.id);
        await tx.stageInstances.delete(access.channel.id);
        announce(tx, 'STAGE_INSTANCE_DELETE', instance);
        await recordAudit(tx, ids, {
          guildId: instance.guildId,
          userId: principal.user.id,
          targetId: instance.id,
          actionType: AuditLogActions.STAGE_INSTANCE_DELETE,
          changes: snapshotChanges(audited(instance), 'old'),
          options: { channel_id: instance.channelId },
          reason: m.reason,
        });
      });
    },
  };
}

export type StageInstanceService = ReturnType<typeof createStageInstanceService>;

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    STAGE_INSTANCE_CREATE: StageInstanceWire;
    STAGE_INSTANCE_UPDATE: StageInstanceWire;
    STAGE_INSTANCE_DELETE: StageInstanceWire;
  }
}
