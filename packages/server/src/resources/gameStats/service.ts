/**
 * Game stats: the Application Identity Profile a game's backend writes with its bot token, the
 * identities of a user in an application, and the application profiles other users see
 * (docs/social-stats.md).
 */
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import {
  GAME_STATS_PROVIDER_TYPE,
  StorageConflictError,
  type ApplicationIdentityProfileRecord,
} from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import {
  findApplication,
  findUser,
  ownApplication,
  requireGrant,
  requireOwnBot,
  requireReader,
} from './access.js';
import { PROVIDER_TYPES, type ModifyProfileInput } from './schemas.js';
import { EMPTY_LAYOUT, renderWidgets, storedLayout, type StatsLayout } from './layout.js';
import {
  serializeIdentity,
  serializeProfile,
  serializeUserApplicationProfile,
  type IdentityWire,
} from './serialize.js';

export { STATS_WRITE_SCOPES } from './access.js';

/** The 50035 of a write naming another provider_issued_user_id than the identity's. */
function mismatch(): ApiError {
  return invalidField(
    ['provider_issued_user_id'],
    'APPLICATION_IDENTITY_PROVIDER_USER_ID_MISMATCH',
    'The provider_issued_user_id does not match the existing application identity of this user.',
  );
}

/** The 50035 of a provider_issued_user_id another user of the application holds. */
function taken(): ApiError {
  return invalidField(
    ['provider_issued_user_id'],
    'APPLICATION_IDENTITY_PROVIDER_USER_ID_TAKEN',
    'The provider_issued_user_id belongs to another user of this application.',
  );
}

export type WriteResult =
  { created: true; profile: ReturnType<typeof serializeProfile> } | { created: false };

