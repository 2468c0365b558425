/**
 * @module resources/socialLimits/limits: the Social SDK pre-approval limits (docs/social.md#limits).
 * Until an operator approves an application for the Social SDK, each of its lobby writes and DM
 * sends is counted per application, in a fixed two-hour window per operation, in the shared
 * rate-limit store (every node counts into the same window). Over the limit, the write gets the
 * platform's 429 body with `X-RateLimit-Scope: shared`: the limit is the application's, shared
 * by all its players, and does not count against a player's invalid requests.
 */
import type { Clock } from '../../domain/clock.js';
import { HOUR_MS, SECOND_MS } from '../../domain/time.js';
import { RateLimitedError } from '../../errors/index.js';
import {
  rateLimitHeaders,
  type BucketLimit,
  type RateLimitStore,
} from '../../http/rateLimit/index.js';
import type { Storage } from '../../storage/index.js';
import type { SocialLimitedOperation, SocialLimits } from '../deps.js';

/** The window of every pre-approval limit. */
export const SOCIAL_LIMIT_WINDOW_MS = 2 * HOUR_MS;

/** Writes per window for most operations, and for channel linking (api-facts §3.3). */
const WRITES_PER_WINDOW = 100;
const CHANNEL_LINKS_PER_WINDOW = 20;

/** Each limited operation's quota in {@link SOCIAL_LIMIT_WINDOW_MS}. */
export const SOCIAL_LIMITS: Readonly<Record<SocialLimitedOperation, number>> = {
  lobby_create: WRITES_PER_WINDOW,
  lobby_create_or_join: WRITES_PER_WINDOW,
  lobby_update: WRITES_PER_WINDOW,
  lobby_member_update: WRITES_PER_WINDOW,
  lobby_member_remove: WRITES_PER_WINDOW,
  lobby_members_bulk: WRITES_PER_WINDOW,
  lobby_invite_self: WRITES_PER_WINDOW,
  lobby_invite_user: WRITES_PER_WINDOW,
  lobby_message_send: WRITES_PER_WINDOW,
  lobby_channel_link: CHANNEL_LINKS_PER_WINDOW,
  dm_send: WRITES_PER_WINDOW,
};

/** The shared-store key of an application's bucket for one operation. */
function bucketKey(applicationId: string, operation: SocialLimitedOperation): string {
  return `social:${applicationId}:${operation}`;
}

export function createSocialLimits(deps: {
  storage: Pick<Storage, 'applications'>;
  clock: Clock;
  store: RateLimitStore;
}): SocialLimits {
  const { storage, clock, store } = deps;
  return {
    async consume(applicationId, operation) {
      const application = await storage.applications.findById(applicationId);
      // An unknown application has nothing to count; the caller's own lookup refuses it.
      if (application === null || application.socialApproved) return;
      const limit: BucketLimit = {
        limit: SOCIAL_LIMITS[operation],
        windowMs: SOCIAL_LIMIT_WINDOW_MS,
      };
      const now = clock.now();
      const result = await store.consume(bucketKey(applicationId, operation), limit, now);
      if (result.allowed) return;
      throw new RateLimitedError({
        retryAfterSeconds: (result.resetAtMs - now) / SECOND_MS,
        global: false,
        scope: 'shared',
        headers: {
          ...rateLimitHeaders(result, `social.${operation}`, now),
          'x-ratelimit-scope': 'shared',
        },
      });
    },
  };
}
