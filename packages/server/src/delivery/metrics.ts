/**
 * @module delivery/metrics: what the webhook event worker did, for /metrics
 * (docs/operations.md#webhook-event-delivery): events queued (committed into the outbox),
 * delivered, retried and given up, the last two by reason. Plain counts, written out at a scrape.
 */
import { LabelledCounts, labelText, metricLines } from '../domain/metricText.js';
import type { PostOutcome } from './post.js';

export interface DeliveryStats {
  queued: number;
  delivered: number;
  /** Failed attempts that will be tried again, by `reason`. */
  retried: LabelledCounts;
  /** Events given up, by `reason` (of their last attempt). */
  failed: LabelledCounts;
}

export function createDeliveryStats(): DeliveryStats {
  return { queued: 0, delivered: 0, retried: new LabelledCounts(), failed: new LabelledCounts() };
}

/**
 * Why an attempt failed, as a label: events disabled for the app, an answer out of 2xx (by its
 * class), a timeout, a URL the policy refuses, or no answer at all.
 */
export function failureReason(outcome: PostOutcome, disabled: boolean): string {
  if (disabled) return 'disabled';
  if (outcome.status !== null) return `status_${String(Math.floor(outcome.status / 100))}xx`;
  if (outcome.error.startsWith('timed out')) return 'timeout';
  if (outcome.error.startsWith('URL refused')) return 'url_refused';
  return 'unreachable';
}

/** Counts one attempt by what comes next for its event. */
export function countAttempt(
  stats: DeliveryStats,
  next: 'delivered' | 'pending' | 'failed',
  reason: () => string,
): void {
  if (next === 'delivered') stats.delivered++;
  else (next === 'pending' ? stats.retried : stats.failed).add(labelText({ reason: reason() }));
}

export function deliveryMetricLines(stats: DeliveryStats): string[] {
  return [
    ...metricLines(
      'guildhall_webhook_events_queued_total',
      { type: 'counter', help: 'Webhook events committed into the outbox.' },
      stats.queued,
    ),
    ...metricLines(
      'guildhall_webhook_events_delivered_total',
      { type: 'counter', help: 'Webhook events the app answered with 2xx.' },
      stats.delivered,
    ),
    ...metricLines(
      'guildhall_webhook_events_retried_total',
      { type: 'counter', help: 'Failed webhook event attempts scheduled again, by reason.' },
      stats.retried.entries(),
    ),
    ...metricLines(
      'guildhall_webhook_events_failed_total',
      {
        type: 'counter',
        help: 'Webhook events given up (window closed or events disabled), by the reason of their last attempt.',
      },
      stats.failed.entries(),
    ),
  ];
}
