/**
 * @module delivery/worker: drains the outbox. Each pass claims the due events (one statement; on
 * PostgreSQL with FOR UPDATE SKIP LOCKED, so workers on several nodes share the work and never
 * send one row twice; on SQLite one worker per database), POSTs them signed, and records each
 * attempt. A failed attempt is retried with exponential backoff and jitter until the event's
 * 10-minute window closes, after which it is marked failed. Time comes from the injected clock and
 * waits from the injected timers, so tests drive it without sleeping.
 */
import type { Logger } from 'pino';
import type { Clock, Timers } from '../domain/clock.js';
import { SEALED_AS, type SecretBox } from '../domain/secretBox.js';
import type { ApplicationRecord, OutboxEventRecord, Storage } from '../storage/index.js';
import { EventWebhooksStatuses } from '../resources/applications/index.js';
import { WebhookPayloadTypes } from './webhookEvents.js';
import { failedOutcome, type DeliveryFaultHook } from './faults.js';
import { postSigned, type PostLimits, type PostOutcome } from './post.js';
import { countAttempt, failureReason, type DeliveryStats } from './metrics.js';
import { SECOND_MS, unixSeconds } from '../domain/time.js';

/** How much longer than an attempt's timeout a claim holds its event. */
const LEASE_MARGIN_MS = 30 * SECOND_MS;

export interface DeliverySettings extends PostLimits {
  /** Between passes when the last one found less than a full batch. */
  pollMs: number;
  batchSize: number;
  /** First retry delay; doubled per attempt up to maxBackoffMs, then jittered. */
  baseBackoffMs: number;
  maxBackoffMs: number;
  /** 0 ≤ x < 1; Math.random unless a test fixes it. */
  random: () => number;
}

export const DEFAULT_DELIVERY_SETTINGS: Omit<DeliverySettings, 'allowLocal'> = {
  // The platform expects an answer within 3 seconds (docs/platform-notes.md#webhook-events).
  timeoutMs: 3000,
  pollMs: 1000,
  batchSize: 20,
  baseBackoffMs: 1000,
  maxBackoffMs: 120_000,
  random: Math.random,
};

/** The delay before attempt `attempt + 1`: base·2^(attempt−1), capped, then between ½ and 1 of it. */
export function backoffMs(attempt: number, settings: DeliverySettings): number {
  const ceiling = Math.min(settings.maxBackoffMs, settings.baseBackoffMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * settings.random());
}

export interface DeliveryWorkerDeps {
  storage: Storage;
  clock: Clock;
  logger: Logger;
  /** Opens the apps' sealed signing keys. */
  secrets: SecretBox;
  timers: Timers;
  settings: DeliverySettings;
  /** A test harness's failure to report instead of posting (delivery/faults.ts). */
  fault?: DeliveryFaultHook;
  /** Where each attempt's outcome is counted (delivery/metrics.ts). */
  stats: DeliveryStats;
}

/** An app's Ed25519 private key (PKCS#8 DER, base64), opened from its sealed column. */
export function openSigningKey(
  secrets: SecretBox,
  application: Pick<ApplicationRecord, 'id' | 'signingKey'>,
): string {
  return secrets.open(application.signingKey, SEALED_AS.applicationSigningKey(application.id));
}

/** The envelope of an outbox event, as POSTed (and signed) byte for byte. */
export function eventEnvelope(event: OutboxEventRecord): string {
  return `{"version":1,"application_id":${JSON.stringify(event.applicationId)},"type":${String(
    WebhookPayloadTypes.EVENT,
  )},"event":${event.event}}`;
}

