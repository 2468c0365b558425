/** Channels, their permission overwrites and voice channel statuses. */

import type { GuildRecord } from './guilds.js';
import type { MemberRecord, RoleRecord } from './members.js';

export interface ChannelRecord {
  id: string;
  guildId: string | null;
  type: number;
  name: string | null;
  position: number;
  parentId: string | null;
  topic: string | null;
  nsfw: boolean;
  rateLimitPerUser: number;
  bitrate: number | null;
  userLimit: number | null;
  flags: number;
  lastMessageId: string | null;
  createdAt: number;
  /** The application that made the channel (nullable on the wire; null for guild channels). */
  applicationId: string | null;
}

export type NewChannelRecord = Omit<ChannelRecord, 'applicationId'> &
  Partial<Pick<ChannelRecord, 'applicationId'>>;

export type ChannelPatch = Partial<
  Pick<
    ChannelRecord,
    | 'type'
    | 'name'
    | 'position'
    | 'parentId'
    | 'topic'
    | 'nsfw'
    | 'rateLimitPerUser'
    | 'bitrate'
    | 'userLimit'
    | 'flags'
  >
>;

export interface ChannelRepository {
  create(channel: NewChannelRecord): Promise<ChannelRecord>;
  findById(id: string): Promise<ChannelRecord | null>;
  listByGuild(guildId: string): Promise<ChannelRecord[]>;
  update(id: string, patch: ChannelPatch): Promise<ChannelRecord | null>;
  /** Deletes one channel (children of a category lose their parent); returns whether it existed. */
  delete(id: string): Promise<boolean>;
  /**
   * A guild channel with all that deciding a user's permissions in it needs, read in one
   * statement: its guild, the user's membership (null when not a member), the guild's roles and
   * the channel's overwrites. Null for an unknown channel or one outside a guild.
   */
  findAccessContext(channelId: string, userId: string): Promise<ChannelAccessContext | null>;
}

/** What `ChannelRepository.findAccessContext` reads. */
export interface ChannelAccessContext {
  channel: ChannelRecord & { guildId: string };
  guild: GuildRecord;
  member: MemberRecord | null;
  /** The guild's roles by position, then id. */
  roles: RoleRecord[];
  /** The channel's overwrites by target id. */
  overwrites: OverwriteRecord[];
}

/** A channel permission overwrite: type 0 targets a role, 1 a member. */
export interface OverwriteRecord {
  channelId: string;
  targetId: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

export interface OverwriteRepository {
  listByChannel(channelId: string): Promise<OverwriteRecord[]>;
  /** Every overwrite of the given channels, for permission checks over a guild's channels. */
  listByChannels(channelIds: readonly string[]): Promise<OverwriteRecord[]>;
  /** Creates or replaces; returns whether one existed before. */
  put(overwrite: OverwriteRecord): Promise<boolean>;
  /** Returns whether one existed. */
  delete(channelId: string, targetId: string): Promise<boolean>;
}

/** A voice channel's status: ephemeral, never a field of the channel object (spec). */
export interface VoiceStatusRecord {
  channelId: string;
  status: string;
  updatedAt: number;
}

export interface VoiceStatusRepository {
  find(channelId: string): Promise<VoiceStatusRecord | null>;
  put(record: VoiceStatusRecord): Promise<void>;
  /** Returns whether there was a status. */
  delete(channelId: string): Promise<boolean>;
}
