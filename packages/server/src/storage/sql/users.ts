import type { Kysely, Selectable } from 'kysely';
import type { PrimaryGuildRecord } from '../types/gameStats.js';
import type { NewUser, UserPatch, UserRecord, UserRepository } from '../types/users.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { bool, flag, id, int, intOrNull } from './rows.js';
import type { Database, UsersTable } from './schema.js';

/** The primary guild columns the user reads join in (user_primary_guilds, members, guild_tags). */
interface PrimaryGuildColumns {
  pg_guild_id: string | bigint | null;
  pg_enabled: number | bigint | string | null;
  pg_updated_at: number | bigint | string | null;
  pg_joined_at: number | bigint | string | null;
  pg_tag: string | null;
  pg_badge: string | null;
}

/**
 * The user's primary guild: none without a choice, or once the user is no longer the member who
 * made it (left, or left and joined again since); tag and badge only while shown; enabled null
 * once the guild dropped its tag.
 */
function primaryGuildOf(row: PrimaryGuildColumns): PrimaryGuildRecord | null {
  if (row.pg_guild_id === null || row.pg_joined_at === null || row.pg_updated_at === null) {
    return null;
  }
  if (int(row.pg_joined_at) > int(row.pg_updated_at)) return null;
  const guildId = id(row.pg_guild_id);
  if (row.pg_tag === null) return { guildId, enabled: null, tag: null, badge: null };
  if (row.pg_enabled === null || !bool(row.pg_enabled)) {
    return { guildId, enabled: false, tag: null, badge: null };
  }
  return { guildId, enabled: true, tag: row.pg_tag, badge: row.pg_badge };
}

function toUser(row: Selectable<UsersTable> & PrimaryGuildColumns): UserRecord {
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
    primaryGuild: primaryGuildOf(row),
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
  const selectUser = () =>
    db
      .selectFrom('users')
      .leftJoin('user_primary_guilds as pg', 'pg.user_id', 'users.id')
      .leftJoin('members as pgm', (join) =>
        join.onRef('pgm.guild_id', '=', 'pg.guild_id').onRef('pgm.user_id', '=', 'users.id'),
      )
      .leftJoin('guild_tags as pgt', 'pgt.guild_id', 'pg.guild_id')
      .selectAll('users')
      .select([
        'pg.guild_id as pg_guild_id',
        'pg.enabled as pg_enabled',
        'pg.updated_at as pg_updated_at',
        'pgm.joined_at as pg_joined_at',
        'pgt.tag as pg_tag',
        'pgt.badge as pg_badge',
      ]);
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
      const created = await selectUser().where('id', '=', user.id).executeTakeFirstOrThrow();
      return toUser(created);
    },
    async findById(userId) {
      const row = await selectUser().where('id', '=', userId).executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async findByIds(userIds) {
      if (userIds.length === 0) return [];
      const rows = await selectUser()
        .where('id', 'in', [...new Set(userIds)])
        .execute();
      return rows.map(toUser);
    },
    async findByEmail(email) {
      const row = await selectUser().where('email', '=', email).executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async findByUsername(username) {
      const row = await selectUser()
        .where('username', '=', username)
        .where('bot', '=', 0)
        .executeTakeFirst();
      return row ? toUser(row) : null;
    },
    async update(userId, patch) {
      const columns = patchColumns(patch);
      if (Object.values(columns).some((v) => v !== undefined)) {
        await conflictsAsStorageErrors(
          db.updateTable('users').set(columns).where('id', '=', userId).execute(),
        );
      }
      const row = await selectUser().where('id', '=', userId).executeTakeFirst();
      return row ? toUser(row) : null;
    },
  };
}
