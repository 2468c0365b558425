/**
 * @module resources/applications/eventWebhooks: the webhook-events fields of PATCH
 * /applications/@me and /applications/{id}: `event_webhooks_url`, `event_webhooks_types`,
 * `event_webhooks_status`, and the statuses and event types they name. `delivery/` sends the
 * events; this module only says what an application asked for.
 */
import { z } from 'zod';
import { invalidField } from '../../errors/index.js';
import type { ApplicationPatch, ApplicationRecord } from '../../storage/index.js';

/** ApplicationEventWebhooksStatus. */
export const EventWebhooksStatuses = { DISABLED: 1, ENABLED: 2, DISABLED_BY_PLATFORM: 3 } as const;

/** Every event type an app may subscribe to (the platform's list; openapi.json). */
export const SUBSCRIBABLE_EVENT_TYPES = [
  'APPLICATION_AUTHORIZED',
  'APPLICATION_DEAUTHORIZED',
  'ENTITLEMENT_CREATE',
  'ENTITLEMENT_DELETE',
  'ENTITLEMENT_UPDATE',
  'GAME_DIRECT_MESSAGE_CREATE',
  'GAME_DIRECT_MESSAGE_DELETE',
  'GAME_DIRECT_MESSAGE_UPDATE',
  'LOBBY_MESSAGE_CREATE',
  'LOBBY_MESSAGE_DELETE',
  'LOBBY_MESSAGE_UPDATE',
  'QUEST_USER_ENROLLMENT',
] as const;
export type SubscribableEventType = (typeof SUBSCRIBABLE_EVENT_TYPES)[number];

/** Checks that a URL answers the signed PING (the delivery service's `verifyUrl`). */
export type VerifyEventWebhooksUrl = (application: ApplicationRecord, url: string) => Promise<void>;

/** The body fields, merged into the applications PATCH schema. */
export const EventWebhooksFields = {
  event_webhooks_types: z
    .array(z.enum(SUBSCRIBABLE_EVENT_TYPES))
    .refine((types) => new Set(types).size === types.length, 'Event types must be unique.')
    .nullable()
    .optional(),
  // An app may turn its events off (1) or on (2); 3 is the platform's to set.
  event_webhooks_status: z
    .union([z.literal(EventWebhooksStatuses.DISABLED), z.literal(EventWebhooksStatuses.ENABLED)])
    .nullable()
    .optional(),
};

export interface EventWebhooksInput {
  event_webhooks_url?: string | null | undefined;
  event_webhooks_types?: string[] | null | undefined;
  event_webhooks_status?: 1 | 2 | null | undefined;
}

/**
 * The application changes the fields ask for. A URL is kept only if it answers the signed PING
 * with 204 (`verifyUrl` throws the 50035 otherwise); setting one turns events on unless the same
 * request sets the status, and removing it turns them off. Turning events on needs a URL, and
 * turning them back on without a new URL checks the current one again.
 */
export async function eventWebhooksPatch(
  application: ApplicationRecord,
  input: EventWebhooksInput,
  verifyUrl: VerifyEventWebhooksUrl,
): Promise<ApplicationPatch> {
  const patch: ApplicationPatch = {};
  if (input.event_webhooks_types !== undefined) {
    patch.eventWebhooksTypes = input.event_webhooks_types ?? [];
  }
  let url = application.eventWebhooksUrl;
  if (input.event_webhooks_url !== undefined) {
    url = input.event_webhooks_url;
    if (url !== null) await verifyUrl(application, url);
    patch.eventWebhooksUrl = url;
    patch.eventWebhooksStatus =
      url === null ? EventWebhooksStatuses.DISABLED : EventWebhooksStatuses.ENABLED;
  }
  const status = input.event_webhooks_status;
  if (status != null) {
    if (status === EventWebhooksStatuses.ENABLED) {
      if (url === null) {
        throw invalidField(
          ['event_webhooks_status'],
          'APPLICATION_EVENT_WEBHOOKS_URL_REQUIRED',
          'Webhook events cannot be enabled without a webhook events URL.',
        );
      }
      const wasOff = application.eventWebhooksStatus !== EventWebhooksStatuses.ENABLED;
      if (wasOff && input.event_webhooks_url === undefined) await verifyUrl(application, url);
    }
    patch.eventWebhooksStatus = status;
  }
  return patch;
}
