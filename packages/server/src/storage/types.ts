/**
 * The storage contract every driver implements. Services see only these interfaces and the
 * camelCase domain records below; each driver keeps its SQL and client types private.
 */

import type { OAuthRepository } from './oauth.js';

export type * from './oauth.js';
import type { MessageRepository, ReactionRepository } from './messageTypes.js';
import type { MessageSearchRepository } from './searchTypes.js';

export type * from './messageTypes.js';
export type * from './searchTypes.js';

/** A user, human or bot. */
export interface UserRecord {
  id: string;
  username: string;
  discriminator: string;
  globalName: string | null;
  avatar: string | null;
  banner: string | null;
  accentColor: number | null;
  bio: string;
  bot: boolean;
  system: boolean;
  email: string | null;
  verified: boolean;
  passwordHash: string | null;
  flags: number;
  premiumType: number;
  locale: string;
  mfaEnabled: boolean;
  createdAt: number;
}

export type NewUser = Pick<UserRecord, 'id' | 'username' | 'createdAt'> &
  Partial<Omit<UserRecord, 'id' | 'username' | 'createdAt'>>;

export type UserPatch = Partial<
  Pick<
    UserRecord,
    | 'username'
    | 'discriminator'
    | 'globalName'
    | 'avatar'
    | 'banner'
    | 'accentColor'
    | 'bio'
    | 'email'
    | 'verified'
    | 'passwordHash'
    | 'flags'
    | 'premiumType'
    | 'locale'
  >
>;

export interface ApplicationRecord {
  id: string;
  name: string;
  description: string;
  icon: string | null;
  ownerId: string;
  botUserId: string | null;
  /** The full flag bitset (bits beyond 30 included). */
  flags: bigint;
  botPublic: boolean;
  botRequireCodeGrant: boolean;
  /** Hex-encoded Ed25519 public key. */
  verifyKey: string;
  /**
   * PKCS#8 DER of the Ed25519 private key, base64, sealed (domain/secretBox.ts,
   * SEALED_AS.applicationSigningKey); rows from before sealing hold it plain until the next start.
   */
  signingKey: string;
  clientSecretHash: string;
  redirectUris: string[];
  interactionsEndpointUrl: string | null;
  eventWebhooksUrl: string | null;
  tags: string[];
  createdAt: number;
  /** Marked by its owner as using large bot sharding (GET /users/@me/guilds `shard` rule). */
  largeBotSharding: boolean;
  /** A public OAuth2 client (no secret; PKCE; custom-scheme redirects). */
  publicClient: boolean;
  /** Approved by an operator for the identify.premium scope. */
  identifyPremiumApproved: boolean;
  /** Turned on by the owner: the device authorization grant (RFC 8628) is accepted. */
  deviceFlowEnabled: boolean;
  /** The webhook event types the app subscribes to (only these are enqueued). */
  eventWebhooksTypes: string[];
  /** 1 disabled, 2 enabled, 3 disabled by the platform. */
  eventWebhooksStatus: number;
}

export type NewApplication = Omit<
  ApplicationRecord,
  | 'largeBotSharding'
  | 'publicClient'
  | 'identifyPremiumApproved'
  | 'deviceFlowEnabled'
  | 'description'
  | 'icon'
  | 'flags'
  | 'botPublic'
  | 'botRequireCodeGrant'
  | 'redirectUris'
  | 'interactionsEndpointUrl'
  | 'eventWebhooksUrl'
  | 'tags'
  | 'eventWebhooksTypes'
  | 'eventWebhooksStatus'
> &
  Partial<ApplicationRecord>;

export type ApplicationPatch = Partial<
  Pick<
    ApplicationRecord,
    | 'name'
    | 'description'
    | 'icon'
    | 'flags'
    | 'botPublic'
    | 'botRequireCodeGrant'
    | 'clientSecretHash'
    | 'redirectUris'
    | 'interactionsEndpointUrl'
    | 'eventWebhooksUrl'
    | 'tags'
    | 'largeBotSharding'
    | 'publicClient'
    | 'identifyPremiumApproved'
    | 'deviceFlowEnabled'
    | 'eventWebhooksTypes'
    | 'eventWebhooksStatus'
  >
>;

