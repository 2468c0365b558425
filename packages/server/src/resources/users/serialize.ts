import type { APIUser, APIUserPrimaryGuild } from 'discord-api-types/v10';
import type { WireShape } from '../wireShape.js';
import type { PrimaryGuildRecord, UserRecord } from '../../storage/index.js';

/** Flags kept off public_flags: the spam mark (1 << 20) is for the platform's eyes only. */
const PRIVATE_USER_FLAGS = 1 << 20;

/** The user's guild tag (UserPrimaryGuildResponse); null when the user shows none. */
export function serializePrimaryGuild(primaryGuild: PrimaryGuildRecord | null | undefined) {
  if (primaryGuild === null || primaryGuild === undefined) return null;
  return {
    identity_guild_id: primaryGuild.guildId,
    identity_enabled: primaryGuild.enabled,
    tag: primaryGuild.tag,
    badge: primaryGuild.badge,
  } satisfies WireShape<APIUserPrimaryGuild>;
}

/** The public user object (UserResponse). */
export function serializeUser(user: UserRecord) {
  return {
    id: user.id,
    username: user.username,
    discriminator: user.discriminator,
    global_name: user.globalName,
    avatar: user.avatar,
    banner: user.banner,
    accent_color: user.accentColor,
    public_flags: user.flags & ~PRIVATE_USER_FLAGS,
    flags: user.flags & ~PRIVATE_USER_FLAGS,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: serializePrimaryGuild(user.primaryGuild),
    ...(user.bot ? { bot: true } : {}),
    ...(user.system ? { system: true } : {}),
  } satisfies WireShape<APIUser>;
}

export type UserWire = ReturnType<typeof serializeUser>;

export interface CurrentUserView {
  /** Whether the caller may see the email (a session, or OAuth2 with the `email` scope). */
  email: boolean;
  /** Whether the real premium_type shows; 0 otherwise (spec: User object, premium_type). */
  premium: boolean;
}

/**
 * The current user with private fields (UserPIIResponse). Built with Object.assign rather than a
 * spread followed by more properties: on Node 20's V8 that literal shape costs microseconds per
 * property, and this is the hottest serializer (docs/benchmarks.md).
 */
export function serializeCurrentUser(user: UserRecord, view: CurrentUserView) {
  return Object.assign(serializeUser(user), {
    flags: user.flags,
    mfa_enabled: user.mfaEnabled,
    locale: user.locale,
    premium_type: view.premium ? user.premiumType : 0,
    verified: user.verified,
    email: view.email ? user.email : null,
    bio: user.bio,
  }) satisfies WireShape<APIUser>;
}

export type CurrentUserWire = ReturnType<typeof serializeCurrentUser>;
