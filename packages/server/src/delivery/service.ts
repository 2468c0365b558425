/**
 * @module delivery/service: webhook events as the rest of the platform sees them: the sink
 * services enqueue into (in their transaction), the URL check run when an app sets its URL, the
 * per-app delivery log, and the worker's lifecycle (started by createApp, stopped by close).
 */
import { isSnowflake } from '@guildhall/protocol';
import type { Logger } from 'pino';
import type { Clock, Timers } from '../domain/clock.js';
import type { IdGenerator } from '../domain/snowflakes.js';
import { ApiError, invalidField } from '../errors/index.js';
import type { Principal } from '../http/authenticator.js';
import type {
  ApplicationRecord,
  OutboxAttemptRecord,
  OutboxEventRecord,
  Repositories,
  Storage,
} from '../storage/index.js';
import { postSigned } from './post.js';
import {
  WebhookPayloadTypes,
  enqueueWebhookEvent,
  type WebhookEventInput,
} from './webhookEvents.js';
import type { SecretBox } from '../domain/secretBox.js';
import { createDeliveryWorker, openSigningKey, type DeliverySettings } from './worker.js';
import { unixSeconds } from '../domain/time.js';
import type { DeliveryFaultHook } from './faults.js';
import { createDeliveryStats, deliveryMetricLines } from './metrics.js';
import { onCommit } from '../events/afterCommit.js';

export interface WebhookEventsDeps {
  storage: Storage;
  clock: Clock;
  ids: IdGenerator;
  logger: Logger;
  secrets: SecretBox;
  timers: Timers;
  settings: DeliverySettings;
  /** A test harness's failure to report instead of posting (delivery/faults.ts). */
  fault?: DeliveryFaultHook;
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function serializeDelivery(event: OutboxEventRecord, attempts: readonly OutboxAttemptRecord[]) {
  return {
    id: event.id,
    type: event.eventType,
    status: event.status,
    created_at: iso(event.createdAt),
    next_attempt_at: event.status === 'pending' ? iso(event.nextAttemptAt) : null,
    give_up_at: iso(event.giveUpAt),
    finished_at: iso(event.finishedAt),
    attempts: attempts.map((a) => ({
      attempt: a.attempt,
      timestamp: iso(a.startedAt),
      http_status: a.httpStatus,
      error: a.error,
      duration_ms: a.durationMs,
    })),
  };
}

export function createWebhookEventsService(deps: WebhookEventsDeps) {
  const { storage, clock, ids, secrets, settings } = deps;
  const stats = createDeliveryStats();
  const worker = createDeliveryWorker({ ...deps, stats });

  return {
    /**
     * Enqueues an event in the caller's transaction; nothing is written when the app has no
     * enabled URL or does not subscribe to the type.
     */
    async enqueue(tx: Repositories, event: WebhookEventInput): Promise<void> {
      if (!(await enqueueWebhookEvent(tx, { ids, clock }, event))) return;
      // Counted once it is in the outbox for good.
      onCommit(tx, () => {
        stats.queued++;
      });
    },

    /**
     * Sends the signed PING (type 0) to a URL an app is setting; it is kept only if the app
     * answers 204, otherwise a 50035 on `event_webhooks_url` says what the check saw.
     */
    verifyUrl: async (application: ApplicationRecord, url: string): Promise<void> => {
      const body = JSON.stringify({
        version: 1,
        application_id: application.id,
        type: WebhookPayloadTypes.PING,
      });
      const outcome = await postSigned(
        {
          url,
          signingKey: openSigningKey(secrets, application),
          timestamp: unixSeconds(clock.now()),
          body,
        },
        settings,
      );
      if (outcome.status === 204) return;
      const seen =
        outcome.status === null
          ? outcome.error
          : outcome.status >= 300 && outcome.status < 400
            ? `it answered ${String(outcome.status)} (redirects are not followed)`
            : `it answered ${String(outcome.status)}`;
      throw invalidField(
        ['event_webhooks_url'],
        'APPLICATION_EVENT_WEBHOOKS_URL_INVALID',
        `The webhook events URL check failed: the signed PING must be answered with 204, but ${seen}.`,
      );
    },

    /** The app's recent events with every attempt, newest first (the owner or the app's bot). */
    async listDeliveries(
      principal: Principal,
      applicationId: string,
      query: { limit: number; before?: string },
    ) {
      const application = isSnowflake(applicationId)
        ? await storage.applications.findById(applicationId)
        : null;
      const allowed =
        application !== null &&
        (principal.kind === 'session'
          ? application.ownerId === principal.user.id
          : principal.kind === 'bot' && principal.applicationId === application.id);
      if (!allowed) throw new ApiError('UNKNOWN_APPLICATION');
      const events = await storage.outbox.listByApplication(application.id, query);
      const attempts = await storage.outbox.listAttempts(events.map((e) => e.id));
      return events.map((event) =>
        serializeDelivery(
          event,
          attempts.filter((a) => a.outboxId === event.id),
        ),
      );
    },

    /** The worker's figures in Prometheus's text format (for /metrics). */
    metricLines: () => deliveryMetricLines(stats),
    /** One delivery pass now (tests drive the worker with it). */
    deliverDue: worker.deliverDue,
    start: worker.start,
    stop: worker.stop,
  };
}

export type WebhookEventsService = ReturnType<typeof createWebhookEventsService>;
