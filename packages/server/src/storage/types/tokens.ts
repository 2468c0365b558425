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
}
