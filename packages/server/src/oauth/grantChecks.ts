/**
 * What the grants share: reading a parameter, checking scopes against a grant, the provisional
 * accounts' hooks, and the step that merges a provisional account before tokens are issued.
 */
import type { ExternalAuthType, Repositories } from '../storage/index.js';
import { OAuthError } from './errors.js';
import type { OAuthParams } from './params.js';
import { grantScopeRefusal, type ScopeGrant } from './scopeGrants.js';
import type { OAuthCore, TokenResponse } from './service.js';

export function required(params: OAuthParams, name: keyof OAuthParams): string {
  const value = params[name];
  if (value === undefined || value === '') {
    throw new OAuthError('invalid_request', `${name} is required.`);
  }
  return value;
}

/** Throws invalid_scope when one of `scopes` may not be carried by any of `grants`. */
export function requireGrantable(scopes: readonly string[], grants: readonly ScopeGrant[]): void {
  const refusal = grantScopeRefusal(scopes, grants);
  if (refusal !== null) throw refusal;
}

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

/** Issues a grant's tokens, merging a provisional account first when the request asks to. */
export type IssueAfterMerge = (input: {
  tx?: Repositories;
  params: OAuthParams;
  hooks: ProvisionalHooks | null;
  issue: Omit<Parameters<OAuthCore['issueTokens']>[0], 'tx'>;
}) => Promise<TokenResponse>;

/** A request to one of the client-authenticated endpoints. */
export interface ClientRequest {
  authorization: string | undefined;
  body: OAuthParams;
}
