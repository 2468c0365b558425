/** Credentials: bot, session and bearer tokens, kept as hashes. */

export const TokenKinds = { BOT: 'bot', SESSION: 'session', BEARER: 'bearer' } as const;
export type TokenKind = (typeof TokenKinds)[keyof typeof TokenKinds];

/** A credential. Only its SHA-256 hash is ever stored. */
export interface TokenRecord {
  hash: string;
  kind: TokenKind;
  userId: string;
  applicationId: string | null;
  scopes: string[];
  createdAt: number;
  expiresAt: number | null;
}

export interface TokenRepository {
  create(token: TokenRecord): Promise<void>;
  findByHash(hash: string): Promise<TokenRecord | null>;
  /** Deletes one token; returns whether it existed. */
  delete(hash: string): Promise<boolean>;
  /** Deletes every token of a kind for a user (and application, when given); returns their hashes. */
  deleteFor(filter: { userId: string; kind: TokenKind; applicationId?: string }): Promise<string[]>;
  /** Moves a token's expiry (a session token slides as it is used); returns whether it exists. */
  setExpiry(hash: string, expiresAt: number): Promise<boolean>;
  /** Deletes up to `limit` tokens expired by `now` (the authenticator refuses them already). */
  deleteExpired(now: number, limit: number): Promise<number>;
}

/** A one-time login link (migration 0027): the SHA-256 of its code, and whom it logs in. */
export interface LoginLinkRecord {
  hash: string;
  userId: string;
  createdAt: number;
  expiresAt: number;
}

export interface LoginLinkRepository {
  /**
   * Stores a link in place of the person's earlier unused one, in one statement (migration
   * 0036: one row per person), so of links made at once one stays live; and drops every link
   * that has expired by its `createdAt`.
   */
  create(link: LoginLinkRecord): Promise<void>;
  /**
   * Uses a link: deletes it in the same statement that reads it, so of two uses at once only one
   * gets its user. Returns the user id when the link existed and had not expired at `at`, else
   * null (unknown, already used, or expired).
   */
  consume(hash: string, at: number): Promise<string | null>;
  /** Deletes up to `limit` links expired by `now`; returns how many. */
  deleteExpired(now: number, limit: number): Promise<number>;
}
