/**
 * Guild tags (set by a member with MANAGE_GUILD) and the primary guild a user wears
 * (`primary_guild` on the user object, read with the user: storage/sql/users.ts).
 */
import { PermissionFlags as P } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit, onCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { GuildTagRecord, Repositories } from '../../storage/index.js';
import { accessLoader, requireScope } from '../access/index.js';
import type { ServiceDeps } from '../deps.js';
import { serializeCurrentUser, serializePrimaryGuild, userDispatches } from '../users/index.js';
import type { PutGuildTagInput, PutPrimaryGuildInput } from './schemas.js';

/** The guild tag object these routes answer with. */
export function serializeGuildTag(tag: GuildTagRecord) {
  return { guild_id: tag.guildId, tag: tag.tag, badge: tag.badge };
}

/** What `primary_guild` shows when the user wears no tag, as the PUT answers a clear. */
const NO_PRIMARY_GUILD = {
  identity_guild_id: null,
  identity_enabled: null,
  tag: null,
  badge: null,
};

export function createGuildTagService(deps: ServiceDeps) {
  const { storage, clock, authenticator } = deps;
  const accessFor = accessLoader(clock);

  /**
   * After a tag change, each user wearing the guild's tag gets USER_UPDATE with their user as it
   * now reads (those who left it show none, and are told too).
   */
  const announceWearers = async (tx: Repositories, guildId: string) => {
    const userIds = await tx.guildTags.listPrimaryGuildUsers(guildId);
    for (const user of await tx.users.findByIds(userIds)) {
      afterCommit(
        tx,
        userDispatches.userUpdate(serializeCurrentUser(user, { email: true, premium: true })),
      );
      onCommit(tx, () => {
        authenticator.forgetUser(user.id);
      });
    }
  };

  return {
    /** GET /guilds/{id}/tag: any member; 10087 when the guild has none. */
    async get(principal: Principal, guildId: string) {
      const access = await accessFor(storage, principal, guildId);
      const tag = await storage.guildTags.findTag(access.guild.id);
      if (tag === null) throw new ApiError('UNKNOWN_TAG');
      return serializeGuildTag(tag);
    },

    /** PUT /guilds/{id}/tag: MANAGE_GUILD. Members who chose the guild show the new tag. */
    put(principal: Principal, guildId: string, input: PutGuildTagInput) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, guildId);
        access.require(P.MANAGE_GUILD);
        const tag: GuildTagRecord = {
          guildId: access.guild.id,
          tag: input.tag,
          badge: input.badge ?? null,
          updatedAt: clock.now(),
        };
        await tx.guildTags.putTag(tag);
        await announceWearers(tx, tag.guildId);
        return serializeGuildTag(tag);
      });
    },

    /** DELETE /guilds/{id}/tag: MANAGE_GUILD; every user's choice of the guild is turned off. */
    async remove(principal: Principal, guildId: string): Promise<void> {
      await storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, guildId);
        access.require(P.MANAGE_GUILD);
        if (!(await tx.guildTags.deleteTag(access.guild.id))) throw new ApiError('UNKNOWN_TAG');
        await announceWearers(tx, access.guild.id);
      });
    },

    /**
     * PUT /users/@me/primary-guild: wear (or hide, identity_enabled false) the tag of a guild the
     * caller is a member of and that has one; null clears. The caller's sessions get USER_UPDATE.
     */
    async putPrimaryGuild(principal: Principal, input: PutPrimaryGuildInput) {
      requireScope(principal, 'identify');
      const userId = principal.user.id;
      const updated = await storage.transaction(async (tx) => {
        const guildId = input.identity_guild_id;
        if (guildId === null) {
          await tx.guildTags.clearPrimaryGuild(userId);
        } else {
          const guild = await tx.guilds.findById(guildId);
          if (guild === null) throw new ApiError('UNKNOWN_GUILD');
          if ((await tx.members.find(guild.id, userId)) === null) {
            throw new ApiError('UNKNOWN_MEMBER');
          }
          if ((await tx.guildTags.findTag(guild.id)) === null) {
            throw invalidField(
              ['identity_guild_id'],
              'GUILD_TAG_REQUIRED',
              'This guild has no tag to show.',
            );
          }
          await tx.guildTags.setPrimaryGuild({
            userId,
            guildId: guild.id,
            enabled: input.identity_enabled ?? true,
            at: clock.now(),
          });
        }
        const user = await tx.users.findById(userId);
        if (user === null) throw new ApiError('UNKNOWN_USER');
        afterCommit(
          tx,
          userDispatches.userUpdate(serializeCurrentUser(user, { email: true, premium: true })),
        );
        return user;
      });
      // This node's cached principals of the user now miss the change; other nodes catch up
      // within the authentication cache's lifetime, as after PATCH /users/@me.
      authenticator.forgetUser(userId);
      return serializePrimaryGuild(updated.primaryGuild) ?? NO_PRIMARY_GUILD;
    },
  };
}

export type GuildTagService = ReturnType<typeof createGuildTagService>;
