/**
 * Accepting an activity invite (docs/social-presence.md#activity-invites): the user asks to join
 * the party of another user's current activity, gets its join secret, and every SDK session of
 * theirs in that game receives ACTIVITY_JOIN with it (the game on another device joins too).
 * Spectating (docs/rpc.md#spectate) is its counterpart with the spectate secret and
 * ACTIVITY_SPECTATE.
 */
import { requireAccess, requireScope } from '../access/index.js';
import { ApiError } from '../../errors/index.js';
import { afterWrite } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { ServiceDeps } from '../deps.js';
import { serializeUser, type UserWire } from '../users/index.js';
import type {
  AcceptActivityInviteBody,
  ActivityJoinRequestBody,
  SpectateActivityBody,
} from './schemas.js';

/** ACTIVITY_JOIN_REQUEST: who asks to join the host's party of which game. */
export interface ActivityJoinRequestPayload {
  user: UserWire;
  application_id: string;
  party_id: string;
}

/** ACTIVITY_SPECTATE: the spectate secret of the host's (`user_id`) party. */
export interface ActivitySpectatePayload {
  secret: string;
  application_id: string;
  party_id: string;
  user_id: string;
}

/** ACTIVITY_JOIN: the join secret of the inviter's (`user_id`) party, and the invite accepted. */
export interface ActivityJoinPayload extends ActivitySpectatePayload {
  channel_id?: string;
  message_id?: string;
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    ACTIVITY_JOIN: ActivityJoinPayload;
    ACTIVITY_JOIN_REQUEST: ActivityJoinRequestPayload;
    ACTIVITY_SPECTATE: ActivitySpectatePayload;
  }
}

/** The scope a Bearer token needs to accept an invite (the Social SDK's scopes grant it). */
export const ACTIVITIES_WRITE_SCOPE = 'activities.write';
/** A party anyone may join (op 3 `party.privacy`); 0 is private: friends and invitees. */
const PUBLIC_PARTY = 1;

/** One activity as op 3 stored it (gateway/clientOps.ts `Activity`). */
type StoredActivity = Record<string, unknown>;

/** What the service needs beyond storage: the presences, which the gateway keeps. */
export interface ActivityInvitePorts {
  /** The user's current activities (op 3, the shared presence store); none when offline. */
  activitiesOf: (userId: string) => Promise<readonly StoredActivity[]>;
}

