import { z } from 'zod';
import { Snowflake } from '../../http/schemas.js';

/** A party id, as op 3 takes it (gateway/clientOps.ts: at most 128 characters). */
const MAX_PARTY_ID = 128;

/**
 * POST /users/@me/activities/{party_id}/join: whose invite is accepted (the inviter, the author
 * of the invite message) and, optionally, the DM message that carried it, echoed in
 * ACTIVITY_JOIN.
 */
export const AcceptActivityInviteBody = z.object({
  user_id: Snowflake,
  channel_id: Snowflake.optional(),
  message_id: Snowflake.optional(),
});

/** POST /users/@me/activities/{party_id}/join-request: the host whose party is asked into. */
export const ActivityJoinRequestBody = z.object({ user_id: Snowflake });

/** POST /users/@me/activities/{party_id}/spectate: the host whose activity is watched. */
export const SpectateActivityBody = z.object({ user_id: Snowflake });

export const PartyIdParams = z.object({ party_id: z.string().min(1).max(MAX_PARTY_ID) });

export type AcceptActivityInviteBody = z.infer<typeof AcceptActivityInviteBody>;
export type ActivityJoinRequestBody = z.infer<typeof ActivityJoinRequestBody>;
export type SpectateActivityBody = z.infer<typeof SpectateActivityBody>;