export function createDeliveryWorker(deps: DeliveryWorkerDeps) {
  const { storage, clock, logger, secrets, timers, settings } = deps;
  // A claim holds an event for longer than one attempt can take; then it is due again.
  const leaseMs = settings.timeoutMs + LEASE_MARGIN_MS;
  let cancelTimer: (() => void) | null = null;
  let running: Promise<number> | null = null;
  let stopped = true;

  const attempt = async (event: OutboxEventRecord): Promise<void> => {
    const startedAt = clock.now();
    const application = await storage.applications.findById(event.applicationId);
    const target =
      application?.eventWebhooksStatus === EventWebhooksStatuses.ENABLED &&
      application.eventWebhooksUrl !== null
        ? {
            // A lobby's override URL replaces the app's for that lobby's events.
            url: event.targetUrl ?? application.eventWebhooksUrl,
            signingKey: openSigningKey(secrets, application),
          }
        : null;
    const disabled = target === null;
    const failure =
      target === null ? null : (deps.fault?.('webhookEvents', event.applicationId) ?? null);
    const outcome: PostOutcome =
      target === null
        ? { status: null, error: 'webhook events are disabled for the app', durationMs: 0 }
        : failure !== null
          ? {
              ...(await failedOutcome(failure, { timeoutMs: settings.timeoutMs, timers })),
              durationMs: 0,
            }
          : await postSigned(
              { ...target, timestamp: unixSeconds(startedAt), body: eventEnvelope(event) },
              settings,
            );
    const delivered = outcome.status !== null && outcome.status >= 200 && outcome.status < 300;
    const now = clock.now();
    const retryAt = Math.min(now + backoffMs(event.attempts, settings), event.giveUpAt);
    const next = delivered
      ? ({ status: 'delivered', at: now } as const)
      : disabled || now >= event.giveUpAt
        ? ({ status: 'failed', at: now } as const)
        : ({ status: 'pending', retryAt } as const);
    // The attempt row and the event's next state are written together.
    const recorded = await storage.transaction((tx) =>
      tx.outbox.finishAttempt({
        attempt: {
          outboxId: event.id,
          attempt: event.attempts,
          startedAt,
          durationMs: outcome.durationMs,
          httpStatus: outcome.status,
          error: outcome.error,
        },
        next,
      }),
    );
    countAttempt(deps.stats, next.status, () => failureReason(outcome, disabled));
    // The log names the event and the outcome, never the body (it carries user data).
    logger[next.status === 'failed' ? 'warn' : 'debug'](
      {
        eventId: event.id,
        applicationId: event.applicationId,
        type: event.eventType,
        attempt: event.attempts,
        status: outcome.status,
        error: outcome.error,
        next: next.status,
        recorded,
      },
      next.status === 'failed' ? 'webhook event given up' : 'webhook event attempt',
    );
  };

  /** One pass: claims what is due and attempts each; resolves to how many were claimed. */
  const pass = async (): Promise<number> => {
    const claimed = await storage.outbox.claimDue({
      now: clock.now(),
      limit: settings.batchSize,
      leaseMs,
    });
    await Promise.all(
      claimed.map((event) =>
        attempt(event).catch((err: unknown) => {
          logger.error({ err, eventId: event.id }, 'webhook event attempt not recorded');
        }),
      ),
    );
    return claimed.length;
  };

  const deliverDue = (): Promise<number> => {
    running ??= pass().finally(() => {
      running = null;
    });
    return running;
  };

  const loop = () => {
    cancelTimer = null;
    deliverDue()
      .catch((err: unknown) => {
        logger.error({ err }, 'webhook delivery pass failed');
        return 0;
      })
      .then(
        (claimed) => {
          if (!stopped)
            cancelTimer = timers.schedule(
              loop,
              claimed >= settings.batchSize ? 0 : settings.pollMs,
            );
        },
        () => undefined,
      );
  };

  return {
    /** Runs one pass now (tests call it instead of waiting for the timer). */
    deliverDue,
    start: () => {
      if (!stopped) return;
      stopped = false;
      cancelTimer = timers.schedule(loop, 0);
    },
    /** Stops scheduling and waits for the pass in flight (bounded by the POST timeout). */
    stop: async () => {
      stopped = true;
      cancelTimer?.();
      cancelTimer = null;
      await running?.catch(() => undefined);
    },
  };
}
