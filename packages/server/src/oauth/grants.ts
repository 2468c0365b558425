import { hashSecret } from '../domain/credentials.js';
import {
  EXTERNAL_AUTH_TYPES,
  type ExternalAuthType,
  type OAuthCodeRecord,
  type Repositories,
} from '../storage/index.js';
import { s256 } from './authorize.js';
import { authenticateClient, readClientCredentials } from './clients.js';
import { MAX_ECHOED_LENGTH, OAuthError } from './errors.js';
import type { OAuthParams } from './params.js';
import { CODE_GRANTS, REFRESHABLE_GRANTS } from './scopeGrants.js';
import { expandScopes, parseScopes } from './scopes.js';
import type { OAuthCore, OAuthCoreDeps, TokenResponse } from './service.js';
import { DEVICE_CODE_GRANT, createDeviceFlow, requireDeviceFlow } from './deviceFlow.js';
import {
  required,
  requireGrantable,
  type ClientRequest,
  type IssueAfterMerge,
  type ProvisionalHooks,
} from './grantChecks.js';
import { MAX_EXTERNAL_AUTH_TOKEN_LENGTH } from './provisional/schemas.js';

const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

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

/** The token endpoint's grants, device authorization (deviceFlow.ts) and revocation. */
export function createGrants(deps: OAuthCoreDeps & { core: OAuthCore }) {
  const { storage, clock, core } = deps;

  /** Issues a grant's tokens, merging a provisional account first when the request asks to. */
  const issueAfterMerge: IssueAfterMerge = (input) => {
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

  const device = createDeviceFlow({ ...deps, issueAfterMerge });

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
          body = await device.deviceCode(application, request.body, hooks);
      }
      return { body, headers };
    },

    deviceAuthorize: device.deviceAuthorize,
    findPendingDevice: device.findPendingDevice,
    decideDevice: device.decideDevice,

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
