import { randomBytes, randomInt } from 'node:crypto';
import { hashSecret } from '../domain/credentials.js';
import {
  EXTERNAL_AUTH_TYPES,
  type ApplicationRecord,
  type ExternalAuthType,
  type OAuthCodeRecord,
  type Repositories,
  type UserRecord,
} from '../storage/index.js';
import { s256 } from './authorize.js';
import { authenticateClient, readClientCredentials } from './clients.js';
import { MAX_ECHOED_LENGTH, OAuthError } from './errors.js';
import type { OAuthParams } from './params.js';
import {
  CODE_GRANTS,
  REFRESHABLE_GRANTS,
  grantScopeRefusal,
  type ScopeGrant,
} from './scopeGrants.js';
import { scopeRefusal, expandScopes, parseScopes } from './scopes.js';
import type { OAuthCore, OAuthCoreDeps, TokenResponse } from './service.js';
import { SECOND_MS } from '../domain/time.js';
import { MAX_EXTERNAL_AUTH_TOKEN_LENGTH } from './provisional/schemas.js';

export const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** Device codes live 5 minutes and are polled every 5 seconds (docs/platform-notes.md#oauth2). */
export const DEVICE_CODE_SECONDS = 300;
export const DEVICE_POLL_SECONDS = 5;
const USER_CODE_ALPHABET = 'BCDFGHJKLMNPQRSTVWXZ';
const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/**
 * What the provisional-accounts part adds to the grants (oauth/provisional/): the merge extension
 * of the authorization_code and device_code grants, and the deprecation of OIDC refreshes.
 */
export interface ProvisionalHooks {
  mergeProvisional(
    tx: Repositories,
    input: {
      applicationId: string;
      userId: string;
      credential: { type: ExternalAuthType; token: string };
    },
  ): Promise<unknown>;
  isOidcProvisional(
    repos: Repositories,
    input: { userId: string; applicationId: string },
  ): Promise<boolean>;
}

/** A token endpoint answer: the body and any extra headers (Deprecation). */
export interface TokenAnswer {
  body: TokenResponse;
  headers: Record<string, string>;
}

/** The merge credential of a grant request, if it carries one. */
function mergeCredential(params: OAuthParams): { type: ExternalAuthType; token: string } | null {
  const type = params.external_auth_type;
  const token = params.external_auth_token;
  if (type === undefined && token === undefined) return null;
  const known = EXTERNAL_AUTH_TYPES.find((t) => t === type);
  if (
    known === undefined ||
    token === undefined ||
    token === '' ||
    token.length > MAX_EXTERNAL_AUTH_TOKEN_LENGTH
  ) {
    throw new OAuthError(
      'invalid_request',
      'external_auth_type and external_auth_token are invalid.',
    );
  }
  return { type: known, token };
}

/** Throws invalid_scope when one of `scopes` may not be carried by any of `grants`. */
function requireGrantable(scopes: readonly string[], grants: readonly ScopeGrant[]): void {
  const refusal = grantScopeRefusal(scopes, grants);
  if (refusal !== null) throw refusal;
}

/** A request to one of the client-authenticated endpoints. */
export interface ClientRequest {
  authorization: string | undefined;
  body: OAuthParams;
}

function required(params: OAuthParams, name: keyof OAuthParams): string {
  const value = params[name];
  if (value === undefined || value === '') {
    throw new OAuthError('invalid_request', `${name} is required.`);
  }
  return value;
}

function userCode(): string {
  let code = '';
  for (let i = 0; i < 8; i++)
    code += USER_CODE_ALPHABET.charAt(randomInt(USER_CODE_ALPHABET.length));
  return `${code.slice(0, 4)}-${code.slice(4)}`;
}

/** Normalises what a person types: case and the dash do not matter. */
export function normaliseUserCode(input: string): string {
  const letters = input.toUpperCase().replace(/[^A-Z]/g, '');
  return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
}

/** The device grant is for the applications whose owner turned it on (`device_flow_enabled`). */
function requireDeviceFlow(application: ApplicationRecord): void {
  if (!application.deviceFlowEnabled) {
    throw new OAuthError(
      'unauthorized_client',
      'The device flow is not enabled for this application.',
    );
  }
}

/** The token endpoint's grants, device authorization and revocation. */
export function createGrants(deps: OAuthCoreDeps & { core: OAuthCore }) {
  const { storage, clock, core, issuer } = deps;

  /** Issues a grant's tokens, merging a provisional account first when the request asks to. */
  const issueAfterMerge = (input: {
    tx?: Repositories;
    params: OAuthParams;
    hooks: ProvisionalHooks | null;
    issue: Omit<Parameters<OAuthCore['issueTokens']>[0], 'tx'>;
  }): Promise<TokenResponse> => {
    const credential = mergeCredential(input.params);
    const run = async (tx: Repositories) => {
      if (credential !== null) {
        if (input.hooks === null) {
          throw new OAuthError('invalid_request', 'Account merging is not available.');
        }
        await input.hooks.mergeProvisional(tx, {
          applicationId: input.issue.applicationId,
          userId: input.issue.userId,
          credential,
        });
      }
      return core.issueTokens({ ...input.issue, tx });
    };
    return input.tx === undefined ? storage.transaction(run) : run(input.tx);
  };

  const authorizationCode = async (
    client: { application: { id: string }; confidential: boolean },
    params: OAuthParams,
    hooks: ProvisionalHooks | null,
  ): Promise<TokenResponse> => {
    const { application } = client;
    const code = required(params, 'code');
    const codeHash = hashSecret(code);
    // Consume and issue in one transaction: a refused request leaves the code unused, and a
    // racing second use waits for the first to commit, so its revocation sees the tokens.
    const outcome = await storage.transaction(async (tx) => {
      const record = await tx.oauth.consumeCode(codeHash, {
        at: clock.now(),
        applicationId: application.id,
      });
      if (record === null) throw new OAuthError('invalid_grant', 'Invalid authorization code.');
      if (record.usedAt !== null) return null;
      return redeemCode({ tx, client, params, hooks, record, codeHash });
    });
    if (outcome === null) {
      // A replayed code may be stolen: what it bought is revoked (RFC 6749 §4.1.2).
      await core.revokeIssuedForCode(codeHash);
      throw new OAuthError('invalid_grant', 'The authorization code was already used.');
    }
    return outcome;
  };

  const redeemCode = async (input: {
    tx: Repositories;
    client: { application: { id: string }; confidential: boolean };
    params: OAuthParams;
    hooks: ProvisionalHooks | null;
    record: OAuthCodeRecord;
    codeHash: string;
  }): Promise<TokenResponse> => {
    const { client, params, record } = input;
    if (record.expiresAt <= clock.now()) {
      throw new OAuthError('invalid_grant', 'The authorization code has expired.');
    }
    // RFC 6749 §4.1.3: the same redirect_uri when the authorize request had one. A local code
    // (an activity's or an RPC app's) had none, and ignores one given here (discord-rpc's login
    // sends the string "undefined").
    if (record.redirectUri !== null && params.redirect_uri !== record.redirectUri) {
      throw new OAuthError('invalid_grant', 'redirect_uri does not match the authorize request.');
    }
    if (record.codeChallenge === null && !client.confidential) {
      // A public client proves itself only with PKCE.
      throw new OAuthError('invalid_grant', 'This code was issued without a code_challenge.');
    }
    if (record.codeChallenge !== null) {
      const verifier = params.code_verifier;
      if (verifier === undefined)
        throw new OAuthError('invalid_grant', 'code_verifier is required.');
      if (!PKCE_VERIFIER.test(verifier) || s256(verifier) !== record.codeChallenge) {
        throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge.');
      }
    }
    // Checked when the code was asked for; again here, so a code issued under other rules
    // buys nothing the table no longer allows.
    requireGrantable(record.scopes, CODE_GRANTS);
    return issueAfterMerge({
      tx: input.tx,
      params,
      hooks: input.hooks,
      issue: {
        userId: record.userId,
        applicationId: client.application.id,
        scopes: record.scopes,
        refresh: true,
        nonce: record.nonce,
        authTime: record.authTime,
        codeHash: input.codeHash,
        requireConsent: true,
      },
    });
  };

  const refreshToken = async (
    application: { id: string },
    params: OAuthParams,
  ): Promise<{ body: TokenResponse; userId: string; applicationId: string }> => {
    const token = required(params, 'refresh_token');
    const hash = hashSecret(token);
    return storage.transaction(async (tx) => {
      const record = await tx.oauth.findToken(hash);
      const found =
        record?.kind === 'refresh'
          ? await tx.oauth.findAuthorizationById(record.authorizationId)
          : null;
      // Lock the authorization before touching its tokens, as revoke does (no interleaving, no
      // deadlock): a revoke that commits first is seen here, one that comes later sees our tokens.
      const authorization =
        found === null ? null : await tx.oauth.lockAuthorization(found.userId, found.applicationId);
      if (
        record === null ||
        authorization?.applicationId !== application.id ||
        authorization.revokedAt !== null
      ) {
        throw new OAuthError('invalid_grant', 'Invalid refresh token.');
      }
      // Rotation: the old refresh token stops working; of two racing refreshes one wins.
      if (!(await tx.oauth.deleteToken(hash))) {
        throw new OAuthError('invalid_grant', 'Invalid refresh token.');
      }
      let scopes = record.scopes;
      if (params.scope !== undefined) {
        const asked = expandScopes(parseScopes(params.scope));
        if (!asked.every((scope) => record.scopes.includes(scope))) {
          throw new OAuthError('invalid_scope', 'A refresh cannot widen the granted scopes.');
        }
        scopes = asked;
      }
      // Only what a person's grant may carry is refreshed (never an owner-only scope).
      requireGrantable(scopes, REFRESHABLE_GRANTS);
      const body = await core.issueTokens({
        tx,
        userId: authorization.userId,
        applicationId: application.id,
        scopes,
        refresh: true,
        requireConsent: true,
      });
      return { body, userId: authorization.userId, applicationId: application.id };
    });
  };

  const clientCredentials = async (
    application: { id: string; ownerId: string },
    params: OAuthParams,
  ): Promise<TokenResponse> => {
    const scopes = parseScopes(params.scope ?? 'identify');
    requireGrantable(scopes, ['client_credentials']);
    return core.issueTokens({
      userId: application.ownerId,
      applicationId: application.id,
      scopes,
      refresh: false,
    });
  };

  const deviceCode = async (
    application: { id: string },
    params: OAuthParams,
    hooks: ProvisionalHooks | null,
  ): Promise<TokenResponse> => {
    const hash = hashSecret(required(params, 'device_code'));
    const now = clock.now();
    const record = await storage.oauth.findDeviceCode(hash);
    if (record?.applicationId !== application.id) {
      throw new OAuthError('invalid_grant', 'Invalid device code.');
    }
    if (record.status === 'used') throw new OAuthError('invalid_grant', 'Invalid device code.');
    if (record.expiresAt <= now) {
      throw new OAuthError('expired_token', 'The device code has expired.');
    }
    if (record.status === 'denied') {
      throw new OAuthError('access_denied', 'The user denied the request.', { status: 400 });
    }
    if (record.status === 'pending') {
      const early =
        record.lastPolledAt !== null &&
        now - record.lastPolledAt < record.intervalSeconds * SECOND_MS;
      await storage.oauth.updateDeviceCode(hash, { lastPolledAt: now });
      if (early) throw new OAuthError('slow_down', 'Polling too fast; wait the interval.');
      throw new OAuthError('authorization_pending', 'The user has not answered yet.');
    }
    const userId = record.userId;
    if (userId === null) throw new OAuthError('invalid_grant', 'Invalid device code.');
    requireGrantable(record.scopes, ['device']);
    return storage.transaction(async (tx) => {
      // approved → used at most once, decided by the conditional UPDATE's row count.
      if (!(await tx.oauth.markDeviceCodeUsed(hash))) {
        throw new OAuthError('invalid_grant', 'Invalid device code.');
      }
      return issueAfterMerge({
        tx,
        params,
        hooks,
        issue: {
          userId,
          applicationId: application.id,
          scopes: record.scopes,
          refresh: true,
          requireConsent: true,
        },
      });
    });
  };

  return {
    /** POST /oauth2/token. */
    async token(request: ClientRequest, hooks: ProvisionalHooks | null): Promise<TokenAnswer> {
      const grantType = required(request.body, 'grant_type');
      const credentials = readClientCredentials(request.authorization, request.body);
      const publicAllowed =
        grantType === 'authorization_code'
          ? request.body.code_verifier !== undefined
          : grantType === DEVICE_CODE_GRANT || grantType === 'refresh_token';
      // Unknown grant types are refused before the client is even looked at.
      if (
        !['authorization_code', 'refresh_token', 'client_credentials', DEVICE_CODE_GRANT].includes(
          grantType,
        )
      ) {
        throw new OAuthError(
          'unsupported_grant_type',
          `Unsupported grant_type: ${grantType.slice(0, MAX_ECHOED_LENGTH)}.`,
        );
      }
      const { application, confidential } = await authenticateClient(storage, credentials, {
        publicAllowed,
      });
      if (grantType === DEVICE_CODE_GRANT) requireDeviceFlow(application);
      const headers: Record<string, string> = {};
      let body: TokenResponse;
      switch (grantType) {
        case 'authorization_code':
          body = await authorizationCode({ application, confidential }, request.body, hooks);
          break;
        case 'refresh_token': {
          const refreshed = await refreshToken(application, request.body);
          body = refreshed.body;
          // The OIDC refresh of provisional accounts keeps working but is deprecated (spec).
          if (hooks !== null && (await hooks.isOidcProvisional(storage, refreshed))) {
            headers['deprecation'] = 'true';
          }
          break;
        }
        case 'client_credentials':
          if (!confidential) throw new OAuthError('unauthorized_client', 'Public clients cannot.');
          body = await clientCredentials(application, request.body);
          break;
        default:
          body = await deviceCode(application, request.body, hooks);
      }
      return { body, headers };
    },

    /** POST /oauth2/device/authorize (RFC 8628 §3.1). */
    async deviceAuthorize(request: ClientRequest) {
      const credentials = readClientCredentials(request.authorization, request.body);
      const { application } = await authenticateClient(storage, credentials, {
        publicAllowed: true,
      });
      requireDeviceFlow(application);
      const requested = parseScopes(request.body.scope);
      const refusal =
        scopeRefusal(application, requested) ??
        grantScopeRefusal(expandScopes(requested), ['device']);
      if (refusal !== null) throw refusal;
      const deviceCodeValue = randomBytes(32).toString('base64url');
      const now = clock.now();
      const code = userCode();
      await storage.oauth.createDeviceCode({
        hash: hashSecret(deviceCodeValue),
        userCode: code,
        applicationId: application.id,
        scopes: expandScopes(requested),
        status: 'pending',
        userId: null,
        createdAt: now,
        expiresAt: now + DEVICE_CODE_SECONDS * SECOND_MS,
        lastPolledAt: null,
        intervalSeconds: DEVICE_POLL_SECONDS,
      });
      const verificationUri = `${issuer()}/activate`;
      return {
        device_code: deviceCodeValue,
        user_code: code,
        verification_uri: verificationUri,
        verification_uri_complete: `${verificationUri}?user_code=${code}`,
        expires_in: DEVICE_CODE_SECONDS,
        interval: DEVICE_POLL_SECONDS,
      };
    },

    /** The live device request a person typed the code of, or null. */
    async findPendingDevice(input: string) {
      const record = await storage.oauth.findDeviceCodeByUserCode(normaliseUserCode(input));
      if (record?.status !== 'pending' || record.expiresAt <= clock.now()) return null;
      const application = await storage.applications.findById(record.applicationId);
      return application === null ? null : { record, application };
    },

    /** A person approves or denies a device request. */
    async decideDevice(input: { user: UserRecord; userCode: string; approve: boolean }) {
      const found = await this.findPendingDevice(input.userCode);
      if (found === null) return false;
      await storage.transaction(async (tx) => {
        await tx.oauth.updateDeviceCode(found.record.hash, {
          status: input.approve ? 'approved' : 'denied',
          userId: input.user.id,
        });
        if (input.approve) {
          await core.recordAuthorization(tx, {
            user: input.user,
            applicationId: found.application.id,
            scopes: found.record.scopes,
            integrationType: 1,
          });
        }
      });
      return true;
    },

    /** POST /oauth2/token/revoke (RFC 7009): any token of the authorization ends all of it. */
    async revoke(request: ClientRequest): Promise<void> {
      const credentials = readClientCredentials(request.authorization, request.body);
      const { application } = await authenticateClient(storage, credentials, {
        publicAllowed: true,
      });
      const token = required(request.body, 'token');
      const hint = request.body.token_type_hint;
      if (hint !== undefined && hint !== 'access_token' && hint !== 'refresh_token') {
        throw new OAuthError('unsupported_token_type', 'token_type_hint is not supported.');
      }
      const record = await storage.oauth.findToken(hashSecret(token));
      // An unknown or already revoked token: nothing to do, and nothing to tell (RFC 7009 §2.2).
      if (record === null) return;
      const authorization = await storage.oauth.findAuthorizationById(record.authorizationId);
      if (authorization === null) return;
      if (authorization.applicationId !== application.id) {
        throw new OAuthError('unauthorized_client', 'The token was not issued to this client.');
      }
      await core.revokeAuthorization({
        userId: authorization.userId,
        applicationId: authorization.applicationId,
      });
    },
  };
}

export type Grants = ReturnType<typeof createGrants>;
