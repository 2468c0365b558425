import type { Clock } from '../domain/clock.js';
import { hashSecret } from '../domain/credentials.js';
import type { Storage, TokenKind, UserRecord } from '../storage/index.js';
import { HOUR_MS } from '../domain/time.js';

/** Who is calling, once their token has been checked. */
export interface Principal {
  kind: TokenKind;
  user: UserRecord;
  /** The application a bot or OAuth2 token belongs to. */
  applicationId: string | null;
  /** OAuth2 scopes (empty for bot and session tokens). */
  scopes: readonly string[];
  tokenHash: string;
}

export interface AuthenticatorOptions {
  storage: Storage;
  clock: Clock;
  /** How long a verified token is trusted without reading the database again; 0 disables. */
  cacheTtlMs: number;
  /** The most tokens kept in the cache. */
  maxCachedTokens?: number;
  /**
   * How long a session token lives unused: each use moves its expiry to now + this, written at
   * most once per {@link SESSION_SLIDE_EVERY_MS}. A session token without an expiry (made before
   * expiry existed) gets one on its next use.
   */
  sessionTtlMs: number;
}

/** A session token's expiry is written again only when it would move by at least this. */
export const SESSION_SLIDE_EVERY_MS = HOUR_MS;

export interface Authenticator {
  /** Resolves an Authorization header to a principal, or null when it is missing or invalid. */
  authenticate(header: string | undefined): Promise<Principal | null>;
  /**
   * What authenticate would resolve to, when this node knows it without I/O (a cached token, or
   * a header that is missing or malformed); undefined when it would read the database.
   */
  authenticateCached(header: string | undefined): Principal | null | undefined;
  /** Forgets a token at once (after it is revoked). */
  forgetToken(tokenHash: string): void;
  /** Forgets every cached token of a user (after the user changes or is removed). */
  forgetUser(userId: string): void;
  /** Forgets every cached token (a server returned to a snapshot, control/reset.ts). */
  forgetAll(): void;
}

interface CacheEntry {
  principal: Principal;
  /** When the entry stops being trusted: the cache TTL or the token's own expiry. */
  validUntilMs: number;
}

/** Splits `Bot x`, `Bearer x` or a bare session token into its kind and secret. */
export function parseAuthorization(header: string): { kind: TokenKind; token: string } | null {
  const space = header.indexOf(' ');
  if (space === -1) return header.length > 0 ? { kind: 'session', token: header } : null;
  const scheme = header.slice(0, space).toLowerCase();
  const token = header.slice(space + 1).trim();
  if (token.length === 0) return null;
  if (scheme === 'bot') return { kind: 'bot', token };
  if (scheme === 'bearer') return { kind: 'bearer', token };
  return null;
}

/** The most tokens the cache keeps unless the options say otherwise. */
const DEFAULT_MAX_CACHED_TOKENS = 100_000;

/**
 * Verifies tokens by their SHA-256 hash, with a bounded in-process cache so a request costs one
 * hash and one map read, not a database round trip. A revocation reaches every node's cache
 * through the bus (events/revocations.ts) and calls forgetToken or forgetUser there; a lookup
 * that was reading the database while a revocation arrived answers but is not cached, so a
 * revoked token is never trusted from the cache after the revocation lands.
 */
export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const {
    storage,
    clock,
    cacheTtlMs,
    sessionTtlMs,
    maxCachedTokens = DEFAULT_MAX_CACHED_TOKENS,
  } = options;
  const cache = new Map<string, CacheEntry>();
  const hashesByUser = new Map<string, Set<string>>();
  // Bumped by every forget: a database read that a forget overtook is not cached.
  let generation = 0;

  const drop = (tokenHash: string) => {
    const entry = cache.get(tokenHash);
    if (entry === undefined) return;
    cache.delete(tokenHash);
    const hashes = hashesByUser.get(entry.principal.user.id);
    hashes?.delete(tokenHash);
    if (hashes?.size === 0) hashesByUser.delete(entry.principal.user.id);
  };

  const remember = (principal: Principal, expiresAt: number | null) => {
    if (cacheTtlMs <= 0) return;
    if (cache.size >= maxCachedTokens) {
      // Maps iterate in insertion order: drop the oldest entry.
      const oldest = cache.keys().next();
      if (oldest.done !== true) drop(oldest.value);
    }
    const ttlEnd = clock.now() + cacheTtlMs;
    cache.set(principal.tokenHash, {
      principal,
      validUntilMs: expiresAt === null ? ttlEnd : Math.min(ttlEnd, expiresAt),
    });
    const hashes = hashesByUser.get(principal.user.id) ?? new Set<string>();
    hashes.add(principal.tokenHash);
    hashesByUser.set(principal.user.id, hashes);
  };

  /**
   * The header parsed and hashed, with its principal when the cache answers (undefined: the
   * database must); null for a missing or malformed header.
   */
  const known = (header: string | undefined) => {
    if (header === undefined) return null;
    const parsed = parseAuthorization(header);
    if (parsed === null) return null;
    const tokenHash = hashSecret(parsed.token);
    const cached = cache.get(tokenHash);
    let principal: Principal | null | undefined;
    if (cached !== undefined) {
      if (cached.validUntilMs > clock.now()) {
        principal = cached.principal.kind === parsed.kind ? cached.principal : null;
      } else {
        drop(tokenHash);
      }
    }
    return { parsed, tokenHash, principal };
  };

  return {
    authenticateCached(header) {
      const cached = known(header);
      return cached === null ? null : cached.principal;
    },

    async authenticate(header) {
      const cached = known(header);
      if (cached === null) return null;
      if (cached.principal !== undefined) return cached.principal;
      const { parsed, tokenHash } = cached;
      const seen = generation;
      const record = await storage.tokens.findByHash(tokenHash);
      if (record?.kind !== parsed.kind) return null;
      const now = clock.now();
      if (record.expiresAt !== null && record.expiresAt <= now) return null;
      let expiresAt = record.expiresAt;
      if (
        record.kind === 'session' &&
        (expiresAt === null || now + sessionTtlMs - expiresAt >= SESSION_SLIDE_EVERY_MS)
      ) {
        expiresAt = now + sessionTtlMs;
        if (!(await storage.tokens.setExpiry(tokenHash, expiresAt))) return null;
      }
      const user = await storage.users.findById(record.userId);
      if (user === null) return null;
      const principal: Principal = {
        kind: record.kind,
        user,
        applicationId: record.applicationId,
        scopes: record.scopes,
        tokenHash,
      };
      if (generation === seen) remember(principal, expiresAt);
      return principal;
    },
    forgetToken(tokenHash) {
      generation++;
      drop(tokenHash);
    },
    forgetUser(userId) {
      generation++;
      for (const hash of [...(hashesByUser.get(userId) ?? [])]) drop(hash);
    },
    forgetAll() {
      generation++;
      for (const hash of [...cache.keys()]) drop(hash);
    },
  };
}
