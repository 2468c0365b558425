/**
 * @module activities/proxyAuth: the proxy host's side of proxy authentication
 * (docs/activities.md#proxy-authentication). A request on an activity origin carries a ticket
 * (proxyTicket.ts) in its own query or in its Referer, which is the activity's page on the same
 * origin (the client frames it with `?discord_proxy_ticket=`, and the activity origin's
 * `Referrer-Policy: same-origin` keeps the page's address on its own requests). A ticket the
 * application's key signed, for that application, becomes the three signed headers; any other
 * is ignored, and the browser's own copies of those headers are never forwarded
 * (proxyHeaders.ts). Expired tickets are forwarded as signed: the backend checks `expires_at`,
 * and its 401 is what tells the activity to ask for a new one.
 *
 * Checking a signature costs about as much as forwarding a small request, so a checked ticket's
 * headers are held (a page's requests all carry the same one); the applications' public keys
 * are held as their URL mappings are (mappingCache.ts).
 */
import type { KeyObject } from 'node:crypto';
import type { Clock } from '../domain/clock.js';
import { createMappingCache } from './mappingCache.js';
import {
  PROXY_TICKET_PARAM,
  proxyAuthHeaders,
  readProxyTicket,
  type ReadTicket,
  ticketSignedBy,
  verifyKeyObject,
} from './proxyTicket.js';

/** Where the applications' public keys come from (`storage.applications`). */
export interface VerifyKeySource {
  /** The app's `verify_key` (hex), or null when there is no such app. */
  verifyKey(applicationId: string): Promise<string | null>;
}

/** How many checked tickets are held (the oldest goes first). */
const HELD_TICKETS = 4096;
const MARKER = `${PROXY_TICKET_PARAM}=`;

/** The ticket in a URL's query, or null (quick when the query does not name one). */
function ticketInUrl(url: string): string | null {
  const query = url.indexOf('?');
  if (query === -1 || !url.includes(MARKER, query)) return null;
  return new URLSearchParams(url.slice(query + 1)).get(PROXY_TICKET_PARAM);
}

/**
 * The ticket a request carries: in its own query, else in its Referer when that is a page of
 * the same activity origin (a ticket another site's page names is not taken).
 */
export function ticketOf(
  url: string,
  referer: string | undefined,
  activityOrigin: string,
): string | null {
  const own = ticketInUrl(url);
  if (own !== null) return own;
  if (referer?.startsWith(`${activityOrigin}/`) !== true) return null;
  return ticketInUrl(referer);
}

export type AuthHeaders = Record<string, string> | null;

export interface ProxyAuthenticator {
  /**
   * The signed headers for a request to `applicationId` with `ticket`, or null when the ticket
   * is not a good one for it: at once when the key and the ticket are held, else after the key
   * is read (a failed read rejects).
   */
  headersFor(applicationId: string, ticket: string): AuthHeaders | Promise<AuthHeaders>;
  /** Forgets every held key (the database returned to a snapshot). */
  forgetAll(): void;
}

export function createProxyAuthenticator(options: {
  keys: VerifyKeySource;
  clock: Pick<Clock, 'now'>;
}): ProxyAuthenticator {
  const keys = createMappingCache<KeyObject | null>({
    read: async (applicationId) => {
      const hex = await options.keys.verifyKey(applicationId);
      return hex === null ? null : verifyKeyObject(hex);
    },
    clock: options.clock,
  });
  // Checked tickets by their text: the app they are good for and their headers.
  const held = new Map<string, { applicationId: string; headers: AuthHeaders }>();

  const hold = (ticket: string, applicationId: string, headers: AuthHeaders) => {
    if (held.size >= HELD_TICKETS) {
      const oldest = held.keys().next();
      if (oldest.done !== true) held.delete(oldest.value);
    }
    held.set(ticket, { applicationId, headers });
  };

  /** Checks a ticket with its app's key; a signature checked is held, good or not. */
  const check = (ticket: string, read: ReadTicket, key: KeyObject | null) => {
    if (key === null) return null;
    const headers = ticketSignedBy(read, key) ? proxyAuthHeaders(read) : null;
    hold(ticket, read.payload.application_id, headers);
    return headers;
  };

  return {
    headersFor(applicationId, ticket) {
      const known = held.get(ticket);
      if (known !== undefined) return known.applicationId === applicationId ? known.headers : null;
      const read = readProxyTicket(ticket);
      // Not a ticket, or another app's: nothing to check a signature for.
      if (read?.payload.application_id !== applicationId) return null;
      const key = keys.cached(applicationId);
      if (key !== undefined) return check(ticket, read, key);
      return keys.get(applicationId).then((got) => check(ticket, read, got));
    },
    forgetAll() {
      keys.forgetAll();
      held.clear();
    },
  };
}