export const TokenKinds = { BOT: 'bot', SESSION: 'session', BEARER: 'bearer' } as const;
export type TokenKind = (typeof TokenKinds)[keyof typeof TokenKinds];

/** A credential. Only its SHA-256 hash is ever stored. */
export interface TokenRecord {
  hash: string;
  kind: TokenKind;
  userId: string;
  applicationId: string | null;
  scopes: string[];
  createdAt: number;
  expiresAt: number | null;
}

export interface GuildRecord {
  id: string;
  name: string;
  icon: string | null;
  description: string | null;
  ownerId: string;
  features: string[];
  preferredLocale: string;
  createdAt: number;
  banner: string | null;
  splash: string | null;
  afkChannelId: string | null;
  afkTimeout: number;
  systemChannelId: string | null;
  systemChannelFlags: number;
  rulesChannelId: string | null;
  publicUpdatesChannelId: string | null;
  verificationLevel: number;
  defaultMessageNotifications: number;
  explicitContentFilter: number;
  premiumProgressBarEnabled: boolean;
}

/** A guild as created: the settings take the platform's defaults unless given. */
export type NewGuild = Pick<
  GuildRecord,
  'id' | 'name' | 'icon' | 'description' | 'ownerId' | 'features' | 'preferredLocale' | 'createdAt'
> &
  Partial<GuildRecord>;

export type GuildPatch = Partial<Omit<GuildRecord, 'id' | 'createdAt'>>;

/** Paging and the large-bot-sharding filter of GET /users/@me/guilds. */
export interface GuildListOptions {
  before?: string;
  after?: string;
  limit?: number;
  /** Only guilds with `(id >> 22) % count === index`. */
  shard?: { index: number; count: number };
}

export interface RoleRecord {
  id: string;
  guildId: string;
  name: string;
  permissions: bigint;
  position: number;
  color: number;
  hoist: boolean;
  mentionable: boolean;
  managed: boolean;
  /** Set on the managed role of a bot added to the guild. */
  botUserId: string | null;
  flags: number;
  /** Gradient colours (ENHANCED_ROLE_COLORS); `color` is the primary one. */
  secondaryColor: number | null;
  tertiaryColor: number | null;
  /** Role icon image hash (blob store), or null. */
  icon: string | null;
  unicodeEmoji: string | null;
}

/** A role as created: the extra colours, icon and emoji start empty unless given. */
export type NewRole = Omit<
  RoleRecord,
  'secondaryColor' | 'tertiaryColor' | 'icon' | 'unicodeEmoji'
> &
  Partial<RoleRecord>;

export type RolePatch = Partial<
  Pick<
    RoleRecord,
    | 'name'
    | 'permissions'
    | 'position'
    | 'color'
    | 'secondaryColor'
    | 'tertiaryColor'
    | 'hoist'
    | 'mentionable'
    | 'icon'
    | 'unicodeEmoji'
  >
>;

export interface ChannelRecord {
  id: string;
  guildId: string | null;
  type: number;
  name: string | null;
  position: number;
  parentId: string | null;
  topic: string | null;
  nsfw: boolean;
  rateLimitPerUser: number;
  bitrate: number | null;
  userLimit: number | null;
  flags: number;
  lastMessageId: string | null;
  createdAt: number;
  /** The application that made the channel (nullable on the wire; null for guild channels). */
  applicationId: string | null;
}

export type NewChannelRecord = Omit<ChannelRecord, 'applicationId'> &
  Partial<Pick<ChannelRecord, 'applicationId'>>;

export type ChannelPatch = Partial<
  Pick<
    ChannelRecord,
    | 'type'
    | 'name'
    | 'position'
    | 'parentId'
    | 'topic'
    | 'nsfw'
    | 'rateLimitPerUser'
    | 'bitrate'
    | 'userLimit'
    | 'flags'
  >
>;

export interface MemberRecord {
  guildId: string;
  userId: string;
  nick: string | null;
  joinedAt: number;
  deaf: boolean;
  mute: boolean;
  flags: number;
  roleIds: string[];
  /** Guild profile: image hashes and bio. */
  avatar: string | null;
  banner: string | null;
  bio: string | null;
  /** Epoch ms until which the member is timed out, or null. */
  communicationDisabledUntil: number | null;
  pending: boolean;
}

