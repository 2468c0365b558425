import { randomBytes } from 'node:crypto';
import { hashSecret } from '../domain/credentials.js';
import type { WebhookEventsService } from '../delivery/service.js';
import { webhookEventData } from '../delivery/webhookEvents.js';
import type { ServiceDeps } from '../resources/deps.js';
import type { GuildRecord, IntegrationType, Repositories, UserRecord } from '../storage/index.js';
import { OAuthError } from './errors.js';
import type { IdTokenKeys } from './keys.js';
import { banActive } from '../domain/bans.js';
import { SECOND_MS, DAY_SECONDS, unixSeconds } from '../domain/time.js';

/** Access tokens (and ID tokens) live 7 days (docs/platform-notes.md#oauth2). */
export const ACCESS_TOKEN_SECONDS = 7 * DAY_SECONDS;

export interface IssueTokensInput {
  /** The caller's transaction; without it the tokens are issued in a transaction of their own. */
  tx?: Repositories;
  userId: string;
  applicationId: string;
  /** Already validated and expanded (scopes.ts `expandScopes`). */
  scopes: readonly string[];
  /** Whether a refresh token is issued (not for client_credentials or child tokens). */
  refresh: boolean;
  /** Kept on the authorization; 1 (user install) unless given or already recorded. */
  integrationType?: IntegrationType;
  /** OpenID Connect: echoed in the ID token. */
  nonce?: string | null;
  /**
   * When the user authenticated (epoch ms), for the ID token's auth_time; left out when not
   * known (refresh and device grants), rather than claiming a fresh login.
   */
  authTime?: number;
  /** The authorization code the tokens are issued for (a reused code revokes them). */
  codeHash?: string;
  /**
   * The code, device and refresh grants: the user's consent must still stand (a live
   * authorization, which a revoke or ban ends) and the user must not be banned, else
   * invalid_grant. Without it (client credentials, partner SDK) the authorization is created or
   * revived.
   */
  requireConsent?: boolean;
}

/** The token endpoint's success body (RFC 6749 §5.1). */
export interface TokenResponse {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  id_token?: string;
}

export interface OAuthCoreDeps extends ServiceDeps {
  /** Where APPLICATION_AUTHORIZED and APPLICATION_DEAUTHORIZED are queued. */
  webhookEvents: Pick<WebhookEventsService, 'enqueue'>;
  keys: IdTokenKeys;
  /** The public base URL: the ID token issuer. */
  issuer: () => string;
}

const newOpaqueToken = () => randomBytes(32).toString('base64url');

/** The OpenID claims the granted scopes allow (ID tokens and /oauth2/userinfo). */
export interface ProfileClaims {
  sub: string;
  preferred_username?: string;
  name?: string;
  picture?: string;
  locale?: string;
  email?: string | null;
  email_verified?: boolean;
}

export function profileClaims(
  user: UserRecord,
  scopes: readonly string[],
  issuer: string,
): ProfileClaims {
  const claims: ProfileClaims = { sub: user.id };
  if (scopes.includes('identify')) {
    claims.preferred_username = user.username;
    claims.name = user.globalName ?? user.username;
    if (user.avatar !== null) claims.picture = `${issuer}/avatars/${user.id}/${user.avatar}.png`;
    claims.locale = user.locale;
  }
  if (scopes.includes('email')) {
    claims.email = user.email;
    claims.email_verified = user.verified;
  }
  return claims;
}

/**
 * The core of OAuth2: authorizations (one per user and application) and the tokens issued on
 * them. Other parts (partner SDK tokens, bans) issue and revoke through these functions.
 */
