/**
 * @module delivery/post: one signed POST to an app's webhook events URL, bounded: the URL policy
 * (urlPolicy.ts) is applied before and during connection, redirects are not followed (a 3xx is an
 * answer like any other, and not a success), the whole exchange has a deadline, and the response
 * body is never read (only its status is kept), so its size cannot matter.
 */
import { sign, createPrivateKey } from 'node:crypto';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { guardedLookup, webhookUrlProblem } from './urlPolicy.js';

export interface SignedPost {
  url: string;
  /** The app's Ed25519 private key: PKCS#8 DER, base64 (ApplicationRecord.signingKey, opened). */
  signingKey: string;
  /** Unix seconds, as sent in X-Signature-Timestamp. */
  timestamp: number;
  body: string;
}

export interface PostLimits {
  timeoutMs: number;
  allowLocal: boolean;
}

/** What came of a POST: the app's HTTP status, or why there was none; and how long it took. */
export type PostOutcome =
  | { status: number; error: null; durationMs: number }
  | { status: null; error: string; durationMs: number };

/**
 * The Ed25519 signature (hex) of `timestamp + body`, as the platform signs interactions and
 * webhook events, so that discord-interactions' verifyKey(body, signature, timestamp, key) holds.
 */
export function signPayload(signingKey: string, timestamp: number, body: string): string {
  const key = createPrivateKey({
    key: Buffer.from(signingKey, 'base64'),
    format: 'der',
    type: 'pkcs8',
  });
  return sign(null, Buffer.from(`${String(timestamp)}${body}`), key).toString('hex');
}

/** The signed headers and body of a webhook POST. */
export function signedRequest(post: SignedPost) {
  return {
    'content-type': 'application/json',
    'user-agent': 'Guildhall-Webhooks/1.0',
    'x-signature-ed25519': signPayload(post.signingKey, post.timestamp, post.body),
    'x-signature-timestamp': String(post.timestamp),
  };
}

/** Sends the POST; never throws (every failure is an outcome). */
export function postSigned(post: SignedPost, limits: PostLimits): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const problem = webhookUrlProblem(post.url, limits.allowLocal);
  if (problem !== null) {
    return Promise.resolve({ status: null, error: `URL refused: ${problem}`, durationMs: 0 });
  }
  const url = new URL(post.url);
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  const body = Buffer.from(post.body);
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: PostOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(outcome);
    };
    const req = send(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(limits.allowLocal),
      headers: { ...signedRequest(post), 'content-length': String(body.length) },
    });
    const deadline = setTimeout(() => {
      finish({
        status: null,
        error: `timed out after ${String(limits.timeoutMs)} ms`,
        durationMs: elapsed(),
      });
      req.destroy();
    }, limits.timeoutMs);
    req.on('response', (res: IncomingMessage) => {
      finish({ status: res.statusCode ?? 0, error: null, durationMs: elapsed() });
      // Only the status matters: the body is dropped unread, with the connection.
      res.destroy();
    });
    req.on('error', (err) => {
      finish({ status: null, error: err.message, durationMs: elapsed() });
    });
    req.end(body);
  });
}
