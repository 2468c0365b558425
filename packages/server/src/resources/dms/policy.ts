import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories, UserRecord } from '../../storage/index.js';
import type { Access } from '../../domain/tokenAccess.js';
import { requireAccess, requireScope as requireBearerScope } from '../access/index.js';

/** The scope a Bearer token needs to send DMs (sdk.social_layer grants it). */
export const DM_WRITE_SCOPE = 'dm_channels.messages.write';

/** 50001 unless a Bearer token carries the scope (bot and session callers need none). */
export function requireScope(principal: Principal, scope: string): void {
  requireBearerScope(principal, scope, 'MISSING_ACCESS');
}

/**
 * 50001 unless the caller may read the DMs' channels (`dmChannels`) or messages (`dmMessages`):
 * the rule the gateway applies to READY's `private_channels` and the DM dispatches.
 */
export function requireDmAccess(principal: Principal, access: Access): void {
  requireAccess(principal, access, 'MISSING_ACCESS');
}

/** The applications in which the user is a provisional account. */
export async function provisionalApps(repos: Repositories, userId: string): Promise<string[]> {
  const identities = await repos.provisional.listIdentitiesOfUser(userId);
  return identities.filter((i) => i.provisional).map((i) => i.applicationId);
}

/**
 * The application a DM between the caller and `recipientId` belongs to: null for an ordinary
 * DM; the caller's application when either user is a provisional account. A provisional account
 * exists only inside its game, so both must be of the application whose SDK token the caller
 * uses; otherwise 50007.
 */
export async function dmApplication(
  repos: Repositories,
  principal: Principal,
  recipientId: string,
): Promise<string | null> {
  const [mine, theirs] = await Promise.all([
    provisionalApps(repos, principal.user.id),
    provisionalApps(repos, recipientId),
  ]);
  if (mine.length === 0 && theirs.length === 0) return null;
  const app = principal.kind === 'bearer' ? principal.applicationId : null;
  if (app === null) throw new ApiError('CANNOT_SEND_MESSAGES_TO_USER');
  for (const apps of [mine, theirs]) {
    if (apps.length > 0 && !apps.includes(app)) throw new ApiError('CANNOT_SEND_MESSAGES_TO_USER');
  }
  return app;
}

/**
 * Whether the caller may put these users in a group DM with them (making it, or adding them):
 * 50007 across a block either way; from a person's own session, whose client adds friends only,
 * 80006 unless each is a platform friend. An application's bot or Bearer token adds people who
 * gave it their own `gdm.join` token, so no friendship is asked of it. At most a group DM's users.
 */
export async function assertMayGroupWith(
  repos: Repositories,
  principal: Principal,
  userIds: readonly string[],
): Promise<void> {
  const me = principal.user.id;
  const others = userIds.filter((id) => id !== me);
  for (const userId of others) {
    if (await repos.relationships.isBlockedEitherWay(me, userId)) {
      throw new ApiError('CANNOT_SEND_MESSAGES_TO_USER');
    }
  }
  if (principal.kind !== 'session') return;
  for (const userId of others) {
    if (!(await repos.relationships.areFriends(me, userId))) {
      throw new ApiError('NEED_TO_BE_FRIENDS');
    }
  }
}

/** Whether two users are members of a common guild. */
async function shareGuild(repos: Repositories, a: string, b: string): Promise<boolean> {
  const guilds = await repos.guilds.listForUser(a);
  if (guilds.length === 0) return false;
  const common = await repos.members.findForUser(
    b,
    guilds.map((g) => g.id),
  );
  return common.length > 0;
}

/**
 * Whether the sender may message the recipient in a DM now (50007 when not): the recipient
 * exists; bots never message bots, and a bot and a person must share a guild, as on the
 * platform; neither blocks the other; a message from a connected game (an SDK token, or a game
 * DM) needs the recipient's "who can message me" to allow it (everyone, or friends: platform or
 * that game's); a game DM takes a provisional sender only through its own application's token.
 */
export async function assertMayMessage(
  repos: Repositories,
  request: { principal: Principal; recipient: UserRecord | null; applicationId: string | null },
): Promise<void> {
  const { principal, recipient } = request;
  const sender = principal.user;
  if (recipient === null || recipient.id === sender.id) {
    throw new ApiError('CANNOT_SEND_MESSAGES_TO_USER');
  }
  if (sender.bot && recipient.bot) throw new ApiError('CANNOT_SEND_MESSAGES_TO_USER');
  if ((sender.bot || recipient.bot) && !(await shareGuild(repos, sender.id, recipient.id))) {
    throw new ApiError('CANNOT_SEND_MESSAGES_TO_USER');
  }
  if (await repos.relationships.isBlockedEitherWay(sender.id, recipient.id)) {
    throw new ApiError('CANNOT_SEND_MESSAGES_TO_USER');
  }
  // From a connected game (an SDK token, or a game DM): the recipient's "who can message me".
  const game = principal.kind === 'bearer' ? principal.applicationId : request.applicationId;
  if (game !== null || request.applicationId !== null) {
    const policy = await repos.relationships.messagePolicy(recipient.id);
    const allowed =
      policy === 'everyone' ||
      (policy === 'friends' &&
        (await repos.relationships.areFriends(sender.id, recipient.id, game)));
    if (!allowed) throw new ApiError('CANNOT_SEND_MESSAGES_TO_USER');
  }
  const senderApps = await provisionalApps(repos, sender.id);
  if (senderApps.length > 0) {
    const app = principal.kind === 'bearer' ? principal.applicationId : null;
    if (app === null || app !== request.applicationId || !senderApps.includes(app)) {
      throw new ApiError('CANNOT_SEND_MESSAGES_TO_USER');
    }
  }
}
