import { AuditLogActions, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { BanQuery, BanRecord, Repositories } from '../../storage/index.js';
import { recordAudit } from '../auditLog/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ServiceDeps } from '../deps.js';
import { banDispatches } from './dispatch.js';
import { announceBotLeft } from '../integrations/index.js';
import { accessLoader, type GuildAccess } from '../access/index.js';
import { assertAboveMember, type MemberRequest, memberDispatches } from '../members/index.js';
import type { GuildRequest } from '../roles/index.js';
import { serializeUser } from '../users/index.js';
import {
  announceDeletions,
  deleteRecentMessages,
  type DeletedMessages,
} from '../messages/index.js';
import type { BanInput, BulkBanInput } from './schemas.js';
import { SECOND_MS, DAY_SECONDS } from '../../domain/time.js';

async function serializeBans(repos: Repositories, bans: readonly BanRecord[]) {
  const users = await Promise.all(bans.map((ban) => repos.users.findById(ban.userId)));
  return bans.flatMap((ban, index) => {
    const user = users[index];
    return user == null ? [] : [{ user: serializeUser(user), reason: ban.reason }];
  });
}

/**
 * Guild bans (BAN_MEMBERS). A ban removes the member and deletes their messages sent within
 * the message-deletion window (kept on the ban too), announced as MESSAGE_DELETE_BULK.
 */
export function createBanService(deps: ServiceDeps) {
  const { storage, clock, ids } = deps;

  const accessFor = accessLoader(clock);

  /**
   * Bans one user inside the caller's transaction.
   * @throws ApiError 10013 for an unknown user, 50013 for the owner or a member not below the
   *   caller.
   * @returns whether a ban was made (false when the user was banned already).
   */
  const banOne = async (
    tx: Repositories,
    access: GuildAccess,
    ban: {
      userId: string;
      deleteMessageSeconds: number;
      reason: string | null;
      /** Where the messages deleted from the window are listed, for dispatch after commit. */
      deleted: DeletedMessages[];
    },
  ): Promise<boolean> => {
    const user = isSnowflake(ban.userId) ? await tx.users.findById(ban.userId) : null;
    if (user === null) throw new ApiError('UNKNOWN_USER');
    const guildId = access.guild.id;
    const member = await tx.members.find(guildId, user.id);
    // Users outside the guild may be banned too; members only from below.
    if (member !== null) assertAboveMember(access, member);
    const created = await tx.bans.create({
      guildId,
      userId: user.id,
      reason: ban.reason,
      deleteMessageSeconds: ban.deleteMessageSeconds,
      createdAt: clock.now(),
    });
    if (created) afterCommit(tx, banDispatches.banAdd(guildId, serializeUser(user)));
    if (member !== null) {
      await tx.members.remove(guildId, [user.id]);
      afterCommit(tx, memberDispatches.memberRemove(guildId, serializeUser(user)));
      await announceBotLeft(tx, guildId, user);
    }
    if (created && ban.deleteMessageSeconds > 0) {
      ban.deleted.push(
        ...(await deleteRecentMessages(tx, {
          guildId,
          authorId: user.id,
          sinceMs: clock.now() - ban.deleteMessageSeconds * SECOND_MS,
          blobs: deps.blobs,
        })),
      );
    }
    if (created) {
      await recordAudit(tx, ids, {
        guildId,
        userId: access.subject.member.userId,
        targetId: user.id,
        actionType: AuditLogActions.MEMBER_BAN_ADD,
        reason: ban.reason,
      });
    }
    return created;
  };

  return {
    async list(principal: Principal, guildId: string, query: BanQuery) {
      const access = await accessFor(storage, principal, guildId);
      access.require(P.BAN_MEMBERS);
      return serializeBans(storage, await storage.bans.list(access.guild.id, query));
    },

    async get(principal: Principal, guildId: string, userId: string) {
      const access = await accessFor(storage, principal, guildId);
      access.require(P.BAN_MEMBERS);
      const ban = isSnowflake(userId) ? await storage.bans.find(access.guild.id, userId) : null;
      if (ban === null) throw new ApiError('UNKNOWN_BAN');
      const [wire] = await serializeBans(storage, [ban]);
      if (wire === undefined) throw new ApiError('UNKNOWN_BAN');
      return wire;
    },

    /** PUT /guilds/{id}/bans/{user_id}: banning someone already banned changes nothing. */
    async ban(principal: Principal, request: MemberRequest, input: BanInput) {
      const deleteMessageSeconds =
        input.delete_message_seconds ?? (input.delete_message_days ?? 0) * DAY_SECONDS;
      const deleted: DeletedMessages[] = [];
      await storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        access.require(P.BAN_MEMBERS);
        await banOne(tx, access, {
          userId: request.userId,
          deleteMessageSeconds,
          reason: request.reason,
          deleted,
        });
        announceDeletions(tx, { guildId: access.guild.id, deleted });
      });
    },

    async unban(principal: Principal, request: MemberRequest) {
      await storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        access.require(P.BAN_MEMBERS);
        const removed = isSnowflake(request.userId)
          ? await tx.bans.delete(access.guild.id, request.userId)
          : false;
        if (!removed) throw new ApiError('UNKNOWN_BAN');
        const user = await tx.users.findById(request.userId);
        if (user !== null)
          afterCommit(tx, banDispatches.banRemove(access.guild.id, serializeUser(user)));
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: request.userId,
          actionType: AuditLogActions.MEMBER_BAN_REMOVE,
          reason: request.reason,
        });
      });
    },

    /**
     * POST /guilds/{id}/bulk-ban: BAN_MEMBERS and MANAGE_GUILD. Users who cannot be banned, or
     * are banned already, are listed as failed; 500000 when nobody could be banned.
     */
    async bulkBan(principal: Principal, request: GuildRequest, input: BulkBanInput) {
      const deleted: DeletedMessages[] = [];
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        access.require(P.BAN_MEMBERS | P.MANAGE_GUILD);
        const banned: string[] = [];
        const failed: string[] = [];
        for (const userId of input.user_ids) {
          let created = false;
          try {
            created = await banOne(tx, access, {
              userId,
              deleteMessageSeconds: input.delete_message_seconds ?? 0,
              reason: request.reason,
              deleted,
            });
          } catch (err) {
            if (!(err instanceof ApiError)) throw err;
          }
          (created ? banned : failed).push(userId);
        }
        if (banned.length === 0) throw new ApiError('FAILED_TO_BAN_USERS');
        announceDeletions(tx, { guildId: access.guild.id, deleted });
        return { banned_users: banned, failed_users: failed };
      });
    },
  };
}

export type BanService = ReturnType<typeof createBanService>;
