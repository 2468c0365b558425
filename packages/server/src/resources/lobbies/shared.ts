import { isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import { requireAccess } from '../access/index.js';
import type { Principal } from '../../http/authenticator.js';
import type {
  LobbyMemberRecord,
  LobbyMetadata,
  LobbyRecord,
  Repositories,
} from '../../storage/index.js';
import { SECOND_MS } from '../../domain/time.js';
import type { ServiceDeps, SocialLimits, SocialWebhookEvents } from '../deps.js';
import type { LobbyView } from './serialize.js';
import { LOBBY_LIMITS } from './schemas.js';

/** What the lobby service is built from beyond ServiceDeps. */
export interface LobbyServiceDeps extends ServiceDeps {
  /** Webhook events (LOBBY_MESSAGE_*) into the durable outbox. */
  webhookEvents: SocialWebhookEvents;
  /** The pre-approval limits. */
  limits: SocialLimits;
}

/**
 * The application a bot or Bearer caller acts for; a Bearer token needs the `lobbies` access of
 * domain/tokenAccess.ts (sdk.social_layer), as an SDK session needs for LOBBY_* (50026).
 */
export function applicationOf(principal: Principal): string {
  requireAccess(principal, 'lobbies');
  if (principal.applicationId === null) throw new ApiError('MISSING_ACCESS');
  return principal.applicationId;
}

/** Whether an empty lobby's idle timeout has run out (it is gone, whether swept yet or not). */
export function idleExpired(lobby: LobbyRecord, memberCount: number, now: number): boolean {
  if (memberCount > 0) return false;
  return (lobby.emptiedAt ?? lobby.createdAt) + lobby.idleTimeoutSeconds * SECOND_MS <= now;
}

/** The lobby with its members and linked channel. */
export async function viewOf(repos: Repositories, lobby: LobbyRecord): Promise<LobbyView> {
  const [members, channel, overwrites] = await Promise.all([
    repos.lobbies.listMembers(lobby.id),
    lobby.linkedChannelId === null ? null : repos.channels.findById(lobby.linkedChannelId),
    lobby.linkedChannelId === null ? [] : repos.overwrites.listByChannel(lobby.linkedChannelId),
  ]);
  return { lobby, members, linkedChannel: channel === null ? null : { channel, overwrites } };
}

/**
 * The application's live lobby: another application's, an unknown id and an empty lobby past
 * its idle timeout are all 10031 Unknown Lobby.
 */
export async function loadLobby(
  repos: Repositories,
  input: { lobbyId: string; applicationId: string; now: number },
): Promise<LobbyView> {
  const lobby = isSnowflake(input.lobbyId) ? await repos.lobbies.findById(input.lobbyId) : null;
  if (lobby?.applicationId !== input.applicationId) throw new ApiError('UNKNOWN_LOBBY');
  const view = await viewOf(repos, lobby);
  if (idleExpired(lobby, view.members.length, input.now)) throw new ApiError('UNKNOWN_LOBBY');
  return view;
}

/** A member of the lobby, or 50001 Missing Access. */
export function requireMember(view: LobbyView, userId: string): LobbyMemberRecord {
  const member = view.members.find((m) => m.userId === userId);
  if (member === undefined) throw new ApiError('MISSING_ACCESS');
  return member;
}

/** A 400 naming a lobby limit (the platform documents no code of its own for them). */
export function limitError(code: string, message: string): ApiError {
  return new ApiError('INVALID_FORM_BODY', { errors: { _errors: [{ code, message }] } });
}

/**
 * Why a user cannot join the lobby now (its 1,000 members, the user's 100 lobbies of this
 * application), or null when they can.
 */
export async function joinRefusal(
  repos: Repositories,
  lobby: LobbyRecord,
  userId: string,
): Promise<ApiError | null> {
  await repos.lobbies.lock(lobby.id);
  if ((await repos.lobbies.countMembers(lobby.id)) >= LOBBY_LIMITS.maxMembers) {
    return limitError(
      'LOBBY_MEMBER_LIMIT',
      `The lobby is full (${String(LOBBY_LIMITS.maxMembers)} members).`,
    );
  }
  if (
    (await repos.lobbies.countLobbiesOfUser(userId, lobby.applicationId)) >=
    LOBBY_LIMITS.maxLobbiesPerUser
  ) {
    return limitError(
      'LOBBY_USER_LIMIT',
      `The user is in ${String(LOBBY_LIMITS.maxLobbiesPerUser)} lobbies of this application already.`,
    );
  }
  return null;
}

/** Keeps emptied_at true: set when the last member left, cleared when someone is in again. */
export async function refreshEmptied(repos: Repositories, lobby: LobbyRecord, now: number) {
  const count = await repos.lobbies.countMembers(lobby.id);
  const emptiedAt = count === 0 ? (lobby.emptiedAt ?? now) : null;
  if (emptiedAt !== lobby.emptiedAt) await repos.lobbies.update(lobby.id, { emptiedAt });
  return { ...lobby, emptiedAt };
}

/** The users that exist among `userIds` (the others make a request fail with 10013). */
export async function requireUsers(repos: Repositories, userIds: readonly string[]) {
  for (const userId of new Set(userIds)) {
    if ((await repos.users.findById(userId)) === null) throw new ApiError('UNKNOWN_USER');
  }
}

/** A member record with a request's fields: omitted keeps, null clears. */
export function mergedMember(
  base: LobbyMemberRecord,
  input: {
    metadata?: LobbyMetadata | null;
    flags?: number | null;
    additional_name?: string | null;
  },
): LobbyMemberRecord {
  return {
    ...base,
    ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
    ...(input.flags === undefined ? {} : { flags: input.flags ?? 0 }),
    ...(input.additional_name === undefined ? {} : { additionalName: input.additional_name }),
  };
}

export const sameMember = (a: LobbyMemberRecord, b: LobbyMemberRecord) =>
  JSON.stringify([a.metadata, a.flags, a.additionalName]) ===
  JSON.stringify([b.metadata, b.flags, b.additionalName]);
