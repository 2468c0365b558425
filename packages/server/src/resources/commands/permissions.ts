import { AuditLogActions, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { afterCommit } from '../../events/afterCommit.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { CommandPermissionRecord, Repositories } from '../../storage/index.js';
import { loadGuildAccess } from '../access/index.js';
import { diffChanges, recordChanges } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { COMMAND_SCOPES, requireApplication, requireInstalledGuild } from './access.js';
import { permissionsUpdate } from './dispatch.js';
import { allChannelsId } from './invocation.js';
import { CommandPermissionType } from './limits.js';
import type { PutPermissionsInput } from './schemas.js';
import { serializePermissions } from './serialize.js';

/** A guild and the application whose command permissions a route reads or writes. */
export interface PermissionsScope {
  applicationId: string;
  guildId: string;
}

/**
 * Every overwrite must name something of the guild: a role (the @everyone role's id is the
 * guild's), a user, a channel of the guild or "all channels" (the guild id minus one); the same
 * target only once. 50035 on the entry otherwise.
 */
async function checkTargets(
  repos: Repositories,
  guildId: string,
  permissions: readonly CommandPermissionRecord[],
): Promise<void> {
  const [roles, channels] = await Promise.all([
    repos.roles.listByGuild(guildId),
    repos.channels.listByGuild(guildId),
  ]);
  const roleIds = new Set(roles.map((role) => role.id));
  const channelIds = new Set([...channels.map((c) => c.id), allChannelsId(guildId)]);
  const seen = new Set<string>();
  for (const [index, entry] of permissions.entries()) {
    const path = ['permissions', index, 'id'];
    const key = `${String(entry.type)}:${entry.id}`;
    if (seen.has(key))
      throw invalidField(path, 'BASE_TYPE_INVALID', 'Duplicate permission target.');
    seen.add(key);
    const known =
      entry.type === CommandPermissionType.ROLE
        ? roleIds.has(entry.id)
        : entry.type === CommandPermissionType.CHANNEL
          ? channelIds.has(entry.id)
          : (await repos.users.findById(entry.id)) !== null;
    if (!known) throw invalidField(path, 'BASE_TYPE_INVALID', 'Unknown permission target.');
  }
}

/** The overwrites keyed by target, for the audit log's changes (one change per target). */
const byTarget = (permissions: readonly CommandPermissionRecord[]) =>
  Object.fromEntries(
    permissions.map((p) => [p.id, { id: p.id, type: p.type, permission: p.permission }]),
  );

/**
 * Guild command permissions: list and get (the app's bot token, or a Bearer token with
 * applications.commands.permissions.update) and put (a user's Bearer token with that scope
 * only, the platform's rule; the user needs MANAGE_GUILD and MANAGE_ROLES in the guild).
 */
export function createCommandPermissionOperations(deps: ServiceDeps) {
  const { storage, clock, ids } = deps;

  const enter = async (repos: Repositories, principal: Principal, scope: PermissionsScope) => {
    await requireApplication(repos, principal, {
      applicationId: scope.applicationId,
      scope: COMMAND_SCOPES.permissions,
    });
    const guildId = await requireInstalledGuild(repos, scope.applicationId, scope.guildId);
    return { applicationId: scope.applicationId, guildId };
  };

  return {
    async list(principal: Principal, scope: PermissionsScope) {
      const entered = await enter(storage, principal, scope);
      const records = await storage.commands.listPermissions(
        entered.applicationId,
        entered.guildId,
      );
      return records.map(serializePermissions);
    },

    /** 10066 when the command (or the application) has no overwrites in the guild. */
    async get(principal: Principal, scope: PermissionsScope, commandId: string) {
      const entered = await enter(storage, principal, scope);
      const record = isSnowflake(commandId)
        ? await storage.commands.findPermissions(entered.applicationId, entered.guildId, commandId)
        : null;
      if (record === null) throw new ApiError('UNKNOWN_APPLICATION_COMMAND_PERMISSIONS');
      return serializePermissions(record);
    },

    /**
     * Replaces the overwrites of a command, or the application-wide ones (`commandId` equal to
     * the application id), in the guild; audited (121) and announced after the commit.
     */
    async put(
      principal: Principal,
      scope: PermissionsScope & { commandId: string },
      input: PutPermissionsInput,
    ) {
      if (principal.kind === 'bot') throw new ApiError('BOTS_CANNOT_USE_ENDPOINT');
      return storage.transaction(async (tx) => {
        const entered = await enter(tx, principal, scope);
        const access = await loadGuildAccess(tx, {
          guildId: entered.guildId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        access.require(P.MANAGE_GUILD | P.MANAGE_ROLES);
        const { commandId } = scope;
        if (commandId !== entered.applicationId) {
          const command = isSnowflake(commandId)
            ? await tx.commands.findById(entered.applicationId, commandId)
            : null;
          if (
            command === null ||
            (command.guildId !== null && command.guildId !== entered.guildId)
          ) {
            throw new ApiError('UNKNOWN_APPLICATION_COMMAND');
          }
        }
        const permissions = input.permissions.map((p) => ({ ...p }));
        await checkTargets(tx, entered.guildId, permissions);
        const before = await tx.commands.findPermissions(
          entered.applicationId,
          entered.guildId,
          commandId,
        );
        const record = { ...entered, commandId, permissions };
        await tx.commands.putPermissions(record);
        await recordChanges(tx, ids, {
          guildId: entered.guildId,
          userId: principal.user.id,
          targetId: commandId,
          actionType: AuditLogActions.APPLICATION_COMMAND_PERMISSION_UPDATE,
          changes: diffChanges(byTarget(before?.permissions ?? []), byTarget(permissions)),
          options: { application_id: entered.applicationId },
          reason: null,
        });
        const wire = serializePermissions(record);
        afterCommit(tx, permissionsUpdate(wire));
        return wire;
      });
    },
  };
}
