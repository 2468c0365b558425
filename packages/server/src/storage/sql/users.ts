import type { Kysely, Selectable } from 'kysely';
import type { NewUser, UserPatch, UserRecord, UserRepository } from '../types/users.js';
import { conflictsAsStorageErrors } from './conflicts.js';
import { bool, flag, id, int, intOrNull } from './rows.js';
import type { Database, UsersTable } from './schema.js';

function toUser(row: Selectable<UsersTable>): UserRecord {
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
  const selectUser = () => db.selectFrom('users').selectAll();
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
