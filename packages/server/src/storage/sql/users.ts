import { sql, type Kysely, type RawBuilder, type Selectable } from 'kysely';
import type { PrimaryGuildRecord } from '../types/gameStats.js';
import type { NewUser, UserPatch, UserRecord, UserRepository } from '../types/users.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { bool, flag, id, int, intOrNull } from './rows.js';
import type { Database, UsersTable } from './schema.js';

/**
 * The user's primary guild as the user read gives it: `guild_id enabled tag badge`, separated by
 * spaces (tags and badges hold none), an empty tag or badge for none; null without a choice, or
 * once the user is no longer the member who made it (left, or left and joined again since).
 */
function primaryGuildOf(packed: string | null): PrimaryGuildRecord | null {
  if (packed === null) return null;
  const [guildId = '', enabled = '0', tag = '', badge = ''] = packed.split(' ');
  // The guild dropped its tag: the system cleared it.
  if (tag === '') return { guildId, enabled: null, tag: null, badge: null };
  if (Number(enabled) === 0) return { guildId, enabled: false, tag: null, badge: null };
  return { guildId, enabled: true, tag, badge: badge === '' ? null : badge };
}

/** A users row with its primary guild columns. */
type UserRow = Selectable<UsersTable> & { primary_guild: string | null };

function toUser(row: UserRow): UserRecord {
  return {
    id: id(row.id),
    username: row.username,
    discriminator: row.discriminator,
    globalName: row.global_name,
    avatar: row.avatar,
    banner: row.banner,
    accentColor: intOrNull(row.accent_color),
    bio: row.bio,
    bot: bool(row.bot),
    system: bool(row.system),
    email: row.email,
    verified: bool(row.verified),
    passwordHash: row.password_hash,
    flags: int(row.flags),
    premiumType: int(row.premium_type),
    locale: row.locale,
    mfaEnabled: bool(row.mfa_enabled),
    createdAt: int(row.created_at),
    primaryGuild: primaryGuildOf(row.primary_guild),
  };
}

function patchColumns(patch: UserPatch) {
  return {
    username: patch.username,
    discriminator: patch.discriminator,
    global_name: patch.globalName,
    avatar: patch.avatar,
    banner: patch.banner,
    accent_color: patch.accentColor,
    bio: patch.bio,
    email: patch.email,
    verified: patch.verified === undefined ? undefined : flag(patch.verified),
    password_hash: patch.passwordHash,
    flags: patch.flags,
    premium_type: patch.premiumType,
    locale: patch.locale,
  };
}

export function createUserRepository(db: Kysely<Database>): UserRepository {
  /**
   * Users with their primary guild, one correlated subquery by primary keys (a user without one
   * costs one probe of user_primary_guilds). Raw SQL: through the query builder the same read
   * costs ~30 µs more to compile, and it runs on every authentication miss and message list.
   */
  const FROM_USERS = sql`SELECT users.*, (
      SELECT CAST(pg.guild_id AS TEXT) || ' ' || CAST(pg.enabled AS TEXT) || ' ' ||
        COALESCE(pgt.tag, '') || ' ' || COALESCE(pgt.badge, '')
      FROM user_primary_guilds pg
      JOIN members pgm ON pgm.guild_id = pg.guild_id AND pgm.user_id = pg.user_id
        AND pgm.joined_at <= pg.updated_at
      LEFT JOIN guild_tags pgt ON pgt.guild_id = pg.guild_id
      WHERE pg.user_id = users.id
    ) AS primary_guild
    FROM users`;
  const selectUsers = async (where: RawBuilder<unknown>) =>
    (await sql<UserRow>`${FROM_USERS} WHERE ${where}`.execute(db)).rows;
  const selectUser = async (where: RawBuilder<unknown>) => (await selectUsers(where)).at(0);
  return {
    async create(user: NewUser) {
      const row = {
        ...patchColumns(user),
        id: user.id,
        username: user.username,
        global_name: user.globalName ?? null,
        avatar: user.avatar ?? null,
        banner: user.banner ?? null,
        accent_color: user.accentColor ?? null,
        email: user.email ?? null,
        verified: flag(user.verified ?? false),
        password_hash: user.passwordHash ?? null,
        flags: user.flags ?? 0,
        premium_type: user.premiumType ?? 0,
        bot: flag(user.bot ?? false),
        system: flag(user.system ?? false),
        mfa_enabled: flag(user.mfaEnabled ?? false),
        created_at: user.createdAt,
      };
      await conflictsAsStorageErrors(db.insertInto('users').values(row).execute());
      const created = await selectUser(sql`users.id = ${user.id}`);
      if (created === undefined) throw new Error(`user ${user.id} vanished after its insert`);
      return toUser(created);
    },
    async findById(userId) {
      const row = await selectUser(sql`users.id = ${userId}`);
      return row ? toUser(row) : null;
    },
    async findByIds(userIds) {
      if (userIds.length === 0) return [];
      const ids = [...new Set(userIds)].map((userId) => sql`${userId}`);
      const rows = await selectUsers(sql`users.id IN (${sql.join(ids)})`);
      return rows.map(toUser);
    },
    async findByEmail(email) {
      const row = await selectUser(sql`users.email = ${email}`);
      return row ? toUser(row) : null;
    },
    async findByUsername(username) {
      const row = await selectUser(sql`users.username = ${username} AND users.bot = 0`);
      return row ? toUser(row) : null;
    },
    async update(userId, patch) {
      const columns = patchColumns(patch);
      if (Object.values(columns).some((v) => v !== undefined)) {
        await conflictsAsStorageErrors(
          db.updateTable('users').set(columns).where('id', '=', userId).execute(),
        );
      }
      const row = await selectUser(sql`users.id = ${userId}`);
      return row ? toUser(row) : null;
    },
    async findNsfwAllowed(userId) {
      const row = await db
        .selectFrom('user_nsfw_allowed')
        .select('allowed')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      return row === undefined ? null : bool(row.allowed);
    },
    async setNsfwAllowed(userId, allowed) {
      if (allowed === null) {
        await db.deleteFrom('user_nsfw_allowed').where('user_id', '=', userId).execute();
        return;
      }
      await db
        .insertInto('user_nsfw_allowed')
        .values({ user_id: userId, allowed: flag(allowed) })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ allowed: flag(allowed) }))
        .execute();
    },
  };
}
