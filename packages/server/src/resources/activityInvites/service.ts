/**
 * Accepting an activity invite (docs/social-presence.md#activity-invites): the user asks to join
 * the party of another user's current activity, gets its join secret, and every SDK session of
 * theirs in that game receives ACTIVITY_JOIN with it (the game on another device joins too).
 */
import { requireAccess, requireScope } from '../access/index.js';
import { ApiError } from '../../errors/index.js';
import { afterWrite } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { ServiceDeps } from '../deps.js';
import type { AcceptActivityInviteBody } from './schemas.js';

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

/** The joinable activity of a party: its id, its application and a join secret. */
function joinable(activity: StoredActivity, partyId: string, applicationId: string | null) {
  const party = record(activity['party']);
  const join = record(activity['secrets'])?.['join'];
  const appId = activity['application_id'];
  if (party?.['id'] !== partyId || typeof join !== 'string' || typeof appId !== 'string') {
    return null;
  }
  if (applicationId !== null && appId !== applicationId) return null;
  return { applicationId: appId, secret: join, public: party['privacy'] === PUBLIC_PARTY };
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

  return {
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
      if (inviterId === userId) throw new ApiError('INVALID_ACTIVITY_ACTION');
      const scope = principal.kind === 'bearer' ? principal.applicationId : null;
      const found = (await deps.activitiesOf(inviterId))
        .map((a) => joinable(a, partyId, scope))
        .find((a) => a !== null);
      if (found === undefined) throw new ApiError('INVALID_ACTIVITY_ACTION');
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
  };
}

export type ActivityInviteService = ReturnType<typeof createActivityInviteService>;
