import { ChannelTypes, PermissionFlags as P } from '@guildhall/protocol';
import { hasAll } from '../../domain/permissions.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { ChannelRecord, Repositories } from '../../storage/index.js';
import type { GuildAccess } from '../access/index.js';
import { EntityTypes, EventStatuses } from './schemas.js';

/** A scheduled event, by its guild and its id, as the routes name it. */
export interface EventTarget {
  guildId: string;
  eventId: string;
}

/** Where and when an event happens: the part of an event the entity rules constrain. */
export interface EventPlace {
  entityType: number;
  channelId: string | null;
  location: string | null;
  startMs: number;
  endMs: number | null;
}

const CHANNEL_TYPE_OF: Record<number, number> = {
  [EntityTypes.STAGE_INSTANCE]: ChannelTypes.GUILD_STAGE_VOICE,
  [EntityTypes.VOICE]: ChannelTypes.GUILD_VOICE,
};

/** A stage or voice event's channel needs VIEW_CHANNEL and CONNECT there (the caller's view). */
export async function canJoinChannel(
  repos: Repositories,
  access: GuildAccess,
  channel: ChannelRecord,
): Promise<boolean> {
  const overwrites = await repos.overwrites.listByChannel(channel.id);
  return hasAll(access.inChannel(channel, overwrites), P.VIEW_CHANNEL | P.CONNECT);
}

/**
 * The entity rules (platform docs, guild scheduled event): EXTERNAL needs a location and an end
 * time and no channel; STAGE_INSTANCE and VOICE need a stage or voice channel of the guild the
 * caller can view and connect to, and carry no location. An end is after the start.
 * @returns the place with what does not apply cleared.
 */
export async function checkPlace(
  repos: Repositories,
  access: GuildAccess,
  place: EventPlace,
): Promise<EventPlace> {
  if (place.endMs !== null && place.endMs <= place.startMs) {
    throw invalidField(
      ['scheduled_end_time'],
      'GUILD_SCHEDULED_EVENT_END_BEFORE_START',
      'The end time must be after the start time.',
    );
  }
  if (place.entityType === EntityTypes.EXTERNAL) {
    if (place.channelId !== null) {
      throw invalidField(['channel_id'], 'BASE_TYPE_INVALID', 'External events have no channel.');
    }
    if (place.location === null) {
      throw invalidField(
        ['entity_metadata', 'location'],
        'BASE_TYPE_REQUIRED',
        'This field is required',
      );
    }
    if (place.endMs === null) {
      throw invalidField(['scheduled_end_time'], 'BASE_TYPE_REQUIRED', 'This field is required');
    }
    return place;
  }
  if (place.channelId === null) {
    throw invalidField(['channel_id'], 'BASE_TYPE_REQUIRED', 'This field is required');
  }
  const channel = await repos.channels.findById(place.channelId);
  if (channel?.guildId !== access.guild.id) throw new ApiError('UNKNOWN_CHANNEL');
  if (channel.type !== CHANNEL_TYPE_OF[place.entityType]) {
    throw invalidField(
      ['channel_id'],
      'CHANNEL_TYPE_INVALID',
      place.entityType === EntityTypes.VOICE
        ? 'Voice events need a voice channel.'
        : 'Stage events need a stage channel.',
    );
  }
  if (!(await canJoinChannel(repos, access, channel))) throw new ApiError('MISSING_PERMISSIONS');
  return { ...place, location: null };
}

/** SCHEDULED → ACTIVE or CANCELED, ACTIVE → COMPLETED; nothing leaves COMPLETED or CANCELED. */
const TRANSITIONS: Record<number, readonly number[]> = {
  [EventStatuses.SCHEDULED]: [EventStatuses.ACTIVE, EventStatuses.CANCELED],
  [EventStatuses.ACTIVE]: [EventStatuses.COMPLETED],
  [EventStatuses.COMPLETED]: [],
  [EventStatuses.CANCELED]: [],
};

/** Refuses a status change the platform does not allow (50035 on `status`). */
export function checkTransition(from: number, to: number): void {
  if (from === to) return;
  if (!(TRANSITIONS[from] ?? []).includes(to)) {
    throw invalidField(
      ['status'],
      'GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION',
      `Cannot change the status from ${from} to ${to}.`,
    );
  }
}