/** A member as added: the profile and timeout start empty unless given. */
export type NewMember = Omit<
  MemberRecord,
  'avatar' | 'banner' | 'bio' | 'communicationDisabledUntil' | 'pending'
> &
  Partial<MemberRecord>;

export type MemberPatch = Partial<
  Pick<
    MemberRecord,
    | 'nick'
    | 'deaf'
    | 'mute'
    | 'flags'
    | 'avatar'
    | 'banner'
    | 'bio'
    | 'communicationDisabledUntil'
    | 'pending'
  >
>;

/** A guild ban. */
export interface BanRecord {
  guildId: string;
  userId: string;
  reason: string | null;
  /** The message-deletion window asked for, kept until messages exist to delete. */
  deleteMessageSeconds: number;
  createdAt: number;
}

export interface BanQuery {
  limit: number;
  before?: string;
  after?: string;
}

export interface UserRepository {
  create(user: NewUser): Promise<UserRecord>;
  findById(id: string): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<UserRecord | null>;
  findByUsername(username: string): Promise<UserRecord | null>;
  /** Users by id in one query; unknown ids are absent. */
  findByIds(ids: readonly string[]): Promise<UserRecord[]>;
  /** Applies the patch and returns the new record, or null when the user does not exist. */
  update(id: string, patch: UserPatch): Promise<UserRecord | null>;
}

export interface ApplicationRepository {
  create(app: NewApplication): Promise<ApplicationRecord>;
  findById(id: string): Promise<ApplicationRecord | null>;
  findByBotUserId(botUserId: string): Promise<ApplicationRecord | null>;
  listByOwner(ownerId: string): Promise<ApplicationRecord[]>;
  update(id: string, patch: ApplicationPatch): Promise<ApplicationRecord | null>;
  /** Every app's stored signing key, by app id (the start-time sealing and its check). */
  listSigningKeys(): Promise<{ id: string; signingKey: string }[]>;
  /** Replaces an app's stored signing key if it still is `from`; returns whether it was. */
  replaceSigningKey(id: string, from: string, to: string): Promise<boolean>;
}

export interface TokenRepository {
  create(token: TokenRecord): Promise<void>;
  findByHash(hash: string): Promise<TokenRecord | null>;
  /** Deletes one token; returns whether it existed. */
  delete(hash: string): Promise<boolean>;
  /** Deletes every token of a kind for a user (and application, when given); returns their hashes. */
  deleteFor(filter: { userId: string; kind: TokenKind; applicationId?: string }): Promise<string[]>;
  /** Moves a token's expiry (a session token slides as it is used); returns whether it exists. */
  setExpiry(hash: string, expiresAt: number): Promise<boolean>;
}

export interface GuildRepository {
  /**
   * Inside a transaction, holds the guild's row until commit, so concurrent changes to one guild
   * (limits, hierarchy) happen one after another. SQLite transactions are already serialized.
   */
  lock(id: string): Promise<void>;
  create(guild: NewGuild): Promise<GuildRecord>;
  findById(id: string): Promise<GuildRecord | null>;
  /** The user's guilds by id, oldest first (the last `limit` below `before` when only it is given). */
  listForUser(userId: string, options?: GuildListOptions): Promise<GuildRecord[]>;
  countForUser(userId: string): Promise<number>;
  update(id: string, patch: GuildPatch): Promise<GuildRecord | null>;
  /** Deletes the guild and, by cascade, everything in it; returns whether it existed. */
  delete(id: string): Promise<boolean>;
  /** Member counts of the given guilds (guilds without members are absent). */
  memberCounts(guildIds: readonly string[]): Promise<Map<string, number>>;
}

export interface RoleRepository {
  create(role: NewRole): Promise<RoleRecord>;
  /** By position, then id. */
  listByGuild(guildId: string): Promise<RoleRecord[]>;
  /** Every role of the given guilds, by guild id, then position, then id (one query). */
  listByGuilds(guildIds: readonly string[]): Promise<RoleRecord[]>;
  findById(guildId: string, roleId: string): Promise<RoleRecord | null>;
  update(guildId: string, roleId: string, patch: RolePatch): Promise<RoleRecord | null>;
  /** Deletes the role (members lose it); returns whether it existed. */
  delete(guildId: string, roleId: string): Promise<boolean>;
  setPositions(
    guildId: string,
    positions: readonly { id: string; position: number }[],
  ): Promise<void>;
  /** Members per role, for the roles that have any. */
  memberCounts(guildId: string): Promise<Map<string, number>>;
}

