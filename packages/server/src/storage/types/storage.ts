/**
 * The storage contract every driver implements: `Storage` composes the repositories of each
 * aggregate (one file each beside this one). Services see only these interfaces and the
 * camelCase domain records; each driver keeps its SQL and client types private.
 */

import type { Dispatch } from '../../domain/dispatch.js';
import type { ApplicationAssetRepository, ApplicationRepository } from './applications.js';
import type { AuditLogRepository } from './auditLog.js';
import type { BlobReferenceRepository } from './blobRefs.js';
import type { ChannelRepository, OverwriteRepository, VoiceStatusRepository } from './channels.js';
import type {
  EmojiRepository,
  ScheduledEventRepository,
  StickerRepository,
} from './expressions.js';
import type { GatewayRepository } from './gateway.js';
import type { ApplicationIdentityRepository, GuildTagRepository } from './gameStats.js';
import type { GuildRepository } from './guilds.js';
import type { InviteRepository } from './invites.js';
import type { LobbyRepository } from './lobbies.js';
import type { CallRepository } from './calls.js';
import type { BanRepository, MemberRepository, RoleRepository } from './members.js';
import type { MessageRepository, ReactionRepository } from './messages.js';
import type { OAuthRepository } from './oauth.js';
import type { OutboxRepository } from './outbox.js';
import type { ProvisionalRepository } from './provisional.js';
import type { RelationshipRepository } from './relationships.js';
import type { PrivateChannelRepository } from './privateChannels.js';
import type { MessageSearchRepository } from './search.js';
import type { SealedValueRepository, ServerSecretRepository } from './serverSecrets.js';
import type { LoginLinkRepository, TokenRepository } from './tokens.js';
import type { ConnectionRepository, UserRepository } from './users.js';
import type { WorkerLeaseRepository } from './workerLeases.js';
import type { InteractionRepository } from './interactions.js';
import type { CommandRepository } from './commands.js';
import type { WebhookRepository } from './webhooks.js';
import type { ActivityRepository } from './activities.js';
import type {
  EntitlementRepository,
  SkuRepository,
  SubscriptionRepository,
} from './monetization.js';
import type {
  ApplicationAttachmentRepository,
  ApplicationEmojiRepository,
  RoleConnectionRepository,
  ScheduledEventUserRepository,
  SoundboardRepository,
  StageInstanceRepository,
} from './voiceExpressions.js';
import type {
  AutoModRuleRepository,
  GuildSettingRepository,
  GuildTemplateRepository,
  JoinRequestRepository,
} from './guildSettings.js';
import type { PollRepository, ThreadRepository } from './threads.js';

/** Work to do once a transaction commits, given repositories outside it. */
export type CommitTask = (storage: Repositories) => Promise<void>;

/**
 * What happens once the writes of a set of repositories are committed: the dispatches announcing
 * them, the work they leave (a deleted row's blob to free), the actions they call for (a
 * revocation). Each `Repositories` says it itself, as its `commit`:
 *
 * - inside a transaction of a dispatching storage (events/afterCommit.ts), all three are kept and
 *   run once the transaction commits, in the order given: the dispatches published in one batch,
 *   then the actions, then the tasks. A rollback drops them;
 * - on a dispatching storage's own repositories, whose every statement commits by itself,
 *   dispatches are published and actions run at once; tasks are dropped;
 * - on a plain storage (the drivers' own, used directly by the CLI and by tests seeding data),
 *   in a transaction or not, dispatches and tasks are dropped (only changes made through the
 *   services are events) and actions run at once.
 */
export interface CommitScope {
  /** Announces dispatches describing what these repositories wrote. */
  dispatch(events: Dispatch | readonly Dispatch[]): void;
  /** Queues work for after the commit; it gets repositories outside the transaction. */
  task(task: CommitTask): void;
  /** Calls for `action` once the writes are committed. */
  action(action: () => void): void;
}

