import type { ServiceDeps } from '../../resources/deps.js';
import type { Repositories } from '../../storage/index.js';
import type { OidcVerifier } from './oidc.js';

/** A token endpoint body, as the OAuth core issues it. */
export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token?: string;
  scope: string;
  id_token?: string;
}

/** What this module needs of the OAuth core (oauth/service.ts): issuing and revoking. */
export interface TokenIssuer {
  issueTokens(input: {
    tx?: Repositories;
    userId: string;
    applicationId: string;
    scopes: readonly string[];
    refresh: boolean;
  }): Promise<IssuedTokens>;
  /** Deletes the authorization's tokens and enqueues APPLICATION_DEAUTHORIZED. */
  revokeAuthorization(input: {
    tx?: Repositories;
    userId: string;
    applicationId: string;
  }): Promise<boolean>;
  /** Revokes every live authorization of a user (a ban). */
  revokeAllForUser(input: { tx?: Repositories; userId: string }): Promise<number>;
}

export interface ProvisionalDeps extends ServiceDeps {
  oauth: TokenIssuer;
  oidc: OidcVerifier;
  /** The scopes `sdk.social_layer` expands to (oauth/scopes.ts `expandScopes`). */
  expandScopes: (scopes: readonly string[]) => string[];
  /**
   * Runs in the transaction that deletes a provisional account after its merge or unmerge,
   * before the user row goes: where data sent while provisional (messages) is deleted or
   * detached, so it is not retrievable after the merge.
   */
  onProvisionalAccountDeleted?: (tx: Repositories, userId: string) => Promise<void>;
}
