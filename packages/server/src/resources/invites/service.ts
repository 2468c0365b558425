import { AuditLogActions, ChannelTypes, PermissionFlags as P } from '@guildhall/protocol';
import { canManageInvites } from '../../domain/permissions.js';
import { afterCommit } from '../../events/afterCommit.js';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { InviteRecord } from '../../storage/index.js';
import { recordAudit } from '../auditLog/index.js';
import { loadChannelAccess } from '../channels/index.js';
import type { ServiceDeps } from '../deps.js';
import { accessLoader } from '../access/index.js';
import { MAX_GUILDS_PER_USER } from '../guilds/index.js';
import { serializeMember, type ProfileCheck, memberDispatches } from '../members/index.js';
import { createTargetUsersJobs } from './jobs.js';
import { countInviteUse, findLiveInvite, isExpired } from './lookup.js';
import { DEFAULT_INVITE_AGE_SECONDS, type CreateInviteInput } from './schemas.js';
import { serializeInvite } from './serialize.js';
import { createTargetUserOperations } from './targetUsers.js';
import { assertInvitesOpen, checkRoles, checkTarget, newCode } from './checks.js';
import { inviteCreatePayload, inviteDelete, viewOf, wireOf } from './views.js';
import { SECOND_MS } from '../../domain/time.js';

/** The options of an invite being created, after the body's defaults. */
interface InviteSettings {
  maxAge: number;
  maxUses: number;
  temporary: boolean;
  targetType: number | null;
  targetUserId: string | null;
  targetApplicationId: string | null;
  roleIds: string[];
}

function sameSettings(invite: InviteRecord, settings: InviteSettings): boolean {
  const roles = new Set(invite.roleIds);
  return (
    invite.maxAge === settings.maxAge &&
    invite.maxUses === settings.maxUses &&
    invite.temporary === settings.temporary &&
    invite.targetType === settings.targetType &&
    invite.targetUserId === settings.targetUserId &&
    invite.targetApplicationId === settings.targetApplicationId &&
    roles.size === settings.roleIds.length &&
    settings.roleIds.every((id) => roles.has(id))
  );
}

/** What a create carries beside its body: the uploaded file's ids and the audit reason. */
export interface CreateInviteRequest {
  channelId: string;
  reason: string | null;
  /** The ids of a target_users_file, already checked. */
  fileUserIds: string[] | null;
}

/**
 * Guild invites: create, look up, list, revoke and accept, and their target users. Gateway
 * dispatches (INVITE_CREATE, INVITE_DELETE, GUILD_MEMBER_ADD) go out after the change commits.
 */
/** What a join asks of other resources: auto-moderation's check of the new member's names. */
export interface InviteServiceOptions {
  profileCheck?: ProfileCheck;
}

