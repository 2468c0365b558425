/**
 * @module delivery/post: one signed POST to an app's webhook events URL or interactions endpoint,
 * bounded: the URL policy (urlPolicy.ts) is applied before and during connection, redirects are
 * not followed (a 3xx is an answer like any other, and not a success), the whole exchange has a
 * deadline, and the response body is either never read (webhook events: only the status is
 * kept) or read up to a size limit (interactions, whose answer is in it).
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
  return exchange(post, limits, (res, finish, elapsed) => {
    finish({ status: res.statusCode ?? 0, error: null, durationMs: elapsed() });
    // Only the status matters: the body is dropped unread, with the connection.
    res.destroy();
  });
}

/** What came back from an app that answers in its response body (an interactions endpoint). */
export type AnsweredOutcome =
  | { status: number; contentType: string | null; body: Buffer; error: null; durationMs: number }
  | { status: null; error: string; durationMs: number };

/**
 * Sends the POST and reads the answer's body, at most `maxResponseBytes` of it (more is a
 * failure), within the same deadline as the exchange; never throws. `headers` replace the signed
 * ones (the endpoint check sends a forged signature, which a correct endpoint refuses).
 */
export function postSignedForAnswer(
  post: SignedPost & { headers?: Record<string, string> },
  limits: PostLimits & { maxResponseBytes: number },
): Promise<AnsweredOutcome> {
  return exchange<AnsweredOutcome>(post, limits, (res, finish, elapsed) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxResponseBytes) {
        finish({ status: null, error: 'response body too large', durationMs: elapsed() });
        res.destroy();
        return;
      }
      chunks.push(chunk);
    });
    res.on('end', () => {
      finish({
        status: res.statusCode ?? 0,
        contentType: res.headers['content-type'] ?? null,
        body: Buffer.concat(chunks),
        error: null,
        durationMs: elapsed(),
      });
    });
    res.on('error', (err) => {
      finish({ status: null, error: err.message, durationMs: elapsed() });
    });
  });
}

/**
 * One bounded POST: the URL policy before and during connection, no redirects (`agent: false`
 * and no following), a deadline over the whole exchange; `onResponse` settles it from the answer.
 */
function exchange<T extends { durationMs: number }>(
  post: SignedPost & { headers?: Record<string, string> },
  limits: PostLimits,
  onResponse: (
    res: IncomingMessage,
    finish: (outcome: T | { status: null; error: string; durationMs: number }) => void,
    elapsed: () => number,
  ) => void,
): Promise<T | { status: null; error: string; durationMs: number }> {
  type Outcome = T | { status: null; error: string; durationMs: number };
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
    const finish = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      resolve(outcome);
    };
    const req = send(url, {
      method: 'POST',
      agent: false,
      lookup: guardedLookup(limits.allowLocal),
      headers: {
        ...signedRequest(post),
        ...post.headers,
        'content-length': String(body.length),
      },
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
      onResponse(res, finish, elapsed);
    });
    req.on('error', (err) => {
      finish({ status: null, error: err.message, durationMs: elapsed() });
    });
    req.end(body);
  });
}