export function createOAuthCore(deps: OAuthCoreDeps) {
  const { storage, clock, ids, revocations, keys, issuer } = deps;
  const inTx = <T>(tx: Repositories | undefined, fn: (tx: Repositories) => Promise<T>) =>
    tx === undefined ? storage.transaction(fn) : fn(tx);

  const idToken = async (
    tx: Repositories,
    input: {
      user: UserRecord;
      applicationId: string;
      scopes: readonly string[];
      nonce?: string | null | undefined;
      authTime?: number | undefined;
    },
  ) => {
    const now = unixSeconds(clock.now());
    return keys.sign(
      {
        ...profileClaims(input.user, input.scopes, issuer()),
        iss: issuer(),
        aud: input.applicationId,
        iat: now,
        exp: now + ACCESS_TOKEN_SECONDS,
        ...(input.authTime === undefined ? {} : { auth_time: unixSeconds(input.authTime) }),
        ...(input.nonce == null ? {} : { nonce: input.nonce }),
      },
      tx,
    );
  };

  const issue = async (tx: Repositories, input: IssueTokensInput) => {
    const now = clock.now();
    const user = await tx.users.findById(input.userId);
    if (user === null) throw new Error(`user ${input.userId} vanished while issuing tokens`);
    const existing = await tx.oauth.lockAuthorization(input.userId, input.applicationId);
    if (input.requireConsent === true) {
      if (existing?.revokedAt !== null) {
        throw new OAuthError('invalid_grant', 'The authorization was revoked.');
      }
      if (banActive(await tx.provisional.findBan(input.userId), now)) {
        throw new OAuthError('invalid_grant', 'The account is banned.');
      }
    }
    const kept = existing !== null && existing.revokedAt === null ? existing.scopes : [];
    const authorization = await tx.oauth.upsertAuthorization({
      id: existing?.id ?? ids(),
      userId: input.userId,
      applicationId: input.applicationId,
      scopes: [...new Set([...kept, ...input.scopes])].sort(),
      integrationType: input.integrationType ?? existing?.integrationType ?? 1,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    });
    const scopes = [...input.scopes];
    const accessToken = newOpaqueToken();
    const accessHash = hashSecret(accessToken);
    const expiresAt = now + ACCESS_TOKEN_SECONDS * SECOND_MS;
    await tx.tokens.create({
      hash: accessHash,
      kind: 'bearer',
      userId: input.userId,
      applicationId: input.applicationId,
      scopes,
      createdAt: now,
      expiresAt,
    });
    const link = { authorizationId: authorization.id, scopes, createdAt: now };
    const codeHash = input.codeHash ?? null;
    await tx.oauth.createToken({ ...link, hash: accessHash, kind: 'access', expiresAt, codeHash });
    const body: TokenResponse = {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      scope: scopes.join(' '),
    };
    if (input.refresh) {
      const refreshToken = newOpaqueToken();
      await tx.oauth.createToken({
        ...link,
        hash: hashSecret(refreshToken),
        kind: 'refresh',
        expiresAt: null,
        codeHash,
      });
      body.refresh_token = refreshToken;
    }
    if (scopes.includes('openid')) {
      body.id_token = await idToken(tx, {
        user,
        applicationId: input.applicationId,
        scopes,
        nonce: input.nonce,
        authTime: input.authTime,
      });
    }
    return { body, authorizationId: authorization.id };
  };

  const revoke = async (
    tx: Repositories,
    input: { userId: string; applicationId: string },
  ): Promise<{ revoked: boolean }> => {
    const authorization = await tx.oauth.lockAuthorization(input.userId, input.applicationId);
    // Codes and device codes not yet redeemed die with the authorization (they cannot revive it).
    await tx.oauth.deleteGrantsInFlight(input.userId, input.applicationId);
    if (authorization === null) return { revoked: false };
    const hashes = await tx.oauth.deleteTokensOf(authorization.id);
    revocations.revoke(tx, { tokenHashes: hashes });
    if (authorization.revokedAt !== null) return { revoked: false };
    await tx.oauth.markRevoked(authorization.id, clock.now());
    const user = await tx.users.findById(input.userId);
    if (user !== null) {
      await deps.webhookEvents.enqueue(tx, {
        type: 'APPLICATION_DEAUTHORIZED',
        applicationId: input.applicationId,
        data: await webhookEventData.APPLICATION_DEAUTHORIZED(tx, { user }),
      });
    }
    return { revoked: true };
  };

  /**
   * Records a user's grant (consent page, device approval): the (user, app) authorization gains
   * the scopes, and a new or widened grant enqueues APPLICATION_AUTHORIZED in the same transaction.
   */
  const recordAuthorization = async (
    tx: Repositories,
    input: {
      user: UserRecord;
      applicationId: string;
      scopes: readonly string[];
      integrationType: IntegrationType;
      guild?: GuildRecord | null;
    },
  ) => {
    const now = clock.now();
    const existing = await tx.oauth.findAuthorization(input.user.id, input.applicationId);
    const live = existing !== null && existing.revokedAt === null ? existing.scopes : [];
    const scopes = [...new Set([...live, ...input.scopes])].sort();
    await tx.oauth.upsertAuthorization({
      id: existing?.id ?? ids(),
      userId: input.user.id,
      applicationId: input.applicationId,
      scopes,
      integrationType: input.integrationType,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    });
    if (scopes.length === live.length) return;
    await deps.webhookEvents.enqueue(tx, {
      applicationId: input.applicationId,
      type: 'APPLICATION_AUTHORIZED',
      data: await webhookEventData.APPLICATION_AUTHORIZED(tx, {
        user: input.user,
        scopes: input.scopes,
        integrationType: input.integrationType,
        ...(input.guild == null ? {} : { guild: input.guild }),
      }),
    });
  };

  return {
    idToken,
    recordAuthorization,

    /** Issues an access token (and a refresh token, and an ID token for `openid`). */
    async issueTokens(input: IssueTokensInput): Promise<TokenResponse> {
      return (await inTx(input.tx, (tx) => issue(tx, input))).body;
    },

    /** As issueTokens, with the id of the authorization the tokens belong to. */
    issueTokensWithAuthorization: (input: IssueTokensInput) =>
      inTx(input.tx, (tx) => issue(tx, input)),

    /**
     * Ends a user's authorization of an application: every access and refresh token is deleted
     * (a later refresh gets invalid_grant) and APPLICATION_DEAUTHORIZED is enqueued in the same
     * transaction. Returns false when there was no live authorization.
     */
    async revokeAuthorization(input: {
      tx?: Repositories;
      userId: string;
      applicationId: string;
    }): Promise<boolean> {
      const result = await inTx(input.tx, (tx) => revoke(tx, input));
      return result.revoked;
    },

    /** Revokes every authorization of a user (a ban); returns how many were live. */
    async revokeAllForUser(input: { tx?: Repositories; userId: string }): Promise<number> {
      const results = await inTx(input.tx, async (tx) => {
        const all = await tx.oauth.listAuthorizationsForUser(input.userId);
        const out = [];
        for (const a of all)
          out.push(await revoke(tx, { ...input, applicationId: a.applicationId }));
        return out;
      });
      return results.filter((r) => r.revoked).length;
    },

    /** Revokes what was issued for an authorization code that is being reused (RFC 6749 §4.1.2). */
    async revokeIssuedForCode(codeHash: string): Promise<void> {
      await storage.transaction(async (tx) => {
        for (const authorizationId of await tx.oauth.authorizationsOfCode(codeHash)) {
          const authorization = await tx.oauth.findAuthorizationById(authorizationId);
          if (authorization !== null) await revoke(tx, authorization);
        }
      });
    },
  };
}

export type OAuthCore = ReturnType<typeof createOAuthCore>;
