import {
  ALL_PERMISSIONS,
  AuditLogActions,
  ChannelTypes,
  PermissionFlags,
  isSnowflake,
  isVoiceChannelType,
} from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import { recordAudit } from '../auditLog/index.js';
import type {
  ChannelRecord,
  GuildRecord,
  OverwriteRecord,
  RoleRecord,
} from '../../storage/index.js';
import { DEFAULT_BITRATE, type GuildChannelType } from '../channels/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ServiceDeps } from '../deps.js';
import { announceIntegrationCreate } from '../integrations/index.js';
import { serializeMember, memberDispatches } from '../members/index.js';
import { serializeRole, roleDispatches } from '../roles/index.js';

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

/** A channel of a new guild. `ref`/`parentRef` are the body's placeholder ids (POST /guilds). */
export interface NewChannel {
  name: string;
  type: 'text' | 'voice' | 'category' | GuildChannelType;
  ref?: string;
  /** The `ref` of a category listed earlier. */
  parentRef?: string;
  topic?: string | null;
  nsfw?: boolean;
  rateLimitPerUser?: number;
  bitrate?: number;
  userLimit?: number;
  /** Role overwrites by role `ref` (the @everyone placeholder included). */
  overwrites?: { roleRef: string; allow: bigint; deny: bigint }[];
}

/** A role of a new guild; the first one given edits @everyone (the platform's rule). */
export interface NewGuildRole {
  ref?: string;
  name?: string;
  permissions?: bigint;
  color?: number;
  hoist?: boolean;
  mentionable?: boolean;
}

/** Everything a new guild may start with (POST /guilds, the CLI, the demo). */
export interface NewGuildInput {
  ownerId: string;
  name: string;
  channels: NewChannel[];
  icon?: string | null;
  roles?: NewGuildRole[];
  settings?: Partial<
    Pick<
      GuildRecord,
      | 'verificationLevel'
      | 'defaultMessageNotifications'
      | 'explicitContentFilter'
      | 'afkTimeout'
      | 'systemChannelFlags'
    >
  >;
  /** Channel `ref`s for the AFK and system channels. */
  afkChannelRef?: string;
  systemChannelRef?: string;
}

const CHANNEL_TYPE = {
  text: ChannelTypes.GUILD_TEXT,
  voice: ChannelTypes.GUILD_VOICE,
  category: ChannelTypes.GUILD_CATEGORY,
} as const;

/** Guilds a user may be in before creating another is refused (30001). */
export const MAX_GUILDS_PER_USER = 100;

export interface CreatedGuild {
  guild: GuildRecord;
  everyone: RoleRecord;
  channels: ChannelRecord[];
}