export interface ChannelRepository {
  create(channel: NewChannelRecord): Promise<ChannelRecord>;
  findById(id: string): Promise<ChannelRecord | null>;
  listByGuild(guildId: string): Promise<ChannelRecord[]>;
  update(id: string, patch: ChannelPatch): Promise<ChannelRecord | null>;
  /** Deletes one channel (children of a category lose their parent); returns whether it existed. */
  delete(id: string): Promise<boolean>;
  /**
   * A guild channel with all that deciding a user's permissions in it needs, read in one
   * statement: its guild, the user's membership (null when not a member), the guild's roles and
   * the channel's overwrites. Null for an unknown channel or one outside a guild.
   */
  findAccessContext(channelId: string, userId: string): Promise<ChannelAccessContext | null>;
}

/** What `ChannelRepository.findAccessContext` reads. */
export interface ChannelAccessContext {
  channel: ChannelRecord & { guildId: string };
  guild: GuildRecord;
  member: MemberRecord | null;
  /** The guild's roles by position, then id. */
  roles: RoleRecord[];
  /** The channel's overwrites by target id. */
  overwrites: OverwriteRecord[];
}

export interface MemberRepository {
  /** Adds a member with its roles; a conflict if the user is already a member. */
  add(member: NewMember): Promise<MemberRecord>;
  find(guildId: string, userId: string): Promise<MemberRecord | null>;
  /**
   * The user's memberships among the given guilds, by guild id, in a constant number of queries;
   * guilds the user is not in are absent.
   */
  findForUser(userId: string, guildIds: readonly string[]): Promise<MemberRecord[]>;
  listByGuild(guildId: string, options: { limit: number; after?: string }): Promise<MemberRecord[]>;
  update(guildId: string, userId: string, patch: MemberPatch): Promise<MemberRecord | null>;
  /** Removes members with their roles; returns how many there were. */
  remove(guildId: string, userIds: readonly string[]): Promise<number>;
  /** Gives a role; returns whether the member lacked it. */
  addRole(guildId: string, userId: string, roleId: string): Promise<boolean>;
  /** Takes a role away; returns whether the member had it. */
  removeRole(guildId: string, userId: string, roleId: string): Promise<boolean>;
  /** Members whose username, global name or nick starts with `query`, ignoring case. */
  search(guildId: string, options: { query: string; limit: number }): Promise<MemberRecord[]>;
  /**
   * Ids of members who joined before `joinedBefore` and hold no role outside `includeRoleIds`;
   * bot users are never listed.
   */
  listPrunable(
    guildId: string,
    options: { joinedBefore: number; includeRoleIds: readonly string[] },
  ): Promise<string[]>;
}

export interface BanRepository {
  /** Creates a ban; false (nothing changed) when the user is already banned. */
  create(ban: BanRecord): Promise<boolean>;
  find(guildId: string, userId: string): Promise<BanRecord | null>;
  /** By user id ascending; `before` without `after` gives the last `limit` below it. */
  list(guildId: string, query: BanQuery): Promise<BanRecord[]>;
  /** Returns whether the ban existed. */
  delete(guildId: string, userId: string): Promise<boolean>;
}

/** A channel permission overwrite: type 0 targets a role, 1 a member. */
export interface OverwriteRecord {
  channelId: string;
  targetId: string;
  type: 0 | 1;
  allow: bigint;
  deny: bigint;
}

export interface OverwriteRepository {
  listByChannel(channelId: string): Promise<OverwriteRecord[]>;
  /** Every overwrite of the given channels, for permission checks over a guild's channels. */
  listByChannels(channelIds: readonly string[]): Promise<OverwriteRecord[]>;
  /** Creates or replaces; returns whether one existed before. */
  put(overwrite: OverwriteRecord): Promise<boolean>;
  /** Returns whether one existed. */
  delete(channelId: string, targetId: string): Promise<boolean>;
}

