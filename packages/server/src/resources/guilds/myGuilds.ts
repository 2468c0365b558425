import {
  basePermissions,
  type PermissionRole,
  type PermissionSubject,
} from '../../domain/permissions.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { GuildListOptions } from '../../storage/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ServiceDeps } from '../deps.js';
import { memberDispatches } from '../members/index.js';
import { announceBotLeft } from '../integrations/index.js';
import { serializeUser } from '../users/index.js';
import { LARGE_BOT_SHARDING_MAX_CONCURRENCY } from '../gatewayInfo/index.js';
import { loadGuildAccess } from '../access/index.js';
import type { MyGuildsQueryInput } from './schemas.js';

/** The Social SDK's scope that also lists the player's guilds (docs/lobbies.md). */
const SOCIAL_LAYER_SCOPE = 'sdk.social_layer';
import { serializeMyGuild } from './serialize.js';

/** GET /users/@me/guilds and DELETE /users/@me/guilds/{id}. */
export function createMyGuildsService(deps: ServiceDeps) {
  const { storage, clock } = deps;

  /**
   * The spec's shard rule (Get Current User Guilds): a bot of an app using large bot sharding
   * must name a shard in 0..max_concurrency-1 and sees only that shard's guilds. Other callers
   * are unaffected: for them `shard` is ignored.
   */
  const shardOf = async (principal: Principal, raw: string | undefined) => {
    if (principal.kind !== 'bot' || principal.applicationId === null) return undefined;
    const application = await storage.applications.findById(principal.applicationId);
    if (application?.largeBotSharding !== true) return undefined;
    if (raw === undefined) {
      throw invalidField(['shard'], 'BASE_TYPE_REQUIRED', 'This field is required');
    }
    const count = LARGE_BOT_SHARDING_MAX_CONCURRENCY;
    const index = /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isInteger(index) || index >= count) {
      throw invalidField(
        ['shard'],
        'NUMBER_TYPE_MAX',
        `Value must be an integer from 0 to ${count - 1}.`,
      );
    }
    return { index, count };
  };

  return {
    async list(principal: Principal, query: MyGuildsQueryInput) {
      // OAuth2 tokens need the `guilds` scope, or the Social SDK's `sdk.social_layer`, whose
      // linked channels start from the player's guilds (GetUserGuilds; docs/lobbies.md).
      if (
        principal.kind === 'bearer' &&
        !principal.scopes.includes('guilds') &&
        !principal.scopes.includes(SOCIAL_LAYER_SCOPE)
      ) {
        throw new ApiError('UNAUTHORIZED');
      }
      const shard = await shardOf(principal, query.shard);
      const options: GuildListOptions = {
        limit: query.limit,
        ...(query.before === undefined ? {} : { before: query.before }),
        ...(query.after === undefined ? {} : { after: query.after }),
        ...(shard === undefined ? {} : { shard }),
      };
      const userId = principal.user.id;
      const guilds = await storage.guilds.listForUser(userId, options);
      const counts =
        query.with_counts === true
          ? await storage.guilds.memberCounts(guilds.map((g) => g.id))
          : null;
      // One query each for the memberships and the roles of the whole page, not four per guild.
      const guildIds = guilds.map((g) => g.id);
      const [members, roles] = await Promise.all([
        storage.members.findForUser(userId, guildIds),
        storage.roles.listByGuilds(guildIds),
      ]);
      const memberOf = new Map(members.map((m) => [m.guildId, m]));
      const rolesOf = new Map<string, Map<string, PermissionRole>>();
      for (const role of roles) {
        const byId = rolesOf.get(role.guildId) ?? new Map<string, PermissionRole>();
        byId.set(role.id, role);
        rolesOf.set(role.guildId, byId);
      }
      const nowMs = clock.now();
      return guilds.flatMap((guild) => {
        // Left or deleted since the page was read: the guild is no longer the caller's.
        const member = memberOf.get(guild.id);
        if (member === undefined) return [];
        const subject: PermissionSubject = {
          guildId: guild.id,
          ownerId: guild.ownerId,
          roles: rolesOf.get(guild.id) ?? new Map<string, PermissionRole>(),
          member: {
            userId: member.userId,
            roleIds: member.roleIds,
            communicationDisabledUntil: member.communicationDisabledUntil,
          },
          nowMs,
        };
        return [
          serializeMyGuild(guild, {
            userId,
            permissions: basePermissions(subject),
            ...(counts === null ? {} : { memberCount: counts.get(guild.id) ?? 0 }),
          }),
        ];
      });
    },

    /** Leaves a guild; the owner cannot (50055), a guild one is not in is unknown (10004). */
    async leave(principal: Principal, guildId: string): Promise<void> {
      await storage.transaction(async (tx) => {
        let isOwner: boolean;
        try {
          ({ isOwner } = await loadGuildAccess(tx, {
            guildId,
            userId: principal.user.id,
            nowMs: clock.now(),
          }));
        } catch (err) {
          if (err instanceof ApiError && err.errorName === 'MISSING_ACCESS') {
            throw new ApiError('UNKNOWN_GUILD');
          }
          throw err;
        }
        if (isOwner) throw new ApiError('INVALID_GUILD');
        await tx.members.remove(guildId, [principal.user.id]);
        afterCommit(tx, memberDispatches.memberRemove(guildId, serializeUser(principal.user)));
        await announceBotLeft(tx, guildId, principal.user);
      });
    },
  };
}

export type MyGuildsService = ReturnType<typeof createMyGuildsService>;
