/**
 * Guild membership through OAuth2 (docs/oauth.md#guild-membership): a bot adds a user who
 * authorized its application with `guilds.join` (PUT /guilds/{id}/members/{user} with the
 * user's access token), and a user's token with `guilds.members.read` reads their own member
 * object in a guild (GET /users/@me/guilds/{id}/member).
 */
import { PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { hashSecret } from '../../domain/credentials.js';
import { afterCommit } from '../../events/afterCommit.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories } from '../../storage/index.js';
import { accessLoader, requireScope } from '../access/index.js';
import type { ServiceDeps } from '../deps.js';
import { MAX_GUILDS_PER_USER } from '../guilds/index.js';
import { serializeMember, memberDispatches } from '../members/index.js';
import type { AddMemberInput } from './schemas.js';

export function createOAuthMemberService(deps: ServiceDeps) {
  const { storage, clock } = deps;
  const accessFor = accessLoader(clock);

  /** The user's OAuth2 token: a live Bearer token of the bot's application with guilds.join. */
  const joinGrant = async (
    tx: Repositories,
    token: string,
    input: { applicationId: string | null; userId: string },
  ) => {
    const record = await tx.tokens.findByHash(hashSecret(token));
    const live =
      record?.kind === 'bearer' && (record.expiresAt === null || record.expiresAt > clock.now());
    if (!live || record.applicationId !== input.applicationId || record.userId !== input.userId) {
      throw invalidField(['access_token'], 'BASE_TYPE_INVALID', 'Invalid OAuth2 access token.');
    }
    if (!record.scopes.includes('guilds.join')) throw new ApiError('MISSING_OAUTH2_SCOPE');
  };

  return {
    async myMember(principal: Principal, guildId: string) {
      requireScope(principal, 'guilds.members.read');
      const member = isSnowflake(guildId)
        ? await storage.members.find(guildId, principal.user.id)
        : null;
      if (member === null) throw new ApiError('UNKNOWN_GUILD');
      return serializeMember(member, principal.user);
    },

    /** Returns the new member, or null when the user was in the guild already (204). */
    async addWithToken(
      principal: Principal,
      target: { guildId: string; userId: string },
      input: AddMemberInput,
    ) {
      if (principal.kind !== 'bot') throw new ApiError('UNAUTHORIZED');
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, target.guildId);
        access.require(P.CREATE_INSTANT_INVITE);
        const user = isSnowflake(target.userId) ? await tx.users.findById(target.userId) : null;
        if (user === null) throw new ApiError('UNKNOWN_USER');
        await joinGrant(tx, input.access_token, {
          applicationId: principal.applicationId,
          userId: user.id,
        });
        if ((await tx.members.find(access.guild.id, user.id)) !== null) return null;
        if ((await tx.bans.find(access.guild.id, user.id)) !== null)
          throw new ApiError('USER_BANNED');
        if ((await tx.guilds.countForUser(user.id)) >= MAX_GUILDS_PER_USER) {
          throw new ApiError('MAX_GUILDS');
        }
        const roleIds = [...new Set(input.roles ?? [])];
        if (roleIds.length > 0) access.require(P.MANAGE_ROLES);
        roleIds.forEach((roleId, index) => {
          const role = access.roles.find((r) => r.id === roleId);
          if (role === undefined || role.id === access.guild.id || role.managed) {
            throw invalidField(['roles', index], 'UNKNOWN_ROLE', 'Unknown role');
          }
          if (!access.outranks(role)) throw new ApiError('MISSING_PERMISSIONS');
        });
        if (input.nick != null) access.require(P.MANAGE_NICKNAMES);
        if (input.mute === true) access.require(P.MUTE_MEMBERS);
        if (input.deaf === true) access.require(P.DEAFEN_MEMBERS);
        const member = await tx.members.add({
          guildId: access.guild.id,
          userId: user.id,
          nick: input.nick ?? null,
          joinedAt: clock.now(),
          deaf: input.deaf ?? false,
          mute: input.mute ?? false,
          flags: 0,
          roleIds,
        });
        const wire = serializeMember(member, user);
        afterCommit(tx, memberDispatches.memberAdd(access.guild.id, wire));
        return wire;
      });
    },
  };
}

export type OAuthMemberService = ReturnType<typeof createOAuthMemberService>;