/** A voice channel's status: ephemeral, never a field of the channel object (spec). */
export interface VoiceStatusRecord {
  channelId: string;
  status: string;
  updatedAt: number;
}

export interface VoiceStatusRepository {
  find(channelId: string): Promise<VoiceStatusRecord | null>;
  put(record: VoiceStatusRecord): Promise<void>;
  /** Returns whether there was a status. */
  delete(channelId: string): Promise<boolean>;
}

/** One audit log entry; `changes` and `options` follow the wire shapes. */
export interface AuditLogEntryRecord {
  id: string;
  guildId: string;
  userId: string | null;
  targetId: string | null;
  actionType: number;
  changes: { key: string; old_value?: unknown; new_value?: unknown }[] | null;
  options: Record<string, string> | null;
  reason: string | null;
}

export interface AuditLogQuery {
  userId?: string;
  actionType?: number;
  before?: string;
  after?: string;
  limit: number;
}

export interface AuditLogRepository {
  append(entry: AuditLogEntryRecord): Promise<void>;
  /** Newest first, or oldest first when `after` is given (as the platform pages). */
  list(guildId: string, query: AuditLogQuery): Promise<AuditLogEntryRecord[]>;
}

/** A guild's custom emoji; its image is in the blob store under `emojis/{id}`. */
export interface EmojiRecord {
  id: string;
  guildId: string;
  name: string;
  creatorId: string | null;
  animated: boolean;
  /** Roles allowed to use it; empty means everyone. */
  roleIds: string[];
  available: boolean;
  createdAt: number;
}

export type EmojiPatch = Partial<Pick<EmojiRecord, 'name' | 'roleIds'>>;

export interface EmojiRepository {
  create(emoji: EmojiRecord): Promise<EmojiRecord>;
  findById(id: string): Promise<EmojiRecord | null>;
  listByGuild(guildId: string): Promise<EmojiRecord[]>;
  update(id: string, patch: EmojiPatch): Promise<EmojiRecord | null>;
  /** Returns whether it existed. */
  delete(id: string): Promise<boolean>;
}

/** A guild sticker; its file is in the blob store under `stickers/{id}`. */
export interface StickerRecord {
  id: string;
  guildId: string;
  name: string;
  description: string | null;
  tags: string;
  /** 1 PNG, 2 APNG, 3 LOTTIE, 4 GIF. */
  formatType: number;
  creatorId: string | null;
  available: boolean;
  createdAt: number;
}

export type StickerPatch = Partial<Pick<StickerRecord, 'name' | 'description' | 'tags'>>;

export interface StickerRepository {
  create(sticker: StickerRecord): Promise<StickerRecord>;
  findById(id: string): Promise<StickerRecord | null>;
  listByGuild(guildId: string): Promise<StickerRecord[]>;
  update(id: string, patch: StickerPatch): Promise<StickerRecord | null>;
  /** Returns whether it existed. */
  delete(id: string): Promise<boolean>;
}

/** A guild scheduled event; times are epoch ms. */
export interface ScheduledEventRecord {
  id: string;
  guildId: string;
  channelId: string | null;
  creatorId: string | null;
  name: string;
  description: string | null;
  /** Cover image hash, or null. */
  image: string | null;
  scheduledStartTime: number;
  scheduledEndTime: number | null;
  privacyLevel: number;
  status: number;
  entityType: number;
  /** entity_metadata.location of an EXTERNAL event. */
  location: string | null;
  createdAt: number;
}

export type ScheduledEventPatch = Partial<
  Omit<ScheduledEventRecord, 'id' | 'guildId' | 'creatorId' | 'createdAt'>
>;

export interface ScheduledEventRepository {
  create(event: ScheduledEventRecord): Promise<ScheduledEventRecord>;
  findById(id: string): Promise<ScheduledEventRecord | null>;
  listByGuild(guildId: string): Promise<ScheduledEventRecord[]>;
  update(id: string, patch: ScheduledEventPatch): Promise<ScheduledEventRecord | null>;
  /** Returns whether it existed. */
  delete(id: string): Promise<boolean>;
}

