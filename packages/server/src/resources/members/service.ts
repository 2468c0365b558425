import { AuditLogActions, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { MemberRecord, Repositories, RoleRecord } from '../../storage/index.js';
import { recordAudit, recordChanges } from '../auditLog/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ServiceDeps } from '../deps.js';
import { memberDispatches } from './dispatch.js';
import { announceBotLeft } from '../integrations/index.js';
import { serializeUser } from '../users/index.js';
import { accessLoader, type GuildAccess } from '../access/index.js';
import { findRole, type GuildRequest } from '../roles/index.js';
import { assertAboveMember } from './hierarchy.js';
import { planMemberUpdate } from './modify.js';
import { createCurrentMemberUpdater, type ProfileCheck } from './profile.js';
import type { ModifyMemberInput } from './schemas.js';
import { serializeMember } from './serialize.js';

export interface MemberRequest extends GuildRequest {
  userId: string;
}

export interface MemberRoleRequest extends MemberRequest {
  roleId: string;
}

/** The member named in a path, or 10007 Unknown Member. */
export async function findMember(
  repos: Repositories,
  access: GuildAccess,
  userId: string,
): Promise<MemberRecord> {
  const member = isSnowflake(userId) ? await repos.members.find(access.guild.id, userId) : null;
  if (member === null) throw new ApiError('UNKNOWN_MEMBER');
  return member;
}

/** Serializes members with their users (left out if the user is gone). */
export async function serializeMembers(repos: Repositories, members: readonly MemberRecord[]) {
  const users = await Promise.all(members.map((member) => repos.users.findById(member.userId)));
  return members.flatMap((member, index) => {
    const user = users[index];
    return user == null ? [] : [serializeMember(member, user)];
  });
}

/** GUILD_MEMBER_UPDATE with the member as it stands in `tx`. */
export async function announceMemberUpdate(tx: Repositories, member: MemberRecord): Promise<void> {
  const [wire] = await serializeMembers(tx, [member]);
  if (wire !== undefined) afterCommit(tx, memberDispatches.memberUpdate(member.guildId, wire));
}

/**
 * GUILD_MEMBER_REMOVE for a user who has just left `guildId` in `tx` (and, for a bot, its
 * application's INTEGRATION_DELETE).
 */
export async function announceMemberRemove(
  tx: Repositories,
  guildId: string,
  userId: string,
): Promise<void> {
  const user = await tx.users.findById(userId);
  if (user === null) return;
  afterCommit(tx, memberDispatches.memberRemove(guildId, serializeUser(user)));
  await announceBotLeft(tx, guildId, user);
}

/** MEMBER_ROLE_UPDATE's changes: `$add` and `$remove`, each a list of {id, name}. */
function roleUpdateChanges(add: readonly RoleRecord[], remove: readonly RoleRecord[]) {
  const brief = (roles: readonly RoleRecord[]) => roles.map(({ id, name }) => ({ id, name }));
  return [
    ...(add.length > 0 ? [{ key: '$add', new_value: brief(add) }] : []),
    ...(remove.length > 0 ? [{ key: '$remove', new_value: brief(remove) }] : []),
  ];
}

/** Guild members: read by any member; changed within the caller's permissions and rank. */
export function createMemberService(
  deps: ServiceDeps,
  options: { profileCheck?: ProfileCheck } = {},
) {
  const { storage, clock, ids } = deps;

  const accessFor = accessLoader(clock);

  const one = async (repos: Repositories, member: MemberRecord) => {
    const [wire] = await serializeMembers(repos, [member]);
    if (wire === undefined) throw new ApiError('UNKNOWN_MEMBER');
    return wire;
  };

  /** Gives or takes one role (PUT/DELETE /guilds/{id}/members/{user_id}/roles/{role_id}). */
  const changeRole = (principal: Principal, request: MemberRoleRequest, give: boolean) =>
    storage.transaction(async (tx) => {
      const access = await accessFor(tx, principal, request.guildId);
      access.require(P.MANAGE_ROLES);
      const member = await findMember(tx, access, request.userId);
      const role = findRole(access, request.roleId);
      if (role.id === access.guild.id || role.managed || !access.outranks(role)) {
        throw new ApiError('MISSING_PERMISSIONS');
      }
      const changed = give
        ? await tx.members.addRole(access.guild.id, member.userId, role.id)
        : await tx.members.removeRole(access.guild.id, member.userId, role.id);
      if (!changed) return;
      const updated = await tx.members.find(access.guild.id, member.userId);
      if (updated !== null) await announceMemberUpdate(tx, updated);
      await recordAudit(tx, ids, {
        guildId: access.guild.id,
        userId: principal.user.id,
        targetId: member.userId,
        actionType: AuditLogActions.MEMBER_ROLE_UPDATE,
        changes: give ? roleUpdateChanges([role], []) : roleUpdateChanges([], [role]),
        reason: request.reason,
      });
    });

  return {
    async get(principal: Principal, guildId: string, userId: string) {
      const access = await accessFor(storage, principal, guildId);
      return one(storage, await findMember(storage, access, userId));
    },

    async list(principal: Principal, guildId: string, query: { limit: number; after?: string }) {
      const access = await accessFor(storage, principal, guildId);
      return serializeMembers(storage, await storage.members.listByGuild(access.guild.id, query));
    },

    async search(principal: Principal, guildId: string, query: { query: string; limit: number }) {
      const access = await accessFor(storage, principal, guildId);
      return serializeMembers(storage, await storage.members.search(access.guild.id, query));
    },

    async modify(principal: Principal, request: MemberRequest, input: ModifyMemberInput) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        const member = await findMember(tx, access, request.userId);
        const plan = planMemberUpdate(access, member, input);
        const guildId = access.guild.id;
        for (const role of plan.add) await tx.members.addRole(guildId, member.userId, role.id);
        for (const role of plan.remove)
          await tx.members.removeRole(guildId, member.userId, role.id);
        let updated = await tx.members.update(guildId, member.userId, plan.patch);
        if (updated === null) throw new ApiError('UNKNOWN_MEMBER');
        if (plan.patch.nick !== undefined && options.profileCheck !== undefined) {
          await options.profileCheck(tx, { guildId, userId: member.userId });
          updated = (await tx.members.find(guildId, member.userId)) ?? updated;
        }
        const wire = await one(tx, updated);
        if (plan.changes.length > 0 || plan.add.length > 0 || plan.remove.length > 0) {
          afterCommit(tx, memberDispatches.memberUpdate(guildId, wire));
        }
        const entry = { guildId, userId: principal.user.id, targetId: member.userId };
        await recordChanges(tx, ids, {
          ...entry,
          actionType: AuditLogActions.MEMBER_UPDATE,
          changes: plan.changes,
          reason: request.reason,
        });
        if (plan.add.length > 0 || plan.remove.length > 0) {
          await recordAudit(tx, ids, {
            ...entry,
            actionType: AuditLogActions.MEMBER_ROLE_UPDATE,
            changes: roleUpdateChanges(plan.add, plan.remove),
            reason: request.reason,
          });
        }
        return wire;
      });
    },

    modifyCurrent: createCurrentMemberUpdater(deps, {
      accessFor,
      one,
      profileCheck: options.profileCheck,
    }),

    addRole: (principal: Principal, request: MemberRoleRequest) =>
      changeRole(principal, request, true),
    removeRole: (principal: Principal, request: MemberRoleRequest) =>
      changeRole(principal, request, false),

    /** DELETE /guilds/{id}/members/{user_id}: KICK_MEMBERS, below the caller; never the owner. */
    async kick(principal: Principal, request: MemberRequest) {
      await storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        access.require(P.KICK_MEMBERS);
        const member = await findMember(tx, access, request.userId);
        assertAboveMember(access, member);
        await tx.members.remove(access.guild.id, [member.userId]);
        await announceMemberRemove(tx, access.guild.id, member.userId);
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: member.userId,
          actionType: AuditLogActions.MEMBER_KICK,
          reason: request.reason,
        });
      });
    },
  };
}

export type MemberService = ReturnType<typeof createMemberService>;
