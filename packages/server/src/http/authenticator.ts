import type { Clock } from '../domain/clock.js';
import { hashSecret } from '../domain/credentials.js';
import type { Storage, TokenKind, UserRecord } from '../storage/index.js';

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
}

export interface Authenticator {
  /** Resolves an Authorization header to a principal, or null when it is missing or invalid. */
  authenticate(header: string | undefined): Promise<Principal | null>;
  /** Forgets a token at once (after it is revoked). */
  forgetToken(tokenHash: string): void;
  /** Forgets every cached token of a user (after the user changes or is removed). */
  forgetUser(userId: string): void;
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

/**
 * Verifies tokens by their SHA-256 hash, with a bounded in-process cache so a request costs one
 * hash and one map read, not a database round trip. Revocation through this node forgets the
 * token at once; on other nodes a revoked token is trusted for at most `cacheTtlMs`.
 */
export function createAuthenticator(options: AuthenticatorOptions): Authenticator {
  const { storage, clock, cacheTtlMs, maxCachedTokens = 100_000 } = options;
  const cache = new Map<string, CacheEntry>();
  const hashesByUser = new Map<string, Set<string>>();

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

  return {
    async authenticate(header) {
      if (header === undefined) return null;
      const parsed = parseAuthorization(header);
      if (parsed === null) return null;
      const tokenHash = hashSecret(parsed.token);
      const cached = cache.get(tokenHash);
      if (cached !== undefined) {
        if (cached.validUntilMs > clock.now()) {
          return cached.principal.kind === parsed.kind ? cached.principal : null;
        }
        drop(tokenHash);
      }
      const record = await storage.tokens.findByHash(tokenHash);
      if (record?.kind !== parsed.kind) return null;
      if (record.expiresAt !== null && record.expiresAt <= clock.now()) return null;
      const user = await storage.users.findById(record.userId);
      if (user === null) return null;
      const principal: Principal = {
        kind: record.kind,
        user,
        applicationId: record.applicationId,
        scopes: record.scopes,
        tokenHash,
      };
      remember(principal, record.expiresAt);
      return principal;
    },
    forgetToken: drop,
    forgetUser(userId) {
      for (const hash of [...(hashesByUser.get(userId) ?? [])]) drop(hash);
    },
  };
}