export function createInviteService(deps: ServiceDeps, options: InviteServiceOptions = {}) {
  const { storage, clock, ids } = deps;
  const jobs = createTargetUsersJobs({ storage, clock });
  const accessFor = accessLoader(clock);

  /** The listed invites that have not expired, with their metadata. */
  const liveWires = (invites: readonly InviteRecord[]) => {
    const now = clock.now();
    return Promise.all(
      invites
        .filter((invite) => !isExpired(invite, now))
        .map((invite) => wireOf(storage, invite, { metadata: true })),
    );
  };

  return {
    /**
     * POST /channels/{id}/invites: CREATE_INSTANT_INVITE in the channel. Without `unique`, an
     * equivalent live invite of the same inviter is returned instead of a new one.
     */
    async create(principal: Principal, request: CreateInviteRequest, input: CreateInviteInput) {
      // With a file, its ids and any target_user_ids are written together by the job.
      const jobUserIds =
        request.fileUserIds === null
          ? null
          : [...new Set([...request.fileUserIds, ...(input.target_user_ids ?? [])])];
      const result = await storage.transaction(async (tx) => {
        const channel = await loadChannelAccess(tx, {
          channelId: request.channelId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        channel.require(P.CREATE_INSTANT_INVITE);
        await assertInvitesOpen(tx, channel.channel.guildId, clock.now());
        // A category holds channels; nobody can be invited into it.
        if (channel.channel.type === ChannelTypes.GUILD_CATEGORY) {
          throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
        }
        const roleIds = input.role_ids ?? [];
        checkRoles(channel.guild, roleIds);
        const settings: InviteSettings = {
          maxAge: input.max_age ?? DEFAULT_INVITE_AGE_SECONDS,
          maxUses: input.max_uses ?? 0,
          temporary: input.temporary ?? false,
          roleIds,
          ...(await checkTarget(tx, input)),
        };
        const targetUserIds = input.target_user_ids ?? [];
        const targeted = targetUserIds.length > 0 || jobUserIds !== null;
        const now = clock.now();
        if (input.unique !== true && !targeted) {
          const existing = (await tx.invites.listByChannel(channel.channel.id)).find(
            (invite) =>
              invite.inviterId === principal.user.id &&
              !invite.targeted &&
              !isExpired(invite, now) &&
              (invite.maxUses === 0 || invite.uses < invite.maxUses) &&
              sameSettings(invite, settings),
          );
          if (existing !== undefined) {
            return { wire: await wireOf(tx, existing, { metadata: true }), jobId: null };
          }
        }
        let invite: InviteRecord | null = null;
        while (invite === null) {
          const candidate: InviteRecord = {
            code: newCode(),
            guildId: channel.guild.guild.id,
            channelId: channel.channel.id,
            inviterId: principal.user.id,
            uses: 0,
            targeted,
            createdAt: now,
            expiresAt: settings.maxAge === 0 ? null : now + settings.maxAge * SECOND_MS,
            ...settings,
          };
          if (await tx.invites.create(candidate)) invite = candidate;
        }
        const jobId = jobUserIds === null ? null : await jobs.prepare(tx, invite.code, jobUserIds);
        if (jobId === null && targetUserIds.length > 0) {
          await tx.invites.addTargetUsers(invite.code, targetUserIds);
        }
        await recordAudit(tx, ids, {
          guildId: invite.guildId,
          userId: principal.user.id,
          targetId: invite.code,
          actionType: AuditLogActions.INVITE_CREATE,
          reason: request.reason,
          changes: [
            { key: 'code', new_value: invite.code },
            { key: 'channel_id', new_value: invite.channelId },
            { key: 'inviter_id', new_value: principal.user.id },
            { key: 'uses', new_value: 0 },
            { key: 'max_uses', new_value: invite.maxUses },
            { key: 'max_age', new_value: invite.maxAge },
            { key: 'temporary', new_value: invite.temporary },
            { key: 'flags', new_value: 0 },
          ],
        });
        const wire = await wireOf(tx, invite, { metadata: true });
        afterCommit(tx, {
          type: 'INVITE_CREATE',
          guildId: wire.guild_id,
          channelId: wire.channel.id,
          data: inviteCreatePayload(invite, wire),
        });
        return { wire, jobId };
      });
      if (result.jobId !== null) jobs.start(result.wire.code, result.jobId);
      return result.wire;
    },

    /** GET /invites/{code}: anyone with the code; expired ones are unknown. */
    async get(code: string, options: { withCounts: boolean }) {
      const invite = await findLiveInvite(storage, code, clock.now());
      const counts = options.withCounts
        ? await storage.guilds.memberCounts([invite.guildId])
        : null;
      // Presence is not tracked here, so the presence count stays 0.
      const members = counts?.get(invite.guildId) ?? 0;
      return wireOf(storage, invite, {
        metadata: false,
        ...(counts === null ? {} : { counts: { members, presences: 0 } }),
      });
    },

    /** DELETE /invites/{code}: MANAGE_CHANNELS in the invite's channel, or MANAGE_GUILD. */
    async delete(principal: Principal, request: { code: string; reason: string | null }) {
      return storage.transaction(async (tx) => {
        const invite = await findLiveInvite(tx, request.code, clock.now());
        const channel = await loadChannelAccess(tx, {
          channelId: invite.channelId,
          userId: principal.user.id,
          nowMs: clock.now(),
        });
        if (!canManageInvites({ channel: channel.permissions, guild: channel.guild.permissions })) {
          throw new ApiError('MISSING_PERMISSIONS');
        }
        const shown = await wireOf(tx, invite, { metadata: true });
        await tx.invites.delete(invite.code);
        await recordAudit(tx, ids, {
          guildId: invite.guildId,
          userId: principal.user.id,
          targetId: invite.code,
          actionType: AuditLogActions.INVITE_DELETE,
          reason: request.reason,
          changes: [
            { key: 'code', old_value: invite.code },
            { key: 'channel_id', old_value: invite.channelId },
            { key: 'inviter_id', old_value: invite.inviterId },
            { key: 'uses', old_value: invite.uses },
            { key: 'max_uses', old_value: invite.maxUses },
            { key: 'max_age', old_value: invite.maxAge },
            { key: 'temporary', old_value: invite.temporary },
          ],
        });
        afterCommit(tx, inviteDelete(shown));
        return shown;
      });
    },

    /** GET /channels/{id}/invites: MANAGE_CHANNELS in the channel. */
    async listForChannel(principal: Principal, channelId: string) {
      const channel = await loadChannelAccess(storage, {
        channelId,
        userId: principal.user.id,
        nowMs: clock.now(),
      });
      channel.require(P.MANAGE_CHANNELS);
      return liveWires(await storage.invites.listByChannel(channel.channel.id));
    },

    /** GET /guilds/{id}/invites: MANAGE_GUILD. */
    async listForGuild(principal: Principal, guildId: string) {
      const access = await accessFor(storage, principal, guildId);
      access.require(P.MANAGE_GUILD);
      return liveWires(await storage.invites.listByGuild(access.guild.id));
    },

    /**
     * POST /invites/{code} (a user session): joins the guild with the invite's roles. Banned
     * users get 40007; an invite with target users admits only them (others get 50001 Missing
     * Access); a user in 100 guilds already gets 30001. A use is counted per join; the last allowed use deletes the invite. A member
     * already in the guild gets the invite back without using it.
     */
    async accept(principal: Principal, code: string) {
      return storage.transaction(async (tx) => {
        const invite = await findLiveInvite(tx, code, clock.now());
        const userId = principal.user.id;
        // Joins to one guild happen one after another (PostgreSQL row lock).
        await tx.guilds.lock(invite.guildId);
        const existing = await tx.members.find(invite.guildId, userId);
        if (existing !== null) {
          return wireOf(tx, invite, { metadata: false });
        }
        if ((await tx.bans.find(invite.guildId, userId)) !== null) {
          throw new ApiError('USER_BANNED');
        }
        await assertInvitesOpen(tx, invite.guildId, clock.now());
        if (invite.targeted && !(await tx.invites.isTargetUser(invite.code, userId))) {
          throw new ApiError('MISSING_ACCESS');
        }
        if ((await tx.guilds.countForUser(userId)) >= MAX_GUILDS_PER_USER) {
          throw new ApiError('MAX_GUILDS');
        }
        const view = await viewOf(tx, invite);
        const roleIds = view.roles.filter((role) => !role.managed).map((role) => role.id);
        const member = await tx.members.add({
          guildId: invite.guildId,
          userId,
          nick: null,
          joinedAt: clock.now(),
          deaf: false,
          mute: false,
          flags: 0,
          roleIds,
        });
        // The use is counted against the stored row, not the copy read above: of two joins
        // racing for an invite's last use, the second finds it used up and changes nothing.
        await options.profileCheck?.(tx, { guildId: invite.guildId, userId });
        const uses = await countInviteUse(tx, invite);
        if (uses === null) throw new ApiError('UNKNOWN_INVITE');
        const gone = invite.maxUses > 0 && uses >= invite.maxUses;
        if (gone) await tx.invites.delete(invite.code);
        const wire = serializeInvite({ ...view, invite: { ...invite, uses } }, { metadata: false });
        afterCommit(
          tx,
          memberDispatches.memberAdd(wire.guild_id, serializeMember(member, principal.user)),
        );
        if (gone) afterCommit(tx, inviteDelete(wire));
        return wire;
      });
    },

    ...createTargetUserOperations({ storage, clock, jobs, accessFor }),

    /** Resumes target-user jobs no node runs (the app calls it at start); never rejects. */
    resumeJobs: (onError: (err: unknown) => void) => jobs.resume(onError),

    /** Stops background jobs; the app calls it before closing the storage. */
    close: () => jobs.close(),
  };
}

export type InviteService = ReturnType<typeof createInviteService>;
