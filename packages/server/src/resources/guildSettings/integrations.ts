/**
 * @module resources/guildSettings/integrations: a guild's integrations are the applications
 * whose bot it added (resources/integrations holds their wire object and events). Deleting one
 * removes the bot and its managed role, as the platform does, with GUILD_MEMBER_REMOVE,
 * GUILD_ROLE_DELETE, INTEGRATION_DELETE and GUILD_INTEGRATIONS_UPDATE and an INTEGRATION_DELETE
 * audit entry. The integration's id is its application's.
 */
import { AuditLogActions, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import { accessLoader } from '../access/index.js';
import { recordAudit } from '../auditLog/index.js';
import type { ServiceDeps } from '../deps.js';
import { memberDispatches } from '../members/index.js';
import { roleDispatches } from '../roles/index.js';
import { announceIntegrationDelete, serializeIntegration } from '../integrations/index.js';
import { serializeUser } from '../users/index.js';
import type { SettingsRequest } from './documents.js';

export function createIntegrationService(deps: ServiceDeps) {
  const { storage, clock, ids } = deps;
  const accessFor = accessLoader(clock);

  return {
    /** GET /guilds/{id}/integrations (MANAGE_GUILD). */
    async list(principal: Principal, guildId: string) {
      const access = await accessFor(storage, principal, guildId);
      access.require(P.MANAGE_GUILD);
      const applications = await storage.applications.listInstalledInGuild(access.guild.id);
      const bots = await Promise.all(
        applications.map((a) =>
          a.botUserId === null ? Promise.resolve(null) : storage.users.findById(a.botUserId),
        ),
      );
      return applications.map((a, index) => serializeIntegration(a, bots[index] ?? null));
    },

    /** DELETE /guilds/{id}/integrations/{id} (MANAGE_GUILD): the bot leaves with its role. */
    async delete(principal: Principal, request: SettingsRequest & { integrationId: string }) {
      await storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        access.require(P.MANAGE_GUILD);
        const guildId = access.guild.id;
        const installed = isSnowflake(request.integrationId)
          ? (await tx.applications.listInstalledInGuild(guildId)).find(
              (a) => a.id === request.integrationId,
            )
          : undefined;
        const botUserId = installed?.botUserId ?? null;
        if (installed === undefined || botUserId === null)
          throw new ApiError('UNKNOWN_INTEGRATION');
        for (const role of access.roles.filter((r) => r.managed && r.botUserId === botUserId)) {
          await tx.roles.delete(guildId, role.id);
          afterCommit(tx, roleDispatches.roleDelete(guildId, role.id));
        }
        await tx.members.remove(guildId, [botUserId]);
        const bot = await tx.users.findById(botUserId);
        if (bot !== null)
          afterCommit(tx, memberDispatches.memberRemove(guildId, serializeUser(bot)));
        announceIntegrationDelete(tx, guildId, installed);
        await recordAudit(tx, ids, {
          guildId,
          userId: principal.user.id,
          targetId: installed.id,
          actionType: AuditLogActions.INTEGRATION_DELETE,
          changes: [
            { key: 'type', old_value: 'discord' },
            { key: 'name', old_value: installed.name },
          ],
          reason: request.reason,
        });
      });
    },
  };
}

export type IntegrationService = ReturnType<typeof createIntegrationService>;
