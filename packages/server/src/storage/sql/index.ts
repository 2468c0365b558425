/** @module storage/sql: the repositories both drivers share, written once over Kysely. */
import { sql, type Kysely } from 'kysely';
import type { CommitScope, Repositories, Storage, StorageDialect } from '../types/storage.js';
import { createApplicationAssetRepository, createApplicationRepository } from './applications.js';
import { createAuditLogRepository } from './auditLog.js';
import { createBanRepository } from './bans.js';
import { createBlobReferenceRepository, createServerSecretRepository } from './blobRefs.js';
import { createSealedValueRepository } from './sealedValues.js';
import { createChannelRepository } from './channels.js';
import { createEmojiRepository } from './emojis.js';
import { createConnectionRepository } from './connections.js';
import { createGatewayRepository } from './gateway.js';
import { createApplicationIdentityRepository, createGuildTagRepository } from './gameStats.js';
import {
  createGroupCommitter,
  type GroupCommitOptions,
  type OpenBatchConnection,
} from './groupCommit.js';
import { createGuildRepository } from './guilds.js';
import { createInviteRepository } from './invites.js';
import { createLobbyRepository } from './lobbies.js';
import { createCallRepository } from './calls.js';
import { createWebhookRepository } from './webhooks.js';
import { createMemberRepository } from './members.js';
import { createOAuthRepository } from './oauth.js';
import { createOutboxRepository } from './outbox.js';
import { createProvisionalRepository } from './provisional.js';
import { createRelationshipRepository } from './relationships.js';
import { createPrivateChannelRepository } from './privateChannels.js';
import { createMessageRepository } from './messages.js';
import { createReactionRepository } from './reactions.js';
import { createMessageSearchRepository } from './messageSearch.js';
import { createOverwriteRepository } from './overwrites.js';
import { createRoleRepository } from './roles.js';
import { createScheduledEventRepository } from './scheduledEvents.js';
import type { Database } from './schema.js';
import { createStickerRepository } from './stickers.js';
import { createLoginLinkRepository, createTokenRepository } from './tokens.js';
import { createUserRepository } from './users.js';
import { createVoiceStatusRepository } from './voiceStatus.js';
import { createWorkerLeaseRepository } from './workerLeases.js';
import { createInteractionRepository } from './interactions.js';
import { createCommandRepository } from './commands.js';
import { createActivityRepository } from './activities.js';
import {
  createEntitlementRepository,
  createSkuRepository,
  createSubscriptionRepository,
} from './monetization.js';
import {
  createApplicationAttachmentRepository,
  createApplicationEmojiRepository,
  createRoleConnectionRepository,
  createSoundboardRepository,
  createStageInstanceRepository,
} from './voiceExpressions.js';
import { createScheduledEventUserRepository } from './scheduledEventUsers.js';
import {
  createAutoModRuleRepository,
  createGuildSettingRepository,
  createGuildTemplateRepository,
  createJoinRequestRepository,
} from './guildSettings.js';
import { createPollRepository, createThreadRepository } from './threads.js';

export type { Database } from './schema.js';
export type { BatchConnection, GroupCommitOptions, OpenBatchConnection } from './groupCommit.js';

/**
 * The commit scope of a plain storage's repositories: nothing it writes is announced and its tasks
 * are dropped (a dispatching storage, events/afterCommit.ts, gives its own); actions run at once.
 */
const ANNOUNCES_NOTHING: CommitScope = {
  dispatch: () => undefined,
  task: () => undefined,
  action: (action) => {
    action();
  },
};

