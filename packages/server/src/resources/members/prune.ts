import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories } from '../../storage/index.js';
import { recordAudit } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { accessLoader, type GuildAccess } from '../access/index.js';
import type { GuildRequest } from '../roles/index.js';
import { announceMemberRemove } from './service.js';
import { DAY_MS } from '../../domain/time.js';

/** The guild feature that restricts prune to administrators and the owner (spec: Guild feature). */
export const PRUNE_REQUIRES_ADMIN = 'PRUNE_REQUIRES_ADMIN';

export interface PruneOptions {
  days: number;
  includeRoleIds: readonly string[];
}

/** Spec, Get Guild Prune Count: ADMINISTRATOR with PRUNE_REQUIRES_ADMIN, else both of these. */
function requirePrune(access: GuildAccess): void {
  access.require(
    access.guild.features.includes(PRUNE_REQUIRES_ADMIN)
      ? P.ADMINISTRATOR
      : P.MANAGE_GUILD | P.KICK_MEMBERS,
  );
}

/**
 * The roles whose holders a prune may remove besides the role-less, checked as kick checks its
 * target: each must be below the caller's highest role (the owner outranks all), else 50013.
 * Managed roles (a bot's, an integration's) are dropped from the list, so their holders are kept.
 * Ids that name no role of the guild change nothing and are dropped too.
 */
function includedRoles(access: GuildAccess, roleIds: readonly string[]): string[] {
  const out: string[] = [];
  for (const roleId of roleIds) {
    const role = access.roles.find((r) => r.id === roleId);
    if (role === undefined) continue;
    if (!access.outranks(role)) throw new ApiError('MISSING_PERMISSIONS');
    if (!role.managed) out.push(role.id);
  }
  return out;
}

/**
 * Guild prune: members with no roles (or only the included ones) inactive for `days`. There is
 * no message or presence activity yet, so the join time stands for the last activity; the owner,
 * the caller (active right now) and bots are never pruned. As only roles below the caller's may
 * be included, a member holding any role at or above the caller's highest is never pruned.
 */
export function createPruneService(deps: ServiceDeps) {
  const { storage, clock, ids } = deps;

  const prunable = async (repos: Repositories, access: GuildAccess, options: PruneOptions) => {
    const userIds = await repos.members.listPrunable(access.guild.id, {
      joinedBefore: clock.now() - options.days * DAY_MS,
      includeRoleIds: includedRoles(access, options.includeRoleIds),
    });
    const spared = new Set([access.guild.ownerId, access.subject.member.userId]);
    return userIds.filter((userId) => !spared.has(userId));
  };

  const accessFor = accessLoader(clock);

  return {
    /** GET /guilds/{id}/prune: how many a prune with these options would remove. */
    async count(principal: Principal, guildId: string, options: PruneOptions) {
      const access = await accessFor(storage, principal, guildId);
      requirePrune(access);
      return { pruned: (await prunable(storage, access, options)).length };
    },

    /** POST /guilds/{id}/prune: removes them; `pruned` is null unless the count is asked for. */
    async prune(
      principal: Principal,
      request: GuildRequest,
      options: PruneOptions & { computePruneCount: boolean },
    ) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        requirePrune(access);
        const userIds = await prunable(tx, access, options);
        const removed = await tx.members.remove(access.guild.id, userIds);
        for (const userId of userIds) await announceMemberRemove(tx, access.guild.id, userId);
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: null,
          actionType: AuditLogActions.MEMBER_PRUNE,
          options: { delete_member_days: String(options.days), members_removed: String(removed) },
          reason: request.reason,
        });
        return { pruned: options.computePruneCount ? removed : null };
      });
    },
  };
}

export type PruneService = ReturnType<typeof createPruneService>;