/** The repositories, as seen both outside and inside a transaction. */
export interface Repositories {
  /** Whether these repositories run inside `Storage.transaction`. */
  readonly inTransaction: boolean;
  /** What happens once their writes are committed (see {@link CommitScope}). */
  readonly commit: CommitScope;
  readonly users: UserRepository;
  readonly applications: ApplicationRepository;
  readonly applicationAssets: ApplicationAssetRepository;
  readonly tokens: TokenRepository;
  readonly loginLinks: LoginLinkRepository;
  readonly guilds: GuildRepository;
  readonly roles: RoleRepository;
  readonly channels: ChannelRepository;
  readonly members: MemberRepository;
  readonly bans: BanRepository;
  readonly overwrites: OverwriteRepository;
  readonly voiceStatus: VoiceStatusRepository;
  readonly auditLog: AuditLogRepository;
  readonly emojis: EmojiRepository;
  readonly stickers: StickerRepository;
  readonly scheduledEvents: ScheduledEventRepository;
  readonly invites: InviteRepository;
  readonly connections: ConnectionRepository;
  readonly oauth: OAuthRepository;
  readonly outbox: OutboxRepository;
  readonly provisional: ProvisionalRepository;
  readonly messages: MessageRepository;
  readonly reactions: ReactionRepository;
  readonly messageSearch: MessageSearchRepository;
  readonly gateway: GatewayRepository;
  readonly serverSecrets: ServerSecretRepository;
  readonly sealedValues: SealedValueRepository;
  readonly blobRefs: BlobReferenceRepository;
  readonly workerLeases: WorkerLeaseRepository;
  readonly relationships: RelationshipRepository;
  readonly applicationIdentities: ApplicationIdentityRepository;
  readonly guildTags: GuildTagRepository;
  readonly lobbies: LobbyRepository;
  readonly privateChannels: PrivateChannelRepository;
  readonly calls: CallRepository;
  readonly interactions: InteractionRepository;
  readonly commands: CommandRepository;
  readonly webhooks: WebhookRepository;
  readonly activities: ActivityRepository;
  readonly skus: SkuRepository;
  readonly entitlements: EntitlementRepository;
  readonly subscriptions: SubscriptionRepository;
  readonly soundboard: SoundboardRepository;
  readonly stageInstances: StageInstanceRepository;
  readonly scheduledEventUsers: ScheduledEventUserRepository;
  readonly applicationEmojis: ApplicationEmojiRepository;
  readonly roleConnections: RoleConnectionRepository;
  readonly applicationAttachments: ApplicationAttachmentRepository;
  readonly autoModRules: AutoModRuleRepository;
  readonly guildTemplates: GuildTemplateRepository;
  readonly guildSettings: GuildSettingRepository;
  readonly joinRequests: JoinRequestRepository;
  readonly threads: ThreadRepository;
  readonly polls: PollRepository;
}

export type StorageDialect = 'sqlite' | 'postgres';

/** What a storage's group commit has done since it opened. */
export interface GroupCommitStats {
  /** Batches committed: one transaction and one durable commit each. */
  readonly batches: number;
  /** Members those batches held, the ones that failed alone included. */
  readonly members: number;
}

/** The contents of a database at one moment, to go back to (Storage.snapshot). */
export interface StorageSnapshot {
  /** Replaces the database's contents with the snapshot's (its size in bytes, for reports). */
  restore(): Promise<void>;
  readonly bytes: number;
}

export interface Storage extends Repositories {
  readonly dialect: StorageDialect;
  /**
   * Takes the database's contents, between transactions (control/reset.ts, for tests). SQLite
   * only: absent on drivers that cannot.
   */
  snapshot?(): Promise<StorageSnapshot>;
  /**
   * Runs `fn` in one database transaction: every write inside commits together or not at all.
   * Calls nested inside `fn` must use the repositories passed to it.
   */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /**
   * Runs `fn` like {@link transaction}, as one member of a group commit: the members that arrive
   * while earlier batches commit share one transaction and one durable commit. It resolves only
   * once that commit is on disk. When `fn` fails, its writes are rolled back and it rejects with
   * its own error while its neighbours commit; when the commit itself fails, every member
   * rejects with that error.
   *
   * For the hot, short writes (a message, a reaction, an edit), and three rules for `fn`:
   * - it uses only the repositories it is given and waits on nothing else (no network, no
   *   timers, not the storage itself): the batch waits for its members. One that runs past a
   *   time limit is rolled back with a `GroupCommitTimeoutError`, and its repositories refuse
   *   later calls;
   * - it may run twice: when a neighbour fails, the batch is rolled back and the others run
   *   again (then each in a savepoint of its own). Only the last run's writes and announcements
   *   count, so `fn` has no effect outside its repositories and their `commit` scope;
   * - it shares its transaction with its neighbours, which on PostgreSQL run side by side on
   *   its connection: a row lock (`FOR UPDATE`) does not keep them out, as it keeps out other
   *   transactions. Writes that need that use {@link transaction}.
   *
   * The caller gets `fn`'s result once the batch committed.
   */
  groupTransaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Batches and members committed by {@link groupTransaction} so far. */
  groupCommitStats(): GroupCommitStats;
  /** Round-trips to the database; used by the health check. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
