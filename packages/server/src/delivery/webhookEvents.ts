/**
 * @module delivery/webhookEvents: what an application may be told by webhook event, and the one
 * way to tell it: `enqueueWebhookEvent(tx, deps, {applicationId, type, data})` inside the
 * transaction of the change. The event goes into the durable outbox only when the app subscribes
 * to its type with events enabled; the delivery worker signs and POSTs it after the commit, with
 * retries.
 */
import type { Clock } from '../domain/clock.js';
import type { IdGenerator } from '../domain/snowflakes.js';
import { EventWebhooksStatuses } from '../resources/applications/index.js';
import { serializeGuild } from '../resources/guilds/index.js';
import { serializeUser } from '../resources/users/index.js';
import type { GuildRecord, Repositories, UserRecord } from '../storage/index.js';
import { MINUTE_MS } from '../domain/time.js';

/** Envelope `type`: 0 is the PING sent when a URL is set, 1 an event. */
export const WebhookPayloadTypes = { PING: 0, EVENT: 1 } as const;

/**
 * How long an event is retried before it is marked failed (docs/platform-notes.md#webhook-events).
 */
export const DELIVERY_WINDOW_MS = 10 * MINUTE_MS;

/**
 * The events this platform sends, each with what its caller passes. A new event (lobby or game
 * DM messages) is one entry here and one builder in EVENT_BUILDERS.
 */
export interface WebhookEventInputs {
  /** A user authorized the app: a user install (integration_type 1) or a guild install (0). */
  APPLICATION_AUTHORIZED: {
    user: UserRecord;
    scopes: readonly string[];
    integrationType?: 0 | 1;
    guild?: GuildRecord;
  };
  /** The user's authorization of the app ended (revoke, unlink, unmerge, ban). */
  APPLICATION_DEAUTHORIZED: { user: UserRecord };
  /** The social message events: their caller builds the wire `data` (a lobby or DM message). */
  LOBBY_MESSAGE_CREATE: SocialEventData;
  LOBBY_MESSAGE_UPDATE: SocialEventData;
  LOBBY_MESSAGE_DELETE: SocialEventData;
  GAME_DIRECT_MESSAGE_CREATE: SocialEventData;
  GAME_DIRECT_MESSAGE_UPDATE: SocialEventData;
  GAME_DIRECT_MESSAGE_DELETE: SocialEventData;
  /** An entitlement was granted, changed (consumed, ended) or deleted: the entitlement object. */
  ENTITLEMENT_CREATE: SocialEventData;
  ENTITLEMENT_UPDATE: SocialEventData;
  ENTITLEMENT_DELETE: SocialEventData;
}
type SocialEventData = Record<string, unknown>;
export type WebhookEventType = keyof WebhookEventInputs;

type EventBuilder<T extends WebhookEventType> = (
  tx: Repositories,
  input: WebhookEventInputs[T],
) => Promise<Record<string, unknown>>;

/**
 * Event type → the `data` of its envelope, read inside the caller's transaction. Only the types
 * here are ever enqueued; the others an app may subscribe to wait for their features.
 */
export const webhookEventData: { [T in WebhookEventType]: EventBuilder<T> } = {
  async APPLICATION_AUTHORIZED(tx, { user, scopes, integrationType, guild }) {
    return {
      ...(integrationType === undefined ? {} : { integration_type: integrationType }),
      user: serializeUser(user),
      scopes: [...scopes],
      ...(guild === undefined ? {} : { guild: await guildObject(tx, guild) }),
    };
  },
  APPLICATION_DEAUTHORIZED(_tx, { user }) {
    return Promise.resolve({ user: serializeUser(user) });
  },
  LOBBY_MESSAGE_CREATE: asIs,
  LOBBY_MESSAGE_UPDATE: asIs,
  LOBBY_MESSAGE_DELETE: asIs,
  GAME_DIRECT_MESSAGE_CREATE: asIs,
  GAME_DIRECT_MESSAGE_UPDATE: asIs,
  GAME_DIRECT_MESSAGE_DELETE: asIs,
  ENTITLEMENT_CREATE: asIs,
  ENTITLEMENT_UPDATE: asIs,
  ENTITLEMENT_DELETE: asIs,
};

/** The `data` of an event whose caller serialized it (a resource's own wire object). */
function asIs(_tx: Repositories, data: SocialEventData): Promise<Record<string, unknown>> {
  return Promise.resolve(data);
}

async function guildObject(tx: Repositories, guild: GuildRecord) {
  const [roles, emojis, stickers] = await Promise.all([
    tx.roles.listByGuild(guild.id),
    tx.emojis.listByGuild(guild.id),
    tx.stickers.listByGuild(guild.id),
  ]);
  return serializeGuild(guild, { roles, emojis, stickers });
}

function isEmitted(type: string): type is WebhookEventType {
  return Object.hasOwn(webhookEventData, type);
}

/** An event as its caller hands it over: the app, the type and the wire `data`. */
export interface WebhookEventInput {
  applicationId: string;
  type: string;
  data: unknown;
  /**
   * Where to send it instead of the app's URL (a lobby's override_event_webhooks_url). The app
   * must still have events enabled and subscribe to the type; the URL policy applies to it too.
   */
  url?: string | null;
}

export interface EnqueueDeps {
  ids: IdGenerator;
  clock: Clock;
}

/**
 * Puts a webhook event in the outbox, in the caller's transaction (`storage.transaction(tx =>
 * ...)`), so it is sent if and only if the change commits. Nothing is written when the app has
 * no enabled URL or does not subscribe to the type; returns whether the event was enqueued.
 */
export async function enqueueWebhookEvent(
  tx: Repositories,
  deps: EnqueueDeps,
  event: WebhookEventInput,
): Promise<boolean> {
  if (!isEmitted(event.type)) throw new Error(`no webhook event type ${event.type}`);
  const application = await tx.applications.findById(event.applicationId);
  if (
    application?.eventWebhooksUrl == null ||
    application.eventWebhooksStatus !== EventWebhooksStatuses.ENABLED ||
    !application.eventWebhooksTypes.includes(event.type)
  ) {
    return false;
  }
  const now = deps.clock.now();
  await tx.outbox.enqueue({
    id: deps.ids(),
    applicationId: application.id,
    eventType: event.type,
    event: JSON.stringify({
      type: event.type,
      timestamp: new Date(now).toISOString(),
      data: event.data,
    }),
    createdAt: now,
    giveUpAt: now + DELIVERY_WINDOW_MS,
    targetUrl: event.url ?? null,
  });
  return true;
}