export function createGameStatsService(deps: ServiceDeps) {
  const { storage, clock } = deps;

  const writeOnce = (
    principal: Principal,
    params: { applicationId: string; userId: string; providerIssuedUserId: string },
    input: ModifyProfileInput,
  ) =>
    storage.transaction(async (tx): Promise<WriteResult> => {
      const app = await findApplication(tx, params.applicationId);
      requireOwnBot(principal, app.id);
      const target = await findUser(tx, principal, params.userId);
      await requireGrant(tx, app.id, target.id);
      const now = clock.now();
      const existing = await tx.applicationIdentities.findProfile(app.id, target.id);
      if (existing !== null) {
        if (existing.providerIssuedUserId !== params.providerIssuedUserId) throw mismatch();
        await tx.applicationIdentities.updateProfile(app.id, target.id, {
          ...(input.username === undefined ? {} : { username: input.username }),
          ...(input.metadata === undefined ? {} : { metadata: input.metadata }),
          ...(input.data === undefined ? {} : { data: input.data }),
          updatedAt: now,
        });
        return { created: false };
      }
      const holder = await tx.applicationIdentities.findProfileByExternalId(
        app.id,
        GAME_STATS_PROVIDER_TYPE,
        params.providerIssuedUserId,
      );
      if (holder !== null) throw taken();
      const profile: ApplicationIdentityProfileRecord = {
        applicationId: app.id,
        userId: target.id,
        providerType: GAME_STATS_PROVIDER_TYPE,
        providerIssuedUserId: params.providerIssuedUserId,
        username: input.username ?? null,
        metadata: input.metadata ?? null,
        data: input.data ?? null,
        createdAt: now,
        updatedAt: now,
      };
      await tx.applicationIdentities.createProfile(profile);
      return { created: true, profile: serializeProfile(profile) };
    });

  return {
    /**
     * Creates (201 with the profile) or updates (204) the user's stats profile. A first write
     * racing another one loses on the key and runs once more, as an update or a 50035.
     */
    async writeProfile(
      principal: Principal,
      params: { applicationId: string; userId: string; providerIssuedUserId: string },
      input: ModifyProfileInput,
    ): Promise<WriteResult> {
      try {
        return await writeOnce(principal, params, input);
      } catch (err) {
        if (!(err instanceof StorageConflictError)) throw err;
        return writeOnce(principal, params, input);
      }
    },

    async readProfile(
      principal: Principal,
      params: { applicationId: string; userId: string; providerIssuedUserId: string },
    ) {
      const app = await findApplication(storage, params.applicationId);
      const target = await findUser(storage, principal, params.userId);
      requireReader(principal, app.id, target.id);
      const profile = await storage.applicationIdentities.findProfile(app.id, target.id);
      if (profile === null) throw new ApiError('UNKNOWN_ACCOUNT');
      if (profile.providerIssuedUserId !== params.providerIssuedUserId) throw mismatch();
      return serializeProfile(profile);
    },

    /** GET /applications/{id}/game-stats/layout: the owner's widget layout (layout.ts). */
    async layout(principal: Principal, applicationId: string): Promise<StatsLayout> {
      const app = await ownApplication(storage, principal, applicationId);
      const stored = await storage.applicationIdentities.findStatsLayout(app.id);
      return stored === null ? EMPTY_LAYOUT : storedLayout(stored);
    },

    /** PUT /applications/{id}/game-stats/layout: replaces the layout whole. */
    async putLayout(principal: Principal, applicationId: string, layout: StatsLayout) {
      const app = await ownApplication(storage, principal, applicationId);
      await storage.applicationIdentities.putStatsLayout(app.id, layout, clock.now());
      return layout;
    },

    /**
     * GET /users/{user.id}/application-identities/{application.id}/widgets: the app's layout
     * filled with the user's stats, for whoever may read those stats.
     */
    async widgets(principal: Principal, params: { userId: string; applicationId: string }) {
      const app = await findApplication(storage, params.applicationId);
      const target = await findUser(storage, principal, params.userId);
      requireReader(principal, app.id, target.id);
      const [stored, profile] = await Promise.all([
        storage.applicationIdentities.findStatsLayout(app.id),
        storage.applicationIdentities.findProfile(app.id, target.id),
      ]);
      const layout = stored === null ? EMPTY_LAYOUT : storedLayout(stored);
      return { widgets: renderWidgets(layout, profile?.data ?? null) };
    },

    /** The user's identities in the application: the stats one and an external login's. */
    async listIdentities(
      principal: Principal,
      params: { userId: string; applicationId: string },
    ): Promise<{ identities: IdentityWire[] }> {
      const app = await findApplication(storage, params.applicationId);
      const target = await findUser(storage, principal, params.userId);
      requireReader(principal, app.id, target.id);
      const [profile, external] = await Promise.all([
        storage.applicationIdentities.findProfile(app.id, target.id),
        storage.applicationIdentities.listUserApplicationProfiles(app.id, [target.id]),
      ]);
      return {
        identities: external.map((entry) =>
          serializeIdentity(
            entry,
            entry.providerType === GAME_STATS_PROVIDER_TYPE ? profile : null,
          ),
        ),
      };
    },

    /** The identity holding a provider-issued id in the application (its bot only). */
    async lookup(
      principal: Principal,
      params: { applicationId: string; providerType: string; providerIssuedUserId: string },
      providerId: string | undefined,
    ): Promise<IdentityWire> {
      const app = await findApplication(storage, params.applicationId);
      requireOwnBot(principal, app.id);
      const providerType = params.providerType.toUpperCase();
      if (!(PROVIDER_TYPES as readonly string[]).includes(providerType)) {
        throw new ApiError('UNKNOWN_ACCOUNT');
      }
      if (providerType === GAME_STATS_PROVIDER_TYPE) {
        const profile = await storage.applicationIdentities.findProfileByExternalId(
          app.id,
          GAME_STATS_PROVIDER_TYPE,
          params.providerIssuedUserId,
        );
        if (profile === null || providerId !== undefined) throw new ApiError('UNKNOWN_ACCOUNT');
        const entry = (
          await storage.applicationIdentities.listUserApplicationProfiles(app.id, [profile.userId])
        ).find((candidate) => candidate.providerType === GAME_STATS_PROVIDER_TYPE);
        if (entry === undefined) throw new ApiError('UNKNOWN_ACCOUNT');
        return serializeIdentity(entry, profile);
      }
      const identity = (
        await lookupExternal(app.id, providerType, params.providerIssuedUserId)
      ).find((entry) => providerId === undefined || entry.providerId === providerId);
      if (identity === undefined) throw new ApiError('UNKNOWN_ACCOUNT');
      return serializeIdentity(identity, null);
    },

    /**
     * Deletes the user's stats identity (204): the application's bot or the user. Identities of
     * an external login are the provisional account's and are not deleted here (50001).
     */
    async deleteIdentity(
      principal: Principal,
      params: {
        userId: string;
        applicationId: string;
        providerType: string;
        providerIssuedUserId: string;
      },
    ): Promise<void> {
      await storage.transaction(async (tx) => {
        const app = await findApplication(tx, params.applicationId);
        const target = await findUser(tx, principal, params.userId);
        requireReader(principal, app.id, target.id);
        const providerType = params.providerType.toUpperCase();
        if (!(PROVIDER_TYPES as readonly string[]).includes(providerType)) {
          throw new ApiError('UNKNOWN_ACCOUNT');
        }
        if (providerType !== GAME_STATS_PROVIDER_TYPE) throw new ApiError('MISSING_ACCESS');
        const profile = await tx.applicationIdentities.findProfile(app.id, target.id);
        if (profile?.providerIssuedUserId !== params.providerIssuedUserId) {
          throw new ApiError('UNKNOWN_ACCOUNT');
        }
        await tx.applicationIdentities.deleteProfile(app.id, target.id);
      });
    },

    /**
     * GET /users/{user.id}/application-profiles: the user's profiles in the caller's
     * application (its bot, or an OAuth2 token of it).
     */
    async applicationProfiles(principal: Principal, userId: string) {
      const applicationId = principal.applicationId;
      if (applicationId === null) throw new ApiError('MISSING_ACCESS');
      const target = await findUser(storage, principal, userId);
      const profiles = await storage.applicationIdentities.listUserApplicationProfiles(
        applicationId,
        [target.id],
      );
      return profiles.map(serializeUserApplicationProfile);
    },
  };

  /** External identities (migration 0009) of the application with this provider family and id. */
  async function lookupExternal(applicationId: string, providerType: string, subject: string) {
    const userIds = await storage.applicationIdentities.findExternalIdentityUsers(
      applicationId,
      subject,
    );
    const entries = await storage.applicationIdentities.listUserApplicationProfiles(
      applicationId,
      userIds,
    );
    return entries.filter(
      (entry) => entry.providerType === providerType && entry.providerIssuedUserId === subject,
    );
  }
}

export type GameStatsService = ReturnType<typeof createGameStatsService>;
