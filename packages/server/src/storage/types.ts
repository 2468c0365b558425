/**
 * The storage contract every driver implements. Services see only these interfaces and the
 * camelCase domain records below; each driver keeps its SQL and client types private.
 */

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
  /** PKCS#8 DER of the Ed25519 private key, base64. */
  signingKey: string;
  clientSecretHash: string;
  redirectUris: string[];
  interactionsEndpointUrl: string | null;
  eventWebhooksUrl: string | null;
  tags: string[];
  createdAt: number;
}

export type NewApplication = Omit<
  ApplicationRecord,
  | 'description'
  | 'icon'
  | 'flags'
  | 'botPublic'
  | 'botRequireCodeGrant'
  | 'redirectUris'
  | 'interactionsEndpointUrl'
  | 'eventWebhooksUrl'
  | 'tags'
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
}

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
}

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

export interface UserRepository {
  create(user: NewUser): Promise<UserRecord>;
  findById(id: string): Promise<UserRecord | null>;
  findByEmail(email: string): Promise<UserRecord | null>;
  findByUsername(username: string): Promise<UserRecord | null>;
  /** Applies the patch and returns the new record, or null when the user does not exist. */
  update(id: string, patch: UserPatch): Promise<UserRecord | null>;
}

export interface ApplicationRepository {
  create(app: NewApplication): Promise<ApplicationRecord>;
  findById(id: string): Promise<ApplicationRecord | null>;
  findByBotUserId(botUserId: string): Promise<ApplicationRecord | null>;
  listByOwner(ownerId: string): Promise<ApplicationRecord[]>;
  update(id: string, patch: ApplicationPatch): Promise<ApplicationRecord | null>;
}

export interface TokenRepository {
  create(token: TokenRecord): Promise<void>;
  findByHash(hash: string): Promise<TokenRecord | null>;
  /** Deletes one token; returns whether it existed. */
  delete(hash: string): Promise<boolean>;
  /** Deletes every token of a kind for a user (and application, when given); returns their hashes. */
  deleteFor(filter: { userId: string; kind: TokenKind; applicationId?: string }): Promise<string[]>;
}

export interface GuildRepository {
  create(guild: GuildRecord): Promise<GuildRecord>;
  findById(id: string): Promise<GuildRecord | null>;
  listForUser(userId: string): Promise<GuildRecord[]>;
  countForUser(userId: string): Promise<number>;
}

export interface RoleRepository {
  create(role: RoleRecord): Promise<RoleRecord>;
  listByGuild(guildId: string): Promise<RoleRecord[]>;
}

export interface ChannelRepository {
  create(channel: ChannelRecord): Promise<ChannelRecord>;
  findById(id: string): Promise<ChannelRecord | null>;
  listByGuild(guildId: string): Promise<ChannelRecord[]>;
}

export interface MemberRepository {
  /** Adds a member with its roles; a conflict if the user is already a member. */
  add(member: NewMember): Promise<MemberRecord>;
  find(guildId: string, userId: string): Promise<MemberRecord | null>;
  listByGuild(guildId: string, options: { limit: number; after?: string }): Promise<MemberRecord[]>;
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

/** The repositories, as seen both outside and inside a transaction. */
export interface Repositories {
  readonly users: UserRepository;
  readonly applications: ApplicationRepository;
  readonly tokens: TokenRepository;
  readonly guilds: GuildRepository;
  readonly roles: RoleRepository;
  readonly channels: ChannelRepository;
  readonly members: MemberRepository;
  readonly overwrites: OverwriteRepository;
  readonly auditLog: AuditLogRepository;
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