/** A guild invite. `expiresAt` is null for one that never expires (max_age 0). */
export interface InviteRecord {
  code: string;
  guildId: string;
  channelId: string;
  inviterId: string | null;
  maxAge: number;
  maxUses: number;
  uses: number;
  temporary: boolean;
  targetType: number | null;
  targetUserId: string | null;
  targetApplicationId: string | null;
  /** Roles given to whoever accepts. */
  roleIds: string[];
  /** Whether only the invite's target users may accept it. */
  targeted: boolean;
  createdAt: number;
  expiresAt: number | null;
}

/** The asynchronous job that replaces an invite's target users from an uploaded file. */
export interface InviteTargetJobRecord {
  code: string;
  /** The run owning the job; a newer upload takes the row over and older runs stop. */
  jobId: string;
  /** 0 UNSPECIFIED, 1 PROCESSING, 2 COMPLETED, 3 FAILED. */
  status: number;
  totalUsers: number;
  processedUsers: number;
  createdAt: number;
  completedAt: number | null;
  errorMessage: string | null;
}

/** A batch of ids staged for a target-users job. */
export interface InviteTargetJobBatch {
  seq: number;
  userIds: string[];
}

export interface InviteTargetJobClaim {
  code: string;
  jobId: string;
  owner: string;
  nowMs: number;
  untilMs: number;
}

export interface InviteRepository {
  /** Creates an invite; false (nothing written) when the code is taken. */
  create(invite: InviteRecord): Promise<boolean>;
  find(code: string): Promise<InviteRecord | null>;
  /** By creation time, oldest first. */
  listByGuild(guildId: string): Promise<InviteRecord[]>;
  listByChannel(channelId: string): Promise<InviteRecord[]>;
  /** Adds one use; returns the new count, or null when the invite is gone or used up. */
  addUse(code: string): Promise<number | null>;
  /** Marks the invite as admitting only its target users. */
  setTargeted(code: string): Promise<void>;
  /** Returns whether it existed. */
  delete(code: string): Promise<boolean>;
  /** Target user ids, ascending. */
  listTargetUsers(code: string): Promise<string[]>;
  isTargetUser(code: string, userId: string): Promise<boolean>;
  countTargetUsers(code: string): Promise<number>;
  /** Adds users (ones already listed are skipped). */
  addTargetUsers(code: string, userIds: readonly string[]): Promise<void>;
  removeTargetUsers(code: string, userIds: readonly string[]): Promise<void>;
  clearTargetUsers(code: string): Promise<void>;
  /** Creates or replaces the invite's job (with no lease: any node may claim it). */
  putJob(job: InviteTargetJobRecord): Promise<void>;
  /** Replaces the ids staged for the invite's job (every job's) with these batches, in order. */
  stageBatches(code: string, jobId: string, batches: readonly (readonly string[])[]): Promise<void>;
  /** The job's first staged batch, or null when none is left. */
  nextBatch(code: string, jobId: string): Promise<InviteTargetJobBatch | null>;
  dropBatch(code: string, jobId: string, seq: number): Promise<void>;
  /**
   * Takes or renews the lease of a PROCESSING job for `owner` until `untilMs`, when the job is
   * still `jobId`'s and its lease is free, run out at `nowMs`, or already the owner's. Returns
   * whether it did: one conditional UPDATE, so of two nodes claiming at once only one wins.
   */
  claimJob(claim: InviteTargetJobClaim): Promise<boolean>;
  /** Frees the owner's lease of the job (its node stops; another may take the job at once). */
  releaseJob(code: string, jobId: string, owner: string): Promise<void>;
  /** PROCESSING jobs whose lease is free or has run out at `nowMs`. */
  listClaimableJobs(nowMs: number): Promise<{ code: string; jobId: string }[]>;
  findJob(code: string): Promise<InviteTargetJobRecord | null>;
  /**
   * Updates the job only while `jobId` still owns it; returns whether it did (false: the job
   * was replaced or the invite deleted).
   */
  updateJob(
    code: string,
    jobId: string,
    patch: Partial<
      Pick<InviteTargetJobRecord, 'status' | 'processedUsers' | 'completedAt' | 'errorMessage'>
    >,
  ): Promise<boolean>;
}