/** Builds every repository over one Kysely handle: the pool, or a transaction. */
export function createRepositories(
  db: Kysely<Database>,
  context: { dialect: StorageDialect; inTransaction: boolean },
): Repositories {
  return {
    inTransaction: context.inTransaction,
    commit: ANNOUNCES_NOTHING,
    users: createUserRepository(db),
    applications: createApplicationRepository(db),
    applicationAssets: createApplicationAssetRepository(db),
    tokens: createTokenRepository(db),
    loginLinks: createLoginLinkRepository(db),
    guilds: createGuildRepository(db, context.dialect),
    roles: createRoleRepository(db),
    channels: createChannelRepository(db, context.dialect),
    members: createMemberRepository(db),
    bans: createBanRepository(db),
    overwrites: createOverwriteRepository(db),
    voiceStatus: createVoiceStatusRepository(db),
    auditLog: createAuditLogRepository(db),
    emojis: createEmojiRepository(db),
    stickers: createStickerRepository(db),
    scheduledEvents: createScheduledEventRepository(db),
    invites: createInviteRepository(db),
    connections: createConnectionRepository(db),
    oauth: createOAuthRepository(db, context.dialect),
    outbox: createOutboxRepository(db, context.dialect),
    provisional: createProvisionalRepository(db, context.dialect),
    messages: createMessageRepository(db),
    reactions: createReactionRepository(db),
    messageSearch: createMessageSearchRepository(db, context),
    gateway: createGatewayRepository(db),
    serverSecrets: createServerSecretRepository(db),
    sealedValues: createSealedValueRepository(db),
    blobRefs: createBlobReferenceRepository(db),
    workerLeases: createWorkerLeaseRepository(db),
    relationships: createRelationshipRepository(db, context.dialect),
    applicationIdentities: createApplicationIdentityRepository(db),
    guildTags: createGuildTagRepository(db),
    lobbies: createLobbyRepository(db, context.dialect),
    privateChannels: createPrivateChannelRepository(db),
    calls: createCallRepository(db, context.dialect),
    interactions: createInteractionRepository(db),
    commands: createCommandRepository(db, context.dialect),
    webhooks: createWebhookRepository(db),
    activities: createActivityRepository(db, context.dialect),
    skus: createSkuRepository(db),
    entitlements: createEntitlementRepository(db),
    subscriptions: createSubscriptionRepository(db),
    soundboard: createSoundboardRepository(db),
    stageInstances: createStageInstanceRepository(db),
    scheduledEventUsers: createScheduledEventUserRepository(db),
    applicationEmojis: createApplicationEmojiRepository(db),
    roleConnections: createRoleConnectionRepository(db),
    applicationAttachments: createApplicationAttachmentRepository(db),
    autoModRules: createAutoModRuleRepository(db),
    guildTemplates: createGuildTemplateRepository(db),
    guildSettings: createGuildSettingRepository(db),
    joinRequests: createJoinRequestRepository(db),
    threads: createThreadRepository(db),
    polls: createPollRepository(db),
  };
}

/**
 * A Storage over a Kysely handle. `release` runs after Kysely lets go, for what Kysely leaves
 * open when it never ran a query (the driver's pool or database handle); `groupCommit` sets the
 * limits of `groupTransaction`, whose batches run on the connections `openBatchConnection` lends.
 */
export function createKyselyStorage(
  db: Kysely<Database>,
  dialect: StorageDialect,
  settings: {
    release: () => void | Promise<void>;
    groupCommit?: Partial<GroupCommitOptions>;
    openBatchConnection: OpenBatchConnection;
  },
): Storage {
  const { release } = settings;
  const inTransaction = (trx: Kysely<Database>) =>
    createRepositories(trx, { dialect, inTransaction: true });
  const committer = createGroupCommitter({
    dialect,
    openConnection: settings.openBatchConnection,
    createRepositories: inTransaction,
    ...(settings.groupCommit === undefined ? {} : { options: settings.groupCommit }),
  });
  return {
    dialect,
    ...createRepositories(db, { dialect, inTransaction: false }),
    transaction: (fn) => db.transaction().execute((trx) => fn(inTransaction(trx))),
    groupTransaction: (fn) => committer.run(fn),
    groupCommitStats: () => committer.stats(),
    async ping() {
      await sql`SELECT 1`.execute(db);
    },
    async close() {
      // Queued members are answered first: each was promised a commit or an error.
      await committer.drain();
      await db.destroy();
      await release();
    },
  };
}
