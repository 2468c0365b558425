import { timingSafeEqual } from 'node:crypto';
import { banActive } from '../../domain/bans.js';
import { hashSecret } from '../../domain/credentials.js';
import { ApiError } from '../../errors/index.js';
import type { ApplicationRecord, ExternalIdentityKey, Repositories } from '../../storage/index.js';
import { mergeRelationships } from '../../resources/relationships/index.js';
import { createProvisionalBans } from './bans.js';
import type { ProvisionalDeps } from './deps.js';
import { createProvisionalIdentities, type ExternalCredential } from './identities.js';
import { createPublisherLinks } from './publisherLinks.js';
import { createTestProviderService } from './testProviders.js';

function secretMatches(secret: string, hash: string): boolean {
  const given = Buffer.from(hashSecret(secret), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * Provisional accounts (docs/platform-notes.md#provisional-accounts): accounts for players without
 * a platform account, made for an application's external identity (an OpenID subject, or an id the
 * game's bot vouches for), merged later into a full account, unmerged again, restricted by bans;
 * and publisher-level child tokens.
 */
export function createProvisionalService(deps: ProvisionalDeps) {
  const { storage, clock, authenticator, revocations, oidc } = deps;
  const { resolveIdentity, isLinked, deleteProvisionalUser, provisionalTokens, detachIdentity } =
    createProvisionalIdentities(deps);

  const loadApplication = async (repos: Repositories, applicationId: string) => {
    const application = await repos.applications.findById(applicationId);
    if (application === null) throw new ApiError('UNKNOWN_APPLICATION');
    return application;
  };

  /**
   * The application a client id and secret name. Public clients may omit the secret.
   * @throws ApiError 10002 for an unknown client, 530007 for a wrong or missing secret.
   */
  const authenticateClient = async (clientId: string, clientSecret: string | undefined) => {
    const application = /^\d{1,20}$/.test(clientId)
      ? await storage.applications.findById(clientId)
      : null;
    if (application === null) throw new ApiError('UNKNOWN_APPLICATION');
    if (clientSecret === undefined) {
      if (!application.publicClient) throw new ApiError('INVALID_CLIENT_SECRET');
    } else if (!secretMatches(clientSecret, application.clientSecretHash)) {
      throw new ApiError('INVALID_CLIENT_SECRET');
    }
    return application;
  };

  /** The unmerge endpoints: the full account of an identity goes back to a provisional one. */
  const unmerge = async (
    application: ApplicationRecord,
    key: ExternalIdentityKey | ExternalCredential,
  ) => {
    const resolved =
      'subject' in key ? key : (await resolveIdentity(storage, application, key)).key;
    const revokedUser = await storage.transaction(async (tx) => {
      if ((await tx.provisional.lockIdentity(resolved)) === 'busy') {
        throw new ApiError('RESOURCE_LOCKED');
      }
      const identity = await tx.provisional.findIdentity(resolved);
      if (identity === null) throw new ApiError('UNKNOWN_USER');
      if (identity.provisional) throw new ApiError('INVALID_USER_TYPE');
      await detachIdentity(tx, identity, null);
      return identity.userId;
    });
    authenticator.forgetUser(revokedUser);
  };

  /** The owner's OpenID provider of an application, or null when none is saved. */
  async function findOidcProvider(input: { applicationId: string; ownerId: string }) {
    const application = /^\d{1,20}$/.test(input.applicationId)
      ? await storage.applications.findById(input.applicationId)
      : null;
    if (application?.ownerId !== input.ownerId) throw new ApiError('UNKNOWN_APPLICATION');
    return storage.provisional.findOidcProvider(application.id);
  }

  return {
    ...createTestProviderService(deps),
    ...createProvisionalBans(deps, { detachIdentity }),
    ...createPublisherLinks(deps, { authenticateClient, loadApplication }),
    authenticateClient,

    /**
     * Saves an application's OpenID provider. `ownerId` is the caller who must own the
     * application (null: the operator). Checked under the current rules (issuer hostname,
     * discovery document and JWKS fetched without redirects) unless `legacy`: an operator
     * importing a configuration from before them, which keeps working unchecked.
     */
    async saveOidcProvider(input: {
      applicationId: string;
      ownerId: string | null;
      issuer: string;
      clientId: string;
      legacy: boolean;
    }) {
      const application = /^\d{1,20}$/.test(input.applicationId)
        ? await storage.applications.findById(input.applicationId)
        : null;
      if (application === null) throw new ApiError('UNKNOWN_APPLICATION');
      if (input.ownerId !== null && application.ownerId !== input.ownerId) {
        throw new ApiError('UNKNOWN_APPLICATION');
      }
      if (!input.legacy) await oidc.checkProvider(input.issuer);
      const provider = {
        applicationId: application.id,
        issuer: input.issuer,
        clientId: input.clientId,
        validation: input.legacy ? ('legacy' as const) : ('strict' as const),
        updatedAt: clock.now(),
      };
      await storage.transaction((tx) => tx.provisional.putOidcProvider(provider));
      return provider;
    },

    findOidcProvider,

    async oidcProvider(input: { applicationId: string; ownerId: string }) {
      const provider = await findOidcProvider(input);
      if (provider === null) throw new ApiError('OIDC_CONFIGURATION_NOT_FOUND');
      return provider;
    },

    /** POST /partner-sdk/token/bot: the provisional account of an id the app's bot vouches for. */
    async botToken(
      botUserId: string,
      input: { externalUserId: string; preferredGlobalName: string | null },
    ) {
      const application = await storage.applications.findByBotUserId(botUserId);
      if (application === null) throw new ApiError('UNKNOWN_APPLICATION');
      return provisionalTokens({
        application,
        key: {
          applicationId: application.id,
          authType: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
          subject: input.externalUserId,
        },
        preferredName: input.preferredGlobalName,
        refresh: false,
      });
    },

    /** POST /partner-sdk/token: External Credentials Exchange (and the public-client form). */
    async exchange(input: {
      clientId: string;
      clientSecret: string | undefined;
      credential: ExternalCredential;
    }) {
      const application = await authenticateClient(input.clientId, input.clientSecret);
      const { key, preferredName } = await resolveIdentity(storage, application, input.credential);
      // OIDC accounts get a refresh token (its grant is deprecated: re-exchange a fresh ID token).
      return provisionalTokens({
        application,
        key,
        preferredName,
        refresh: key.authType === 'OIDC',
      });
    },

    /**
     * The merge extension of the token endpoint's authorization_code and device_code grants:
     * the provisional account of the external identity is merged into `userId`, the full account
     * the grant is for, inside the grant's transaction. The provisional account is deleted.
     * @throws ApiError 530016 when `userId` is provisional, 530014 when the identity's account is
     *   not provisional, 530017 while a ban restricts it, 530023 when `userId` holds another
     *   identity of the application, 423 while another merge holds it, 50025 or a 5300xx code for
     *   a bad external credential.
     */
    async mergeProvisional(
      tx: Repositories,
      input: { applicationId: string; userId: string; credential: ExternalCredential },
    ): Promise<{ provisionalUserId: string | null }> {
      const application = await loadApplication(tx, input.applicationId);
      if (await tx.provisional.isProvisional(input.userId)) {
        throw new ApiError('INVALID_MERGE_DESTINATION');
      }
      const { key } = await resolveIdentity(tx, application, input.credential);
      const lock = await tx.provisional.lockIdentity(key);
      if (lock === 'busy') throw new ApiError('RESOURCE_LOCKED');
      const identity = await tx.provisional.findIdentity(key);
      if (identity !== null && !identity.provisional) {
        if (identity.userId === input.userId) return { provisionalUserId: null };
        if (await isLinked(tx, identity)) throw new ApiError('INVALID_MERGE_SOURCE');
      }
      const now = clock.now();
      const source = identity?.provisional === true ? identity : null;
      const bannedIds = [input.userId, source?.userId, identity?.restrictedBy];
      for (const userId of bannedIds) {
        if (userId != null && banActive(await tx.provisional.findBan(userId), now)) {
          throw new ApiError('MERGE_SOURCE_USER_BANNED');
        }
      }
      const held = await tx.provisional.listIdentitiesOfUser(input.userId);
      if (held.some((i) => i.applicationId === application.id)) {
        throw new ApiError('TOO_MANY_APPLICATION_IDENTITIES');
      }
      await tx.provisional.putIdentity({
        ...key,
        userId: input.userId,
        provisional: false,
        restrictedBy: null,
        createdAt: now,
      });
      if (source === null) return { provisionalUserId: null };
      await mergeRelationships(tx, { from: source.userId, to: input.userId });
      // The provisional account's lobby memberships become the full account's.
      await tx.lobbies.moveMemberships(source.userId, input.userId);
      await deleteProvisionalUser(tx, source.userId);
      revocations.revoke(tx, { userIds: [source.userId] });
      return { provisionalUserId: source.userId };
    },

    /**
     * Whether a user's tokens for an application are those of an OIDC provisional account: its
     * refresh_token grant answers with a Deprecation header.
     */
    async isOidcProvisional(
      repos: Repositories,
      input: { userId: string; applicationId: string },
    ): Promise<boolean> {
      const identities = await repos.provisional.listIdentitiesOfUser(input.userId);
      return identities.some(
        (i) => i.applicationId === input.applicationId && i.provisional && i.authType === 'OIDC',
      );
    },

    unmerge,

    async unmergeBot(botUserId: string, externalUserId: string) {
      const application = await storage.applications.findByBotUserId(botUserId);
      if (application === null) throw new ApiError('UNKNOWN_APPLICATION');
      await unmerge(application, {
        applicationId: application.id,
        authType: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN',
        subject: externalUserId,
      });
    },
  };
}

export type ProvisionalService = ReturnType<typeof createProvisionalService>;