/** A user's connected account on another service (GET /users/@me/connections). */
export interface ConnectionRecord {
  userId: string;
  /** The service, as the wire names it (`github`, `riotgames`, ...). */
  type: string;
  /** The account's id on that service. */
  id: string;
  name: string | null;
  verified: boolean;
  friendSync: boolean;
  showActivity: boolean;
  twoWayLink: boolean;
  /** 0 NONE, 1 EVERYONE. */
  visibility: number;
  revoked: boolean;
  /** 'A' or 'B' for the spec's two game-publisher kinds, else null. */
  publisherKind: 'A' | 'B' | null;
  /** Made through the Social SDK and application identities (a "new" connection). */
  applicationIdentity: boolean;
  createdAt: number;
}

export interface ConnectionRepository {
  /** Creates or replaces the user's connection of that type and id. */
  put(connection: ConnectionRecord): Promise<void>;
  /** By type, then id. */
  listByUser(userId: string): Promise<ConnectionRecord[]>;
}

export type OutboxStatus = 'pending' | 'delivered' | 'failed';

/** A webhook event waiting in (or done with) the durable outbox; times are epoch ms. */
export interface OutboxEventRecord {
  id: string;
  applicationId: string;
  eventType: string;
  /** The event object `{type, timestamp, data}` as JSON text, exactly as the envelope holds it. */
  event: string;
  status: OutboxStatus;
  /** Attempts started so far (a claim counts one). */
  attempts: number;
  createdAt: number;
  /** When a worker may next claim it (a claim moves it one lease ahead). */
  nextAttemptAt: number;
  /** After this, a failed attempt marks the event failed instead of scheduling another. */
  giveUpAt: number;
  finishedAt: number | null;
  lastError: string | null;
}

export type NewOutboxEvent = Pick<
  OutboxEventRecord,
  'id' | 'applicationId' | 'eventType' | 'event' | 'createdAt' | 'giveUpAt'
>;

/** One delivery attempt: an HTTP status when the app answered, else the error. */
export interface OutboxAttemptRecord {
  outboxId: string;
  attempt: number;
  startedAt: number;
  durationMs: number;
  httpStatus: number | null;
  error: string | null;
}

/** The outcome of an attempt, and what becomes of the event. */
export interface OutboxAttemptResult {
  attempt: OutboxAttemptRecord;
  next: { status: 'delivered' | 'failed'; at: number } | { status: 'pending'; retryAt: number };
}

export interface OutboxRepository {
  /** Writes a pending event, due at once. Call it inside the transaction of the change. */
  enqueue(event: NewOutboxEvent): Promise<void>;
  /**
   * Claims up to `limit` pending events due at `now`, oldest due first: each gets one more
   * attempt and is moved `leaseMs` ahead, so an event whose worker died is claimed again after
   * the lease. One statement; on PostgreSQL rows another claimer holds are skipped
   * (FOR UPDATE SKIP LOCKED), so concurrent claimers never get the same row.
   */
  claimDue(options: { now: number; limit: number; leaseMs: number }): Promise<OutboxEventRecord[]>;
  /**
   * Records an attempt and the event's next state, only if the attempt is still the event's
   * latest claim (false when the lease ran out and another claim superseded it).
   */
  finishAttempt(result: OutboxAttemptResult): Promise<boolean>;
  findById(id: string): Promise<OutboxEventRecord | null>;
  /** The application's events, newest first, below `before` when given. */
  listByApplication(
    applicationId: string,
    options: { limit: number; before?: string },
  ): Promise<OutboxEventRecord[]>;
  /** The attempts of the given events, by event id then attempt. */
  listAttempts(outboxIds: readonly string[]): Promise<OutboxAttemptRecord[]>;
}

import type { ProvisionalRepository } from './provisional.js';

/** A member connected to a voice channel (gateway op 4). */
export interface VoiceStateRecord {
  guildId: string;
  userId: string;
  channelId: string;
  sessionId: string;
  selfMute: boolean;
  selfDeaf: boolean;
  selfVideo: boolean;
  joinedAt: number;
}

