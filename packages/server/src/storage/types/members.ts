/** Roles, members and bans of a guild. */

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

export interface BanRepository {
  /** Creates a ban; false (nothing changed) when the user is already banned. */
  create(ban: BanRecord): Promise<boolean>;
  find(guildId: string, userId: string): Promise<BanRecord | null>;
  /** By user id ascending; `before` without `after` gives the last `limit` below it. */
  list(guildId: string, query: BanQuery): Promise<BanRecord[]>;
  /** Returns whether the ban existed. */
  delete(guildId: string, userId: string): Promise<boolean>;
}
