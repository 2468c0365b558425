/**
 * @module activities/proxyTicket: the proxy ticket, what proves to an activity's backend who a
 * request through the proxy host comes from (docs/activities.md#proxy-authentication).
 *
 * The platform's proxy authentication: a request through the proxy may carry
 * `X-Discord-Proxy-Payload` (a base64 JSON payload with the person, `created_at` and
 * `expires_at`), `X-Signature-Timestamp` (the payload's `created_at`) and `X-Signature-Ed25519`
 * (the payload's signature by the application's key, which the backend checks with the app's
 * public key). Here the ticket is that payload and signature, made once when the client asks
 * (`POST /applications/{id}/proxy-tickets`, REQUEST_PROXY_TICKET_REFRESH) and carried by the
 * frame's address (`?discord_proxy_ticket=`); the proxy host checks it and sends the headers.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { isSnowflake } from '@guildhall/protocol';

/** The query parameter that carries a ticket, on the frame's address or a request's. */
export const PROXY_TICKET_PARAM = 'discord_proxy_ticket';
/** How long a ticket is good for, in seconds (then the activity asks for another). */
export const PROXY_TICKET_TTL_S = 60 * 60;
/** The longest ticket read; a real one is about 330 characters. */
const MAX_TICKET_CHARS = 1024;
const SIGNATURE_BYTES = 64;

/** The headers the proxy host adds to a request that carries a good ticket. */
export const PROXY_AUTH_HEADERS = [
  'x-discord-proxy-payload',
  'x-signature-ed25519',
  'x-signature-timestamp',
] as const;

/** What a ticket says: whose it is, for which app, and when it was made and ends (Unix s). */
export interface ProxyTicketPayload {
  application_id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

/** A ticket taken apart: the payload's bytes as signed, the signature, and what they say. */
export interface ReadTicket {
  bytes: Buffer;
  signature: Buffer;
  payload: ProxyTicketPayload;
}

/** Signs a payload with the app's key (PKCS#8 DER, base64): `<payload>.<signature>`, base64url. */
export function signProxyTicket(payload: ProxyTicketPayload, signingKey: string): string {
  const key = createPrivateKey({
    key: Buffer.from(signingKey, 'base64'),
    format: 'der',
    type: 'pkcs8',
  });
  const bytes = Buffer.from(
    JSON.stringify({
      application_id: payload.application_id,
      user_id: payload.user_id,
      created_at: payload.created_at,
      expires_at: payload.expires_at,
    }),
  );
  return `${bytes.toString('base64url')}.${sign(null, bytes, key).toString('base64url')}`;
}

function isSeconds(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** The ticket's parts and payload, or null when it is not one (never throws). */
export function readProxyTicket(ticket: string): ReadTicket | null {
  if (ticket.length > MAX_TICKET_CHARS) return null;
  const dot = ticket.indexOf('.');
  if (dot <= 0 || ticket.includes('.', dot + 1)) return null;
  const bytes = Buffer.from(ticket.slice(0, dot), 'base64url');
  const signature = Buffer.from(ticket.slice(dot + 1), 'base64url');
  if (signature.length !== SIGNATURE_BYTES) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const p = parsed as Record<string, unknown>;
  const appId = p['application_id'];
  const userId = p['user_id'];
  const createdAt = p['created_at'];
  const expiresAt = p['expires_at'];
  if (typeof appId !== 'string' || !isSnowflake(appId)) return null;
  if (typeof userId !== 'string' || !isSnowflake(userId)) return null;
  if (!isSeconds(createdAt) || !isSeconds(expiresAt)) return null;
  return {
    bytes,
    signature,
    payload: {
      application_id: appId,
      user_id: userId,
      created_at: createdAt,
      expires_at: expiresAt,
    },
  };
}

/** An application's public key (its `verify_key`, 64 hex digits) as a key to verify with. */
export function verifyKeyObject(verifyKeyHex: string): KeyObject {
  return createPublicKey({
    key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(verifyKeyHex, 'hex').toString('base64url') },
    format: 'jwk',
  });
}

/** Whether the app's key signed the ticket. */
export function ticketSignedBy(ticket: ReadTicket, key: KeyObject): boolean {
  return verify(null, ticket.bytes, key, ticket.signature);
}

/**
 * The three headers of proxy authentication for a checked ticket. The payload and signature are
 * standard base64, as the platform's example reads them (`Buffer.from(signature, "base64")`).
 */
export function proxyAuthHeaders(ticket: ReadTicket): Record<string, string> {
  return {
    'x-discord-proxy-payload': ticket.bytes.toString('base64'),
    'x-signature-ed25519': ticket.signature.toString('base64'),
    'x-signature-timestamp': String(ticket.payload.created_at),
  };
}
