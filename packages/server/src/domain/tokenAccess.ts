/**
 * @module domain/tokenAccess: what a token may read of its user's data, by kind of data, the one
 * rule the REST routes (`resources/access`, `requireAccess`) and the gateway (READY and every
 * user-addressed dispatch, `gateway/tokenRouting.ts`) both consult, so a token reads over the
 * gateway exactly what it reads over REST. A session token (the person's own client) reads
 * everything; a bot token what bots read; an OAuth2 Bearer token only what its (expanded) scopes
 * grant (docs/gateway.md#what-a-bearer-session-receives).
 */

/** Who holds a token and what it was granted: a principal or a gateway session. */
export interface TokenGrant {
  readonly kind: 'bot' | 'session' | 'bearer';
  /** OAuth2 scopes, stored expanded (empty for bot and session tokens). */
  readonly scopes: readonly string[];
  /** The application a Bearer or bot token belongs to; null or absent for a session token. */
  readonly applicationId?: string | null;
}

/** What one kind of data needs. */
interface AccessRule {
  /** The scope a Bearer token needs; null: no Bearer token reads it. */
  readonly bearer: string | null;
  /** Whether a bot token reads it. */
  readonly bot: boolean;
}

/**
 * The kinds of a user's data and who reads each. The scopes are the platform's
 * (docs/platform-notes.md#oauth2); `sdk.social_layer` and `sdk.social_layer_presence` stand for
 * theirs through the stored expansion (oauth/scopes.ts).
 */
export const TOKEN_ACCESS = {
  /** The user's own profile: GET /users/@me, READY's `user`, USER_UPDATE. */
  currentUser: { bearer: 'identify', bot: true },
  /** The email on it (GET /users/@me's `email`; bots read none). */
  email: { bearer: 'email', bot: false },
  /** The real `premium_type` (0 otherwise). */
  premium: { bearer: 'identify.premium', bot: false },
  /** DMs and group DMs as channels: GET /users/@me/channels, READY's `private_channels`. */
  dmChannels: { bearer: 'dm_channels.read', bot: true },
  /** What is said in them: GET /users/{id}/messages, MESSAGE_*, reactions, pins, typing. */
  dmMessages: { bearer: 'dm_channels.messages.read', bot: true },
  /** Friends, requests and blocks: GET /users/@me/relationships, RELATIONSHIP_*. */
  relationships: { bearer: 'relationships.read', bot: true },
  /** The friends' presences: READY's `presences`, PRESENCE_UPDATE without `guild_id`. */
  presences: { bearer: 'presences.read', bot: true },
  /**
   * The user's game activities: ACTIVITY_JOIN, the join of an accepted activity invite;
   * ACTIVITY_SPECTATE, a friend's game the user chose to spectate.
   */
  activities: { bearer: 'activities.read', bot: true },
  /** The game's lobbies, their members, messages and calls: /lobbies, LOBBY_*. */
  lobbies: { bearer: 'sdk.social_layer', bot: true },
  /**
   * What a guild says and what the person's own client does: guild channels' messages (an
   * ephemeral one included), the client's interactions. No Bearer token reads them over REST.
   */
  guildsAndClient: { bearer: null, bot: true },
} as const satisfies Readonly<Record<string, AccessRule>>;

/** A kind of data of {@link TOKEN_ACCESS}. */
export type Access = keyof typeof TOKEN_ACCESS;

/** Whether the token may read this kind of data. */
export function mayAccess(grant: TokenGrant, access: Access): boolean {
  const rule: AccessRule = TOKEN_ACCESS[access];
  switch (grant.kind) {
    case 'session':
      return true;
    case 'bot':
      return rule.bot;
    case 'bearer':
      return rule.bearer !== null && grant.scopes.includes(rule.bearer);
  }
}

/** What of the current user's private fields the token reads (GET /users/@me, USER_UPDATE). */
export function currentUserView(grant: TokenGrant): { email: boolean; premium: boolean } {
  return { email: mayAccess(grant, 'email'), premium: mayAccess(grant, 'premium') };
}

/**
 * Whether two grants read the same: the same kind, the same application (one game's token reads
 * none of another game's lobbies or join secrets) and the same scopes.
 */
export function sameGrant(a: TokenGrant, b: TokenGrant): boolean {
  if (a.kind !== b.kind || (a.applicationId ?? null) !== (b.applicationId ?? null)) return false;
  const [left, right] = [new Set(a.scopes), new Set(b.scopes)];
  return left.size === right.size && [...right].every((scope) => left.has(scope));
}
