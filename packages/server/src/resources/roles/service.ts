import {
  ALL_PERMISSIONS,
  AuditLogActions,
  PermissionFlags as P,
  isSnowflake,
} from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { RolePatch, RoleRecord } from '../../storage/index.js';
import { recordAudit, recordChanges } from '../auditLog/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ServiceDeps } from '../deps.js';
import { roleDispatches } from './dispatch.js';
import { announceEmojiList } from '../emojis/index.js';
import { accessLoader, type GuildAccess } from '../access/index.js';
import { storeImage } from '../imageUploads.js';
import { roleChanges } from './auditChanges.js';
import { resolveColors } from './colors.js';
import { planRolePositions } from './positions.js';
import type { RoleInput, RolePositionsInput } from './schemas.js';
import { serializeRole } from './serialize.js';

/** The platform's cap on roles per guild (error 30005). */
export const MAX_GUILD_ROLES = 250;

/** A guild route's target and the X-Audit-Log-Reason header. */
export interface GuildRequest {
  guildId: string;
  reason: string | null;
}

export interface RoleRequest extends GuildRequest {
  roleId: string;
}

/** The role named in a path, or 10011. */
export function findRole(access: GuildAccess, roleId: string): RoleRecord {
  const role = isSnowflake(roleId) ? access.roles.find((r) => r.id === roleId) : undefined;
  if (role === undefined) throw new ApiError('UNKNOWN_ROLE');
  return role;
}

/**
 * Nobody grants a permission they lack: the bits a role gains must all be the caller's (the
 * owner and administrators hold every bit). Unknown bits are dropped first.
 */
function grantable(access: GuildAccess, requested: bigint, previous: bigint): bigint {
  const bits = requested & ALL_PERMISSIONS;
  if ((bits & ~previous & ~access.permissions) !== 0n) throw new ApiError('MISSING_PERMISSIONS');
  return bits;
}

