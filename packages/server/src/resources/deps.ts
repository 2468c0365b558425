import type { BlobStore } from '../blobs/index.js';
import type { Clock } from '../domain/clock.js';
import type { Entropy } from '../domain/seeded.js';
import type { IdGenerator } from '../domain/snowflakes.js';
import type { Revocations } from '../events/revocations.js';
import type { Authenticator } from '../http/authenticator.js';
import type { Repositories, Storage } from '../storage/index.js';

/** What every service is built from. */
export interface ServiceDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  /** What tokens, secrets and keys are made from (absent: the system's randomness). */
  entropy?: Entropy;
  blobs: BlobStore;
  /** Told when credentials or users change, so cached tokens never outlive them here. */
  authenticator: Pick<Authenticator, 'forgetToken' | 'forgetUser'>;
  /** Ends revoked credentials on every node: auth caches and gateway sessions (close 4004). */
  revocations: Pick<Revocations, 'revoke'>;
}

/** The social message events an application is told of by webhook (docs/webhook-events.md). */
export type SocialWebhookEventType =
  | 'LOBBY_MESSAGE_CREATE'
  | 'LOBBY_MESSAGE_UPDATE'
  | 'LOBBY_MESSAGE_DELETE'
  | 'GAME_DIRECT_MESSAGE_CREATE'
  | 'GAME_DIRECT_MESSAGE_UPDATE'
  | 'GAME_DIRECT_MESSAGE_DELETE';

/** The monetization events an application is told of by webhook (docs/monetization.md). */
export type EntitlementWebhookEventType =
  'ENTITLEMENT_CREATE' | 'ENTITLEMENT_UPDATE' | 'ENTITLEMENT_DELETE';

/**
 * Puts a social webhook event in the durable outbox inside the caller's transaction, so it is
 * sent if and only if the change commits (delivery/ implements it). `data` is the event's wire
 * object, built by the resource's serializer.
 */
export interface SocialWebhookEvents {
  enqueue(
    tx: Repositories,
    event: {
      applicationId: string;
      type: SocialWebhookEventType | EntitlementWebhookEventType;
      data: Record<string, unknown>;
      /** Where to send it instead of the app's URL (a lobby's override_event_webhooks_url). */
      url?: string | null;
    },
  ): Promise<void>;
}

/**
 * The writes the Social SDK pre-approval limits count (docs/social.md#limits): each is limited
 * per application (100 per 2 hours; channel linking 20) until an operator approves the app.
 */
export type SocialLimitedOperation =
  | 'lobby_create'
  | 'lobby_create_or_join'
  | 'lobby_update'
  | 'lobby_member_update'
  | 'lobby_member_remove'
  | 'lobby_members_bulk'
  | 'lobby_invite_self'
  | 'lobby_invite_user'
  | 'lobby_message_send'
  | 'lobby_channel_link'
  | 'dm_send';

/** Counts one limited write of an application; throws the platform's 429 when it is over. */
export interface SocialLimits {
  consume(applicationId: string, operation: SocialLimitedOperation): Promise<void>;
}