function record(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/** Which secret of an activity an action hands out: joining its party, or spectating it. */
type SecretKind = 'join' | 'spectate';

/** The activity of a party holding that secret: its application, the secret, its privacy. */
function withSecret(
  activity: StoredActivity,
  input: { partyId: string; applicationId: string | null; kind: SecretKind },
) {
  const party = record(activity['party']);
  const secret = record(activity['secrets'])?.[input.kind];
  const appId = activity['application_id'];
  if (party?.['id'] !== input.partyId || typeof secret !== 'string' || typeof appId !== 'string') {
    return null;
  }
  if (input.applicationId !== null && appId !== input.applicationId) return null;
  return { applicationId: appId, secret, public: party['privacy'] === PUBLIC_PARTY };
}

export function createActivityInviteService(deps: ServiceDeps & ActivityInvitePorts) {
  const { storage } = deps;

  /**
   * Whether the invite message named (`channel_id`, `message_id`) is the inviter's invite to this
   * party of this game in a DM or group DM the user is in.
   */
  const invitedBy = async (input: {
    userId: string;
    inviterId: string;
    partyId: string;
    applicationId: string;
    body: AcceptActivityInviteBody;
  }) => {
    const { channel_id: channelId, message_id: messageId } = input.body;
    if (channelId === undefined || messageId === undefined) return false;
    const [channel, message] = await Promise.all([
      storage.privateChannels.find(channelId),
      storage.messages.findById(channelId, messageId),
    ]);
    return (
      channel !== null &&
      channel.recipients.some((r) => r.userId === input.userId) &&
      message?.authorId === input.inviterId &&
      message.activity?.partyId === input.partyId &&
      message.applicationId === input.applicationId
    );
  };

  /**
   * The party `partyId` of the host's current activity, in the caller's game, holding the secret
   * of `kind` (a join secret unless said).
   */
  const hostParty = async (
    principal: Principal,
    party: { hostId: string; partyId: string; kind?: SecretKind },
  ) => {
    const { hostId, partyId, kind = 'join' } = party;
    if (hostId === principal.user.id) throw new ApiError('INVALID_ACTIVITY_ACTION');
    const applicationId = principal.kind === 'bearer' ? principal.applicationId : null;
    const found = (await deps.activitiesOf(hostId))
      .map((a) => withSecret(a, { partyId, applicationId, kind }))
      .find((a) => a !== null);
    if (found === undefined) throw new ApiError('INVALID_ACTIVITY_ACTION');
    return found;
  };

  return {
    /**
     * POST /users/@me/activities/{party_id}/join-request: asks the host (`user_id`) to let the
     * caller into the party of their current activity. The party must be the host's, with a
     * join secret (else 50039), and public or the host a friend (else 50001); the host's SDK
     * sessions of the game and their own clients (the local client's RPC) receive
     * ACTIVITY_JOIN_REQUEST `{user, application_id, party_id}`. The host answers by inviting
     * the caller (a DM activity invite), which the caller then accepts as any invite.
     */
    async requestJoin(principal: Principal, partyId: string, body: ActivityJoinRequestBody) {
      requireScope(principal, ACTIVITIES_WRITE_SCOPE);
      const userId = principal.user.id;
      const hostId = body.user_id;
      const found = await hostParty(principal, { hostId, partyId });
      const friends = await storage.relationships.areFriends(userId, hostId, found.applicationId);
      if (
        !friends &&
        (!found.public || (await storage.relationships.isBlockedEitherWay(userId, hostId)))
      ) {
        throw new ApiError('MISSING_ACCESS');
      }
      afterWrite(storage, {
        type: 'ACTIVITY_JOIN_REQUEST',
        guildId: null,
        userIds: [hostId],
        applicationId: found.applicationId,
        data: {
          user: serializeUser(principal.user),
          application_id: found.applicationId,
          party_id: partyId,
        },
      });
    },

    /**
     * POST /users/@me/activities/{party_id}/join. An SDK token joins in its own game only; a
     * person's session token in the game of the inviter's activity. The inviter's activity must
     * hold the party and a join secret (else 50039), and the party be public, or the caller a
     * friend of the inviter, or the invite message named be the inviter's to this party in a DM
     * the caller is in (else 50001).
     */
    async accept(principal: Principal, partyId: string, body: AcceptActivityInviteBody) {
      requireScope(principal, ACTIVITIES_WRITE_SCOPE);
      // The answer is the join secret: what ACTIVITY_JOIN carries, which needs activities.read.
      requireAccess(principal, 'activities');
      const userId = principal.user.id;
      const inviterId = body.user_id;
      const found = await hostParty(principal, { hostId: inviterId, partyId });
      const { applicationId, secret } = found;
      const allowed =
        found.public ||
        (await storage.relationships.areFriends(userId, inviterId, applicationId)) ||
        (await invitedBy({ userId, inviterId, partyId, applicationId, body }));
      if (!allowed) throw new ApiError('MISSING_ACCESS');
      const join = {
        secret,
        application_id: applicationId,
        party_id: partyId,
        user_id: inviterId,
        ...(body.channel_id === undefined ? {} : { channel_id: body.channel_id }),
        ...(body.message_id === undefined ? {} : { message_id: body.message_id }),
      };
      // Only the user's SDK sessions of the game receive it (gateway/routing.ts).
      afterWrite(storage, {
        type: 'ACTIVITY_JOIN',
        guildId: null,
        userIds: [userId],
        applicationId,
        data: join,
      });
      return join;
    },

    /**
     * POST /users/@me/activities/{party_id}/spectate (Guildhall's own path: the platform's is
     * not public). The host's (`user_id`) activity must hold the party and a spectate secret
     * (else 50039); the caller must be the host's friend or the party public, and neither block
     * the other (else 50001). The answer is the spectate secret, which the caller's SDK sessions
     * of the game and their own clients (the local client's RPC) receive as ACTIVITY_SPECTATE.
     */
    async spectate(principal: Principal, partyId: string, body: SpectateActivityBody) {
      requireScope(principal, ACTIVITIES_WRITE_SCOPE);
      requireAccess(principal, 'activities');
      const userId = principal.user.id;
      const hostId = body.user_id;
      const found = await hostParty(principal, { hostId, partyId, kind: 'spectate' });
      const { applicationId, secret } = found;
      const allowed =
        (found.public || (await storage.relationships.areFriends(userId, hostId, applicationId))) &&
        !(await storage.relationships.isBlockedEitherWay(userId, hostId));
      if (!allowed) throw new ApiError('MISSING_ACCESS');
      const spectate = {
        secret,
        application_id: applicationId,
        party_id: partyId,
        user_id: hostId,
      };
      afterWrite(storage, {
        type: 'ACTIVITY_SPECTATE',
        guildId: null,
        userIds: [userId],
        applicationId,
        data: spectate,
      });
      return spectate;
    },
  };
}

export type ActivityInviteService = ReturnType<typeof createActivityInviteService>;
