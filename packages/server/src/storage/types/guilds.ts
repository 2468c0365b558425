/** Guilds and the guild list of a user. */

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
