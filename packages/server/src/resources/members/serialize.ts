import type { APIGuildMember } from 'discord-api-types/v10';
import type { WireShape } from '../wireShape.js';
import type { MemberRecord, UserRecord } from '../../storage/index.js';
import { serializeUser } from '../users/index.js';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * A guild member on the wire (GuildMemberResponse). `avatar` and `banner` are the guild profile's
 * image hashes, served at /guilds/{guild_id}/users/{user_id}/avatars|banners/{hash}.png.
 * Boosting does not exist here, so `premium_since` is always null.
 */
export function serializeMember(member: MemberRecord, user: UserRecord) {
  return {
    user: serializeUser(user),
    ...serializePartialMember(member),
  } satisfies WireShape<APIGuildMember>;
}

/** A member without its user: in MESSAGE_CREATE and TYPING_START the user is the author. */
export function serializePartialMember(member: MemberRecord) {
  return {
    nick: member.nick,
    avatar: member.avatar,
    banner: member.banner,
    roles: member.roleIds,
    joined_at: iso(member.joinedAt),
    premium_since: null,
    deaf: member.deaf,
    mute: member.mute,
    flags: member.flags,
    pending: member.pending,
    communication_disabled_until:
      member.communicationDisabledUntil === null ? null : iso(member.communicationDisabledUntil),
  } satisfies WireShape<Omit<APIGuildMember, 'user'>>;
}

export type MemberWire = ReturnType<typeof serializeMember>;
