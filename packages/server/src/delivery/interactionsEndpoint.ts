/**
 * @module delivery/interactionsEndpoint: an app's interactions endpoint URL. Setting it sends
 * the platform's two checks (the URL is kept only if both pass): a PING (type 1) with a forged
 * signature, which the endpoint must refuse with 401, and a correctly signed PING, which it must
 * answer 200 with `{"type": 1}`. Delivering an interaction is one signed POST whose answer body
 * is the app's initial response. Every exchange is bounded (delivery/post.ts).
 */
import { randomBytes } from 'node:crypto';
import { realTimers, type Clock, type Timers } from '../domain/clock.js';
import type { SecretBox } from '../domain/secretBox.js';
import { unixSeconds } from '../domain/time.js';
import { invalidField } from '../errors/index.js';
import type { InteractionsEndpoint } from '../resources/interactions/index.js';
import type { ApplicationRecord } from '../storage/index.js';
import { failedOutcome, type DeliveryFaultHook } from './faults.js';
import { postSignedForAnswer, signPayload, type AnsweredOutcome } from './post.js';
import { openSigningKey } from './worker.js';

/** The largest answer read from an interactions endpoint (a response with its files). */
export const MAX_ENDPOINT_ANSWER_BYTES = 32 * 1024 * 1024;
/** How long the endpoint check waits for each PING's answer. */
const CHECK_TIMEOUT_MS = 5_000;
/** Interaction type 1: the endpoint check. */
const PING = 1;
/** Callback type 1: the answer to a PING. */
const PONG = 1;
/** The size of an Ed25519 signature, in bytes. */
const SIGNATURE_BYTES = 64;

export interface EndpointSettings {
  clock: Clock;
  /** Opens the apps' sealed signing keys. */
  secrets: SecretBox;
  /** Loopback and private addresses allowed (tests and local setups; delivery/urlPolicy.ts). */
  allowLocal: boolean;
  /**
   * A test harness's failure to report instead of posting an interaction (delivery/faults.ts),
   * and the timers its timeout waits on (the platform clock's).
   */
  fault?: { hook: DeliveryFaultHook; timers: Timers };
}

/** Throws the platform's 50035 on `interactions_endpoint_url`. */
function unverified(): never {
  throw invalidField(
    ['interactions_endpoint_url'],
    'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
    'The specified interactions endpoint url could not be verified.',
  );
}

/** Whether an answer is `{"type": 1}` (a PONG) with status 200. */
function isPong(outcome: AnsweredOutcome): boolean {
  if (outcome.status !== 200) return false;
  try {
    const parsed = JSON.parse(outcome.body.toString('utf8')) as { type?: unknown } | null;
    return parsed?.type === PONG;
  } catch {
    return false;
  }
}

/** The interactions endpoint of apps: its check, and the signed POST of an interaction. */
export function createInteractionsEndpoint(settings: EndpointSettings): InteractionsEndpoint {
  const { clock, secrets, allowLocal } = settings;

  const post = (
    application: ApplicationRecord,
    request: { url: string; body: string; timeoutMs: number; forged?: boolean },
  ) => {
    const timestamp = unixSeconds(clock.now());
    const signingKey = openSigningKey(secrets, application);
    // A forged signature: a valid one over another body, so only a real check refuses it.
    const forged = request.forged === true;
    const headers = forged
      ? {
          'x-signature-ed25519': signPayload(
            signingKey,
            timestamp,
            randomBytes(SIGNATURE_BYTES).toString('hex'),
          ),
        }
      : undefined;
    return postSignedForAnswer(
      {
        url: request.url,
        signingKey,
        timestamp,
        body: request.body,
        ...(headers === undefined ? {} : { headers }),
      },
      { timeoutMs: request.timeoutMs, allowLocal, maxResponseBytes: MAX_ENDPOINT_ANSWER_BYTES },
    );
  };

  return {
    /**
     * Checks a URL an app is setting as its interactions endpoint; throws the 50035 unless the
     * endpoint refuses a forged signature (401) and answers a signed PING with a PONG.
     */
    async verifyUrl(application: ApplicationRecord, url: string): Promise<void> {
      const body = JSON.stringify({
        id: '0',
        application_id: application.id,
        type: PING,
        version: 1,
      });
      const forged = await post(application, {
        url,
        body,
        timeoutMs: CHECK_TIMEOUT_MS,
        forged: true,
      });
      if (forged.status !== 401) unverified();
      const signed = await post(application, { url, body, timeoutMs: CHECK_TIMEOUT_MS });
      if (!isPong(signed)) unverified();
    },

    /** POSTs an interaction (the JSON delivered, token included); the answer holds the response. */
    async deliver(
      application: ApplicationRecord,
      request: { url: string; body: string; timeoutMs: number },
    ) {
      const failure = settings.fault?.hook('interactions', application.id) ?? null;
      if (failure === null) return post(application, request);
      const outcome = await failedOutcome(failure, {
        timeoutMs: request.timeoutMs,
        timers: settings.fault?.timers ?? realTimers,
      });
      return outcome.status === null
        ? { ...outcome, durationMs: 0 }
        : {
            ...outcome,
            contentType: 'application/json',
            body: Buffer.from(JSON.stringify({ message: `${String(outcome.status)}: Failure` })),
            durationMs: 0,
          };
    },
  };
}