/** Guild roles: read by any member; changed with MANAGE_ROLES, below one's own highest role. */
export function createRoleService(deps: ServiceDeps) {
  const { storage, clock, ids, blobs } = deps;

  const accessFor = accessLoader(clock);

  const storeIcon = (roleId: string, value: string | null) =>
    storeImage(
      blobs,
      { field: 'icon', value },
      (hash, ext) => `role-icons/${roleId}/${hash}.${ext}`,
    );

  return {
    async list(principal: Principal, guildId: string) {
      return (await accessFor(storage, principal, guildId)).roles.map(serializeRole);
    },

    async get(principal: Principal, guildId: string, roleId: string) {
      return serializeRole(findRole(await accessFor(storage, principal, guildId), roleId));
    },

    /** { role_id: members holding it }, every role but @everyone. */
    async memberCounts(principal: Principal, guildId: string) {
      const access = await accessFor(storage, principal, guildId);
      const counts = await storage.roles.memberCounts(access.guild.id);
      return Object.fromEntries(
        access.roles
          .filter((role) => role.id !== access.guild.id)
          .map((role) => [role.id, counts.get(role.id) ?? 0]),
      );
    },

    async create(principal: Principal, request: GuildRequest, input: RoleInput) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        access.require(P.MANAGE_ROLES);
        if (access.roles.length >= MAX_GUILD_ROLES) throw new ApiError('MAX_ROLES');
        const guildId = access.guild.id;
        const everyone = access.roles.find((role) => role.id === guildId);
        // The platform's default for a new role: @everyone's permissions.
        const permissions =
          input.permissions == null
            ? (everyone?.permissions ?? 0n)
            : grantable(access, input.permissions, 0n);
        const colors = resolveColors(
          input,
          { color: 0, secondaryColor: null, tertiaryColor: null },
          access.guild.features,
        );
        const id = ids();
        const icon = input.icon == null ? null : await storeIcon(id, input.icon);
        // A new role sits at the bottom, just above @everyone; the others move up one.
        const shifted = access.roles
          .filter((role) => role.id !== guildId)
          .map((role) => ({ ...role, position: role.position + 1 }));
        await tx.roles.setPositions(
          guildId,
          shifted.map(({ id: roleId, position }) => ({ id: roleId, position })),
        );
        const role = await tx.roles.create({
          id,
          guildId,
          name: input.name ?? 'new role',
          permissions,
          position: 1,
          color: colors?.color ?? 0,
          secondaryColor: colors?.secondaryColor ?? null,
          tertiaryColor: colors?.tertiaryColor ?? null,
          hoist: input.hoist ?? false,
          mentionable: input.mentionable ?? false,
          managed: false,
          botUserId: null,
          flags: 0,
          icon,
          unicodeEmoji: input.unicode_emoji ?? null,
        });
        afterCommit(tx, roleDispatches.roleCreate(guildId, serializeRole(role)));
        for (const moved of shifted) {
          afterCommit(tx, roleDispatches.roleUpdate(guildId, serializeRole(moved)));
        }
        await recordAudit(tx, ids, {
          guildId,
          userId: principal.user.id,
          targetId: role.id,
          actionType: AuditLogActions.ROLE_CREATE,
          changes: roleChanges(null, role),
          reason: request.reason,
        });
        return serializeRole(role);
      });
    },

    async modify(principal: Principal, request: RoleRequest, input: RoleInput) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        access.require(P.MANAGE_ROLES);
        const role = findRole(access, request.roleId);
        if (!access.outranks(role)) throw new ApiError('MISSING_PERMISSIONS');
        const patch: RolePatch = {};
        if (input.name != null) patch.name = input.name;
        if (input.permissions != null) {
          patch.permissions = grantable(access, input.permissions, role.permissions);
        }
        Object.assign(patch, resolveColors(input, role, access.guild.features));
        if (input.hoist != null) patch.hoist = input.hoist;
        if (input.mentionable != null) patch.mentionable = input.mentionable;
        if (input.icon !== undefined) patch.icon = await storeIcon(role.id, input.icon);
        if (input.unicode_emoji !== undefined) patch.unicodeEmoji = input.unicode_emoji;
        const updated = await tx.roles.update(access.guild.id, role.id, patch);
        if (updated === null) throw new ApiError('UNKNOWN_ROLE');
        const changes = roleChanges(role, updated);
        if (changes.length > 0) {
          afterCommit(tx, roleDispatches.roleUpdate(access.guild.id, serializeRole(updated)));
        }
        await recordChanges(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: role.id,
          actionType: AuditLogActions.ROLE_UPDATE,
          changes,
          reason: request.reason,
        });
        return serializeRole(updated);
      });
    },

    /** @everyone and managed roles (a bot's) cannot be deleted: 50028. */
    async delete(principal: Principal, request: RoleRequest) {
      await storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        access.require(P.MANAGE_ROLES);
        const role = findRole(access, request.roleId);
        if (role.id === access.guild.id || role.managed) throw new ApiError('INVALID_ROLE');
        if (!access.outranks(role)) throw new ApiError('MISSING_PERMISSIONS');
        await tx.roles.delete(access.guild.id, role.id);
        afterCommit(tx, roleDispatches.roleDelete(access.guild.id, role.id));
        // Emoji limited to the role stop naming it.
        const limited = (await tx.emojis.listByGuild(access.guild.id)).filter((emoji) =>
          emoji.roleIds.includes(role.id),
        );
        for (const emoji of limited) {
          await tx.emojis.update(emoji.id, {
            roleIds: emoji.roleIds.filter((r) => r !== role.id),
          });
        }
        if (limited.length > 0) await announceEmojiList(tx, access.guild.id);
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: role.id,
          actionType: AuditLogActions.ROLE_DELETE,
          changes: roleChanges(role, null),
          reason: request.reason,
        });
      });
    },

    /** PATCH /guilds/{id}/roles: one ROLE_UPDATE entry per role whose position changes. */
    async reorder(principal: Principal, request: GuildRequest, input: RolePositionsInput) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        access.require(P.MANAGE_ROLES);
        const moves = planRolePositions(access, input);
        await tx.roles.setPositions(
          access.guild.id,
          moves.map(({ role, position }) => ({ id: role.id, position })),
        );
        for (const { role, position } of moves) {
          afterCommit(
            tx,
            roleDispatches.roleUpdate(access.guild.id, serializeRole({ ...role, position })),
          );
          await recordAudit(tx, ids, {
            guildId: access.guild.id,
            userId: principal.user.id,
            targetId: role.id,
            actionType: AuditLogActions.ROLE_UPDATE,
            changes: [{ key: 'position', old_value: role.position, new_value: position }],
            reason: request.reason,
          });
        }
        return (await tx.roles.listByGuild(access.guild.id)).map(serializeRole);
      });
    },
  };
}

export type RoleService = ReturnType<typeof createRoleService>;