/** Making guilds and adding bots to them (the guild HTTP API builds on this). */
export function createGuildService(deps: ServiceDeps) {
  const { storage, clock, ids } = deps;

  return {
    /**
     * A guild with its @everyone role, the given roles and channels, and its owner as first
     * member. Placeholder refs are checked by the caller (see create.ts); unknown ones are ignored.
     */
    async create(input: NewGuildInput): Promise<CreatedGuild> {
      return storage.transaction(async (tx) => {
        const owner = await tx.users.findById(input.ownerId);
        if (owner === null || owner.bot) throw new ApiError('UNKNOWN_USER');
        if ((await tx.guilds.countForUser(owner.id)) >= MAX_GUILDS_PER_USER) {
          throw new ApiError('MAX_GUILDS');
        }
        const now = clock.now();
        const guildId = ids();
        const [everyoneTemplate, ...roleTemplates] = input.roles ?? [];
        const roleIds = new Map<string, string>();
        if (everyoneTemplate?.ref !== undefined) roleIds.set(everyoneTemplate.ref, guildId);
        const channelIds = new Map<string, string>();
        for (const channel of input.channels) {
          if (channel.ref !== undefined) channelIds.set(channel.ref, ids());
        }
        const refOf = (ref: string | undefined) =>
          ref === undefined ? null : (channelIds.get(ref) ?? null);
        const guild = await tx.guilds.create({
          id: guildId,
          name: input.name,
          icon: input.icon ?? null,
          description: null,
          ownerId: owner.id,
          features: [],
          preferredLocale: 'en-US',
          createdAt: now,
          ...input.settings,
          afkChannelId: refOf(input.afkChannelRef),
          systemChannelId: refOf(input.systemChannelRef),
        });
        // @everyone shares the guild's id, as on the platform.
        const everyone = await tx.roles.create({
          id: guild.id,
          guildId: guild.id,
          name: '@everyone',
          permissions: everyoneTemplate?.permissions ?? DEFAULT_EVERYONE_PERMISSIONS,
          position: 0,
          color: 0,
          hoist: false,
          mentionable: false,
          managed: false,
          botUserId: null,
          flags: 0,
        });
        for (const [index, template] of roleTemplates.entries()) {
          const role = await tx.roles.create({
            id: ids(),
            guildId: guild.id,
            name: template.name ?? 'new role',
            permissions: template.permissions ?? 0n,
            position: index + 1,
            color: template.color ?? 0,
            hoist: template.hoist ?? false,
            mentionable: template.mentionable ?? false,
            managed: false,
            botUserId: null,
            flags: 0,
          });
          if (template.ref !== undefined) roleIds.set(template.ref, role.id);
        }
        const channels: ChannelRecord[] = [];
        for (const [position, channel] of input.channels.entries()) {
          const type = typeof channel.type === 'number' ? channel.type : CHANNEL_TYPE[channel.type];
          const voice = isVoiceChannelType(type);
          const id = (channel.ref === undefined ? undefined : channelIds.get(channel.ref)) ?? ids();
          channels.push(
            await tx.channels.create({
              id,
              guildId: guild.id,
              type,
              name: channel.name,
              position,
              parentId: refOf(channel.parentRef),
              topic: channel.topic ?? null,
              nsfw: channel.nsfw ?? false,
              rateLimitPerUser: channel.rateLimitPerUser ?? 0,
              bitrate: voice ? (channel.bitrate ?? DEFAULT_BITRATE) : null,
              userLimit: voice ? (channel.userLimit ?? 0) : null,
              flags: 0,
              lastMessageId: null,
              createdAt: now,
            }),
          );
          for (const overwrite of channel.overwrites ?? []) {
            const targetId = roleIds.get(overwrite.roleRef);
            if (targetId === undefined) continue;
            const record: OverwriteRecord = {
              channelId: id,
              targetId,
              type: 0,
              allow: overwrite.allow,
              deny: overwrite.deny,
            };
            await tx.overwrites.put(record);
          }
        }
        const member = await tx.members.add({
          guildId: guild.id,
          userId: owner.id,
          nick: null,
          joinedAt: now,
          deaf: false,
          mute: false,
          flags: 0,
          roleIds: [],
        });
        // The owner's sessions get the guild's GUILD_CREATE from the gateway on this event.
        afterCommit(tx, memberDispatches.memberAdd(guild.id, serializeMember(member, owner)));
        return { guild, everyone, channels };
      });
    },

    /**
     * Adds an application's bot to a guild with a managed role carrying `permissions`:
     * GUILD_ROLE_CREATE, GUILD_MEMBER_ADD, INTEGRATION_CREATE and GUILD_INTEGRATIONS_UPDATE.
     */
    async addBot(input: {
      guildId: string;
      applicationId: string;
      permissions: bigint;
      /** Who added it (the guild owner when not given, as for the CLI and the demo). */
      actorId?: string;
    }) {
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
        // A banned bot stays out until the ban is lifted, as a banned person does.
        if ((await tx.bans.find(guild.id, botUserId)) !== null) throw new ApiError('USER_BANNED');
        await tx.guilds.lock(guild.id);
        const roles = await tx.roles.listByGuild(guild.id);
        // The managed role sits at the bottom, just above @everyone (as a new role does), so it
        // outranks no one; the other roles move up one.
        await tx.roles.setPositions(
          guild.id,
          roles
            .filter((role) => role.id !== guild.id)
            .map((role) => ({ id: role.id, position: role.position + 1 })),
        );
        const role = await tx.roles.create({
          id: ids(),
          guildId: guild.id,
          name: application.name,
          permissions: input.permissions & ALL_PERMISSIONS,
          position: 1,
          color: 0,
          hoist: false,
          mentionable: false,
          managed: true,
          botUserId,
          flags: 0,
        });
        const member = await tx.members.add({
          guildId: guild.id,
          userId: botUserId,
          nick: null,
          joinedAt: clock.now(),
          deaf: false,
          mute: false,
          flags: 0,
          roleIds: [role.id],
        });
        const botUser = await tx.users.findById(botUserId);
        afterCommit(tx, roleDispatches.roleCreate(guild.id, serializeRole(role)));
        if (botUser !== null) {
          afterCommit(tx, memberDispatches.memberAdd(guild.id, serializeMember(member, botUser)));
        }
        await announceIntegrationCreate(tx, guild.id, application);
        await recordAudit(tx, ids, {
          guildId: guild.id,
          userId: input.actorId ?? guild.ownerId,
          targetId: botUserId,
          actionType: AuditLogActions.BOT_ADD,
          reason: null,
        });
        return member;
      });
    },
  };
}

export type GuildService = ReturnType<typeof createGuildService>;
