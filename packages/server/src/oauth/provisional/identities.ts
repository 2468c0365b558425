import { hashSecret } from '../../domain/credentials.js';
import { ApiError } from '../../errors/index.js';
import type {
  ApplicationRecord,
  ExternalAuthType,
  ExternalIdentityKey,
  ExternalIdentityRecord,
  Repositories,
  UserRecord,
} from '../../storage/index.js';
import { unmergeRelationships } from '../../resources/relationships/index.js';
import type { ProvisionalDeps } from './deps.js';
import { PROVIDER_AUTH_TYPES, providerOf, verifyTestCredential } from './testIdentity.js';

/**
 * The scope provisional tokens are granted, as the wire names it
 * (docs/platform-notes.md#provisional-accounts).
 */
export const PROVISIONAL_SCOPE = 'sdk.social_layer';

/** An external credential as the partner SDK routes and the merge grant carry it. */
export interface ExternalCredential {
  type: ExternalAuthType;
  token: string;
}

/**
 * The external identities of provisional accounts: verifying a credential, whether a merged
 * identity is still linked, making and deleting provisional users, issuing their tokens, and
 * moving an identity off a full account (unmerge, ban). The service's merge, unmerge and ban
 * paths are built on these.
 */
export function createProvisionalIdentities(deps: ProvisionalDeps) {
  const { storage, clock, ids, oauth, oidc } = deps;
  const grantedScopes = () => deps.expandScopes([PROVISIONAL_SCOPE]);

  /**
   * Verifies an external credential for an application and names the identity it proves.
   * OIDC (the application's provider), DISCORD_BOT_ISSUED_ACCESS_TOKEN (our own provisional
   * access tokens), and the other providers' credentials in test mode (testIdentity.ts).
   */
  const resolveIdentity = async (
    repos: Repositories,
    application: ApplicationRecord,
    credential: ExternalCredential,
  ): Promise<{ key: ExternalIdentityKey; preferredName: string | null }> => {
    if (credential.type === 'OIDC') {
      const provider = await repos.provisional.findOidcProvider(application.id);
      if (provider === null) throw new ApiError('OIDC_CONFIGURATION_NOT_FOUND');
      const verified = await oidc.verify(credential.token, provider);
      return {
        key: { applicationId: application.id, authType: 'OIDC', subject: verified.subject },
        preferredName: verified.preferredUsername,
      };
    }
    if (credential.type === 'DISCORD_BOT_ISSUED_ACCESS_TOKEN') {
      const token = await repos.tokens.findByHash(hashSecret(credential.token));
      const valid =
        token?.kind === 'bearer' &&
        token.applicationId === application.id &&
        (token.expiresAt === null || token.expiresAt > clock.now());
      const identity = valid
        ? (await repos.provisional.listIdentitiesOfUser(token.userId)).find(
            (i) => i.applicationId === application.id && i.provisional,
          )
        : undefined;
      if (identity === undefined) throw new ApiError('INVALID_OAUTH2_ACCESS_TOKEN');
      return { key: identity, preferredName: null };
    }
    // Steam, Epic, Unity, Apple and PlayStation: only in test mode (a key the developer
    // registered); their production tickets need the providers' servers, never called here.
    const provider = providerOf(credential.type);
    const testKey =
      provider === null ? null : await repos.provisional.findTestKey(application.id, provider);
    if (testKey === null) throw new ApiError('PROVISIONAL_ACCOUNTS_NOT_ENABLED');
    const verified = await verifyTestCredential(credential.token, testKey, clock);
    return {
      // One identity per provider: Epic's access and ID tokens name the same account.
      key: {
        applicationId: application.id,
        authType: PROVIDER_AUTH_TYPES[testKey.provider][0] ?? credential.type,
        subject: verified.subject,
      },
      preferredName: verified.preferredName,
    };
  };

  /**
   * Whether a merged identity is linked: its full account still authorizes the application. A
   * revoke (POST /oauth2/token/revoke, the user removing the app) unlinks it.
   */
  const isLinked = async (tx: Repositories, identity: ExternalIdentityRecord) => {
    if (identity.provisional) return false;
    const authorization = await tx.oauth.findAuthorization(identity.userId, identity.applicationId);
    return authorization !== null && authorization.revokedAt === null;
  };

  const createProvisionalUser = async (
    tx: Repositories,
    globalName: string | null,
  ): Promise<UserRecord> => {
    const id = ids();
    return tx.users.create({
      id,
      username: `provisional_${id}`,
      globalName,
      createdAt: clock.now(),
    });
  };

  const deleteProvisionalUser = async (tx: Repositories, userId: string) => {
    await deps.onProvisionalAccountDeleted?.(tx, userId);
    await tx.provisional.deleteUser(userId);
  };

  /** Finds or creates the provisional account of an identity and issues its tokens. */
  const provisionalTokens = async (input: {
    application: ApplicationRecord;
    key: ExternalIdentityKey;
    preferredName: string | null;
    refresh: boolean;
  }) => {
    const { application, key, preferredName } = input;
    const body = await storage.transaction(async (tx) => {
      const identity = await tx.provisional.findIdentity(key);
      if (identity !== null && (await isLinked(tx, identity))) {
        throw new ApiError('USER_ACCOUNT_NOT_PROVISIONAL');
      }
      let userId: string;
      if (identity !== null && !identity.provisional) {
        // Unlinked by a revoke: a new provisional account takes the identity back.
        userId = (await createProvisionalUser(tx, preferredName)).id;
        await tx.provisional.putIdentity({
          ...key,
          userId,
          provisional: true,
          restrictedBy: null,
          createdAt: clock.now(),
        });
      } else if (identity === null) {
        userId = (await createProvisionalUser(tx, preferredName)).id;
        const created = await tx.provisional.createIdentity({
          ...key,
          userId,
          provisional: true,
          restrictedBy: null,
          createdAt: clock.now(),
        });
        if (!created) {
          // A concurrent request made this identity's account first: use that one.
          await tx.provisional.deleteUser(userId);
          const winner = await tx.provisional.findIdentity(key);
          if (winner === null) throw new ApiError('RESOURCE_LOCKED');
          if (!winner.provisional) throw new ApiError('USER_ACCOUNT_NOT_PROVISIONAL');
          userId = winner.userId;
        }
      } else {
        userId = identity.userId;
        if (preferredName !== null) await tx.users.update(userId, { globalName: preferredName });
      }
      return oauth.issueTokens({
        tx,
        userId,
        applicationId: application.id,
        scopes: grantedScopes(),
        refresh: input.refresh,
      });
    });
    return { ...body, scope: PROVISIONAL_SCOPE };
  };

  /**
   * Moves a full account's identity of an application to a new provisional account (unmerge,
   * or a ban when `restrictedBy` is set): the full account's authorization is revoked (tokens
   * deleted, APPLICATION_DEAUTHORIZED enqueued) and the global name carried over.
   */
  const detachIdentity = async (
    tx: Repositories,
    identity: ExternalIdentityRecord,
    restrictedBy: string | null,
  ) => {
    const full = await tx.users.findById(identity.userId);
    await oauth.revokeAuthorization({
      tx,
      userId: identity.userId,
      applicationId: identity.applicationId,
    });
    const provisional = await createProvisionalUser(tx, full?.globalName ?? null);
    await tx.provisional.putIdentity({
      applicationId: identity.applicationId,
      authType: identity.authType,
      subject: identity.subject,
      userId: provisional.id,
      provisional: true,
      restrictedBy,
      createdAt: clock.now(),
    });
    await unmergeRelationships(tx, {
      fullUserId: identity.userId,
      provisionalUserId: provisional.id,
      applicationId: identity.applicationId,
      now: clock.now(),
    });
    // The game's lobbies follow the identity back to the provisional account.
    await tx.lobbies.moveMemberships(identity.userId, provisional.id, identity.applicationId);
    return provisional;
  };

  return {
    resolveIdentity,
    isLinked,
    deleteProvisionalUser,
    provisionalTokens,
    detachIdentity,
  };
}
