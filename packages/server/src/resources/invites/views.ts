/**
 * Invites as the API and the gateway show them: the objects an invite names, read together, and
 * the INVITE_CREATE and INVITE_DELETE payloads.
 */
import { ApiError } from '../../errors/index.js';
import type { TypedDispatch } from '../dispatches.js';
import type { InviteRecord, Repositories } from '../../storage/index.js';
import {
  serializeInvite,
  type InviteShape,
  type InviteView,
  type InviteWire,
} from './serialize.js';

/** The guild, channel, inviter, roles and targets an invite object shows. */
export async function viewOf(repos: Repositories, invite: InviteRecord): Promise<InviteView> {
  const [guild, channel, inviter, roles, targetUser, targetApplication] = await Promise.all([
    repos.guilds.findById(invite.guildId),
    repos.channels.findById(invite.channelId),
    invite.inviterId === null ? null : repos.users.findById(invite.inviterId),
    invite.roleIds.length === 0 ? [] : repos.roles.listByGuild(invite.guildId),
    invite.targetUserId === null ? null : repos.users.findById(invite.targetUserId),
    invite.targetApplicationId === null
      ? null
      : repos.applications.findById(invite.targetApplicationId),
  ]);
  // Guild and channel deletion cascade to their invites, so both exist here.
  if (guild === null || channel === null) throw new ApiError('UNKNOWN_INVITE');
  const wanted = new Set(invite.roleIds);
  return {
    invite,
    guild,
    channel,
    inviter,
    roles: roles.filter((role) => wanted.has(role.id)),
    targetUser,
    targetApplication,
  };
}

/** An invite as the API shows it, in a shape. */
export const wireOf = async (repos: Repositories, invite: InviteRecord, shape: InviteShape) =>
  serializeInvite(await viewOf(repos, invite), shape);

/** The INVITE_CREATE dispatch: the invite's metadata beside its code and places. */
export const inviteCreatePayload = (invite: InviteRecord, wire: InviteWire) => ({
  channel_id: invite.channelId,
  guild_id: invite.guildId,
  code: invite.code,
  created_at: new Date(invite.createdAt).toISOString(),
  expires_at: wire.expires_at,
  ...(wire.inviter === undefined ? {} : { inviter: wire.inviter }),
  max_age: invite.maxAge,
  max_uses: invite.maxUses,
  temporary: invite.temporary,
  uses: invite.uses,
  ...(wire.target_type === undefined ? {} : { target_type: wire.target_type }),
  ...(wire.target_user === undefined ? {} : { target_user: wire.target_user }),
  ...(wire.target_application === undefined ? {} : { target_application: wire.target_application }),
});

/** The INVITE_DELETE payload: where the invite was and its code. */
export interface InviteDeletePayload {
  channel_id: string;
  guild_id: string;
  code: string;
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    INVITE_CREATE: ReturnType<typeof inviteCreatePayload>;
    INVITE_DELETE: InviteDeletePayload;
  }
}

/** INVITE_DELETE for an invite revoked or used up. */
export function inviteDelete(
  wire: InviteWire,
): TypedDispatch<'INVITE_DELETE', InviteDeletePayload> {
  return {
    type: 'INVITE_DELETE',
    guildId: wire.guild_id,
    channelId: wire.channel.id,
    data: { channel_id: wire.channel.id, guild_id: wire.guild_id, code: wire.code },
  };
}
