import { ChannelTypes, PermissionFlags, isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import { type ChannelRecord, type GuildRecord, type RoleRecord } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';

const P = PermissionFlags;

/** What @everyone may do in a new guild (the platform's defaults for a new server). */
export const DEFAULT_EVERYONE_PERMISSIONS =
  P.CREATE_INSTANT_INVITE |
  P.ADD_REACTIONS |
  P.STREAM |
  P.VIEW_CHANNEL |
  P.SEND_MESSAGES |
  P.EMBED_LINKS |
  P.ATTACH_FILES |
  P.READ_MESSAGE_HISTORY |
  P.MENTION_EVERYONE |
  P.USE_EXTERNAL_EMOJIS |
  P.CONNECT |
  P.SPEAK |
  P.USE_VAD |
  P.CHANGE_NICKNAME |
  P.USE_APPLICATION_COMMANDS |
  P.REQUEST_TO_SPEAK |
  P.CREATE_PUBLIC_THREADS |
  P.CREATE_PRIVATE_THREADS |
  P.USE_EXTERNAL_STICKERS |
  P.SEND_MESSAGES_IN_THREADS |
  P.USE_EMBEDDED_ACTIVITIES |
  P.USE_SOUNDBOARD |
  P.USE_EXTERNAL_SOUNDS |
  P.SEND_VOICE_MESSAGES |
  P.SEND_POLLS |
  P.USE_EXTERNAL_APPS;

export interface NewChannel {
  name: string;
  type: 'text' | 'voice' | 'category';
}

const CHANNEL_TYPE = {
  text: ChannelTypes.GUILD_TEXT,
  voice: ChannelTypes.GUILD_VOICE,
  category: ChannelTypes.GUILD_CATEGORY,
} as const;

export interface CreatedGuild {
  guild: GuildRecord;
  everyone: RoleRecord;
  channels: ChannelRecord[];
}

/** Making guilds and adding bots to them (the guild HTTP API builds on this). */
export function createGuildService(deps: ServiceDeps) {
  const { storage, clock, ids } = deps;

  return {
    /** A guild with its @everyone role, the given channels, and its owner as first member. */
    async create(input: {
      ownerId: string;
      name: string;
      channels: NewChannel[];
    }): Promise<CreatedGuild> {
      return storage.transaction(async (tx) => {
        const owner = await tx.users.findById(input.ownerId);
        if (owner === null || owner.bot) throw new ApiError('UNKNOWN_USER');
        const now = clock.now();
        const guild = await tx.guilds.create({
          id: ids(),
          name: input.name,
          icon: null,
          description: null,
          ownerId: owner.id,
          features: [],
          preferredLocale: 'en-US',
          createdAt: now,
        });
        // @everyone shares the guild's id, as on the platform.
        const everyone = await tx.roles.create({
          id: guild.id,
          guildId: guild.id,
          name: '@everyone',
          permissions: DEFAULT_EVERYONE_PERMISSIONS,
          position: 0,
          color: 0,
          hoist: false,
          mentionable: false,
          managed: false,
          botUserId: null,
          flags: 0,
        });
        const channels: ChannelRecord[] = [];
        for (const [position, channel] of input.channels.entries()) {
          const voice = channel.type === 'voice';
          channels.push(
            await tx.channels.create({
              id: ids(),
              guildId: guild.id,
              type: CHANNEL_TYPE[channel.type],
              name: channel.name,
              position,
              parentId: null,
              topic: null,
              nsfw: false,
              rateLimitPerUser: 0,
              bitrate: voice ? 64000 : null,
              userLimit: voice ? 0 : null,
              flags: 0,
              lastMessageId: null,
              createdAt: now,
            }),
          );
        }
        await tx.members.add({
          guildId: guild.id,
          userId: owner.id,
          nick: null,
          joinedAt: now,
          deaf: false,
          mute: false,
          flags: 0,
          roleIds: [],
        });
        return { guild, everyone, channels };
      });
    },

    /** Adds an application's bot to a guild with a managed role carrying `permissions`. */
    async addBot(input: { guildId: string; applicationId: string; permissions: bigint }) {
      return storage.transaction(async (tx) => {
        const guild = isSnowflake(input.guildId) ? await tx.guilds.findById(input.guildId) : null;
        if (guild === null) throw new ApiError('UNKNOWN_GUILD');
        const application = isSnowflake(input.applicationId)
          ? await tx.applications.findById(input.applicationId)
          : null;
        if (application?.botUserId == null) throw new ApiError('UNKNOWN_APPLICATION');
        const botUserId = application.botUserId;
        // Adding a bot that is already there changes nothing (as re-authorizing does).
        const existing = await tx.members.find(guild.id, botUserId);
        if (existing !== null) return existing;
        const roles = await tx.roles.listByGuild(guild.id);
        const role = await tx.roles.create({
          id: ids(),
          guildId: guild.id,
          name: application.name,
          permissions: input.permissions,
          position: roles.length,
          color: 0,
          hoist: false,
          mentionable: false,
          managed: true,
          botUserId,
          flags: 0,
        });
        return tx.members.add({
          guildId: guild.id,
          userId: botUserId,
          nick: null,
          joinedAt: clock.now(),
          deaf: false,
          mute: false,
          flags: 0,
          roleIds: [role.id],
        });
      });
    },
  };
}

export type GuildService = ReturnType<typeof createGuildService>;