/** A privileged intent approval: valid until `expiresAt`, or `pending` while in review. */
export interface IntentApprovalRecord {
  applicationId: string;
  intent: 'GUILD_MEMBERS' | 'GUILD_PRESENCES' | 'MESSAGE_CONTENT';
  status: 'approved' | 'pending';
  approvedAt: number | null;
  expiresAt: number | null;
}

/** A resumable gateway session as another node needs it, with its replay buffer. */
export interface GatewaySessionRecord {
  id: string;
  userId: string;
  /** The session's settings as JSON (intents, shard, guilds...). */
  state: string;
  seq: number;
  updatedAt: number;
}

export interface GatewayReplayEntry {
  sessionId: string;
  seq: number;
  type: string;
  /** `d` as JSON. */
  data: string;
}

/** Who sees a user's custom status (spec, Gateway events: Presence Update). */
export type ProfilePrivacy = 'everyone' | 'friends' | 'friends_and_small_servers';

/** The gateway's own tables. */
export interface GatewayRepository {
  listVoiceStates(guildIds: readonly string[]): Promise<VoiceStateRecord[]>;
  findVoiceState(guildId: string, userId: string): Promise<VoiceStateRecord | null>;
  /** Whether the user is connected to this voice channel. */
  isInVoiceChannel(userId: string, channelId: string): Promise<boolean>;
  putVoiceState(state: VoiceStateRecord): Promise<void>;
  deleteVoiceState(guildId: string, userId: string): Promise<boolean>;
  countInVoiceChannel(channelId: string): Promise<number>;
  /** Voice session start times (epoch ms) of the given channels that have one. */
  voiceStartTimes(channelIds: readonly string[]): Promise<Map<string, number>>;
  setVoiceStartTime(channelId: string, startedAt: number | null): Promise<void>;
  listIntentApprovals(applicationId: string): Promise<IntentApprovalRecord[]>;
  putIntentApproval(approval: IntentApprovalRecord): Promise<void>;
  privateChannelObfuscation(applicationId: string): Promise<boolean>;
  setPrivateChannelObfuscation(applicationId: string, on: boolean): Promise<void>;
  profilePrivacy(userId: string): Promise<ProfilePrivacy>;
  setProfilePrivacy(userId: string, setting: ProfilePrivacy): Promise<void>;
  saveSession(session: GatewaySessionRecord): Promise<void>;
  findSession(id: string): Promise<GatewaySessionRecord | null>;
  deleteSession(id: string): Promise<void>;
  /** Appends replay entries; a session keeps about its last `keep` (trimmed every 64th). */
  appendReplay(entries: readonly GatewayReplayEntry[], keep: number): Promise<void>;
  /** A session's entries after `seq`, in order. */
  replaySince(sessionId: string, seq: number): Promise<GatewayReplayEntry[]>;
}

/** The repositories, as seen both outside and inside a transaction. */
export interface Repositories {
  /** Whether these repositories run inside `Storage.transaction`. */
  readonly inTransaction: boolean;
  readonly users: UserRepository;
  readonly applications: ApplicationRepository;
  readonly tokens: TokenRepository;
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
  readonly blobRefs: BlobReferenceRepository;
}

/** Secrets the server makes at first start, shared by every node through the database. */
export interface ServerSecretRepository {
  /** The secret named `name`: `candidate` when none was stored yet, else the stored one. */
  getOrCreate(name: string, candidate: string, createdAt: number): Promise<string>;
}

/** Which blobs rows point at: the orphan sweep's question, and what a deletion frees. */
export interface BlobReferenceRepository {
  /** Those of `keys` some row still points at (a key of an unknown layout always counts). */
  referenced(keys: readonly string[]): Promise<Set<string>>;
  /** Ids of the attachments of the messages a scope names (all given conditions hold). */
  attachmentIds(scope: {
    guildId?: string;
    channelId?: string;
    authorId?: string;
    messageIds?: readonly string[];
  }): Promise<string[]>;
}

export type StorageDialect = 'sqlite' | 'postgres';

export interface Storage extends Repositories {
  readonly dialect: StorageDialect;
  /**
   * Runs `fn` in one database transaction: every write inside commits together or not at all.
   * Calls nested inside `fn` must use the repositories passed to it.
   */
  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T>;
  /** Round-trips to the database; used by the health check. */
  ping(): Promise<void>;
  close(): Promise<void>;
}
