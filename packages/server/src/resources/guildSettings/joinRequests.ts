/**
 * @module resources/guildSettings/joinRequests: applications to join a guild that reviews its
 * members (the MEMBER_VERIFICATION_GATE_ENABLED feature). A person applies with the client's
 * route, `PUT /guilds/{id}/requests/@me` (their answers to the form); moderators (KICK_MEMBERS)
 * list the requests and approve one, which makes the applicant a member (GUILD_MEMBER_ADD), or
 * reject it with a reason.
 */
import { PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { JoinRequestQuery, JoinRequestRecord, Repositories } from '../../storage/index.js';
import { accessLoader } from '../access/index.js';
import type { ServiceDeps } from '../deps.js';
import { serializeMember, type ProfileCheck, memberDispatches } from '../members/index.js';
import { serializeUser } from '../users/index.js';
import type { JoinRequestSubmitInput } from './schemas.js';

/** The feature a guild reviews its applicants under. */
export const JOIN_REQUEST_FEATURE = 'MEMBER_VERIFICATION_GATE_ENABLED';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

async function serializeRequests(repos: Repositories, requests: readonly JoinRequestRecord[]) {
  const userIds = [
    ...new Set(
      requests.flatMap((r) => [
        r.userId,
        ...(r.actionedByUserId === null ? [] : [r.actionedByUserId]),
      ]),
    ),
  ];
  const users = new Map(
    (await Promise.all(userIds.map((id) => repos.users.findById(id)))).flatMap((u) =>
      u === null ? [] : [[u.id, serializeUser(u)] as const],
    ),
  );
  return requests.map((r) => ({
    id: r.id,
    guild_id: r.guildId,
    user_id: r.userId,
    user: users.get(r.userId) ?? null,
    created_at: iso(r.createdAt) ?? '',
    reviewed_at: iso(r.actionedAt),
    application_status: r.status,
    rejection_reason: r.rejectionReason,
    form_responses: r.formResponses,
    actioned_by_user: r.actionedByUserId === null ? null : (users.get(r.actionedByUserId) ?? null),
  }));
}

export function createJoinRequestService(
  deps: ServiceDeps,
  options: { profileCheck?: ProfileCheck } = {},
) {
  const { storage, clock, ids } = deps;
  const accessFor = accessLoader(clock);

  return {
    /** PUT /guilds/{id}/requests/@me: applies (or re-applies) to join. */
    async submit(principal: Principal, guildId: string, input: JoinRequestSubmitInput) {
      if (principal.kind !== 'session') throw new ApiError('BOTS_CANNOT_USE_ENDPOINT');
      return storage.transaction(async (tx) => {
        const guild = isSnowflake(guildId) ? await tx.guilds.findById(guildId) : null;
        if (!guild?.features.includes(JOIN_REQUEST_FEATURE)) {
          throw new ApiError('UNKNOWN_GUILD');
        }
        const userId = principal.user.id;
        if ((await tx.bans.find(guild.id, userId)) !== null) throw new ApiError('USER_BANNED');
        if ((await tx.members.find(guild.id, userId)) !== null) {
          throw invalidField(['guild_id'], 'BASE_TYPE_INVALID', 'You are a member already.');
        }
        const existing = await tx.joinRequests.findForUser(guild.id, userId);
        const fields = {
          status: 'SUBMITTED' as const,
          formResponses: input.form_responses,
          rejectionReason: null,
          actionedByUserId: null,
          actionedAt: null,
        };
        const request =
          existing === null
            ? await tx.joinRequests.create({
                id: ids(),
                guildId: guild.id,
                userId,
                createdAt: clock.now(),
                ...fields,
              })
            : ((await tx.joinRequests.update(existing.id, fields)) ?? existing);
        const [wire] = await serializeRequests(tx, [request]);
        return wire;
      });
    },

    /** GET /guilds/{id}/requests (KICK_MEMBERS): a page, newest first unless `after` is given. */
    async list(principal: Principal, guildId: string, query: JoinRequestQuery) {
      const access = await accessFor(storage, principal, guildId);
      access.require(P.KICK_MEMBERS);
      const { total, requests } = await storage.joinRequests.list(access.guild.id, query);
      return { total, guild_join_requests: await serializeRequests(storage, requests) };
    },

    /** PATCH /guilds/{id}/requests/{id}: approve (the applicant joins) or reject a submission. */
    async action(
      principal: Principal,
      request: { guildId: string; requestId: string },
      input: { action: 'APPROVED' | 'REJECTED'; rejection_reason?: string | null | undefined },
    ) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, request.guildId);
        access.require(P.KICK_MEMBERS);
        const guildId = access.guild.id;
        const found = isSnowflake(request.requestId)
          ? await tx.joinRequests.find(guildId, request.requestId)
          : null;
        if (found === null) throw new ApiError('JOIN_REQUEST_NOT_FOUND');
        if (found.status !== 'SUBMITTED') {
          throw invalidField(['action'], 'BASE_TYPE_INVALID', 'This request was reviewed already.');
        }
        const now = clock.now();
        const updated = await tx.joinRequests.update(found.id, {
          status: input.action,
          rejectionReason: input.action === 'REJECTED' ? (input.rejection_reason ?? null) : null,
          actionedByUserId: principal.user.id,
          actionedAt: now,
        });
        if (input.action === 'APPROVED') {
          const user = await tx.users.findById(found.userId);
          const banned = (await tx.bans.find(guildId, found.userId)) !== null;
          if (user !== null && !banned && (await tx.members.find(guildId, user.id)) === null) {
            const member = await tx.members.add({
              guildId,
              userId: user.id,
              nick: null,
              joinedAt: now,
              deaf: false,
              mute: false,
              flags: 0,
              roleIds: [],
            });
            afterCommit(tx, memberDispatches.memberAdd(guildId, serializeMember(member, user)));
            await options.profileCheck?.(tx, { guildId, userId: user.id });
          }
        }
        const [wire] = await serializeRequests(tx, [updated ?? found]);
        return wire;
      });
    },
  };
}

export type JoinRequestService = ReturnType<typeof createJoinRequestService>;
