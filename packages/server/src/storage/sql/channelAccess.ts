import {
  createQueryId,
  sql,
  type CompiledQuery,
  type ExpressionBuilder,
  type InferResult,
  type Kysely,
} from 'kysely';
import * as postgresJson from 'kysely/helpers/postgres';
import * as sqliteJson from 'kysely/helpers/sqlite';
import type { ChannelAccessContext, ChannelRecord } from '../types/channels.js';
import type { StorageDialect } from '../types/storage.js';
import { toGuild } from './guilds.js';
import { toMember } from './members.js';
import { toOverwrite } from './overwrites.js';
import { toRole } from './roles.js';
import type { Database } from './schema.js';

/*
 * The permission context of a channel in one statement: the channel row, and as JSON its guild,
 * the user's membership and role ids, the guild's roles and the channel's overwrites. Every
 * message route reads it, so the SQL is compiled once per database and run with its parameters.
 * Ids are cast to text inside the JSON: snowflakes exceed a double's exact integers.
 */

/** Stand-ins compiled into the SQL's parameters, replaced by the real ids on every run. */
const CHANNEL_ID = '\u0000channel-id';
const USER_ID = '\u0000user-id';

function text(column: string) {
  return sql<string>`cast(${sql.ref(column)} as text)`;
}

function nullableText(column: string) {
  return sql<string | null>`cast(${sql.ref(column)} as text)`;
}

/**
 * A channel's newest message id (ephemeral ones left out), as a subquery of a select from
 * `channels`: the last entry of the channel's range of the partial index messages_channel_latest
 * (migration 0042), which PostgreSQL reads whatever its statistics say. On messages_channel, with
 * the ephemeral filter, it read every message of a channel that grew past its statistics (20,000
 * rows on every post's access check in latestMessage.test.ts).
 */
export function latestMessageId(eb: ExpressionBuilder<Database, 'channels'>) {
  return eb
    .selectFrom('messages')
    .select((sub) => sub.fn.max('messages.id').as('max_id'))
    .whereRef('messages.channel_id', '=', 'channels.id')
    .where('messages.ephemeral_user_id', 'is', null)
    .as('latest_message_id');
}

function buildQuery(db: Kysely<Database>, dialect: StorageDialect) {
  const json = dialect === 'postgres' ? postgresJson : sqliteJson;
  return db
    .selectFrom('channels')
    .selectAll('channels')
    .select((eb) => [
      latestMessageId(eb),
      json
        .jsonObjectFrom(
          eb
            .selectFrom('guilds')
            .select([
              text('guilds.id').as('id'),
              'guilds.name',
              'guilds.icon',
              'guilds.description',
              text('guilds.owner_id').as('owner_id'),
              'guilds.features',
              'guilds.preferred_locale',
              'guilds.created_at',
              'guilds.banner',
              'guilds.splash',
              nullableText('guilds.afk_channel_id').as('afk_channel_id'),
              'guilds.afk_timeout',
              nullableText('guilds.system_channel_id').as('system_channel_id'),
              'guilds.system_channel_flags',
              nullableText('guilds.rules_channel_id').as('rules_channel_id'),
              nullableText('guilds.public_updates_channel_id').as('public_updates_channel_id'),
              'guilds.verification_level',
              'guilds.default_message_notifications',
              'guilds.explicit_content_filter',
              'guilds.premium_progress_bar_enabled',
            ])
            .whereRef('guilds.id', '=', 'channels.guild_id'),
        )
        .as('guild'),
      json
        .jsonObjectFrom(
          eb
            .selectFrom('members')
            .select([
              text('members.guild_id').as('guild_id'),
              text('members.user_id').as('user_id'),
              'members.nick',
              'members.joined_at',
              'members.deaf',
              'members.mute',
              'members.flags',
              'members.avatar',
              'members.banner',
              'members.bio',
              'members.communication_disabled_until',
              'members.pending',
            ])
            .whereRef('members.guild_id', '=', 'channels.guild_id')
            .where('members.user_id', '=', USER_ID),
        )
        .as('member'),
      json
        .jsonArrayFrom(
          eb
            .selectFrom('member_roles')
            .select(text('member_roles.role_id').as('id'))
            .whereRef('member_roles.guild_id', '=', 'channels.guild_id')
            .where('member_roles.user_id', '=', USER_ID)
            .orderBy('member_roles.role_id'),
        )
        .as('member_roles'),
      json
        .jsonArrayFrom(
          eb
            .selectFrom('roles')
            .select([
              text('roles.id').as('id'),
              text('roles.guild_id').as('guild_id'),
              'roles.name',
              'roles.permissions',
              'roles.position',
              'roles.color',
              'roles.hoist',
              'roles.mentionable',
              'roles.managed',
              nullableText('roles.bot_user_id').as('bot_user_id'),
              'roles.flags',
              'roles.secondary_color',
              'roles.tertiary_color',
              'roles.icon',
              'roles.unicode_emoji',
            ])
            .whereRef('roles.guild_id', '=', 'channels.guild_id')
            .orderBy('roles.position')
            .orderBy('roles.id'),
        )
        .as('roles'),
      json
        .jsonArrayFrom(
          eb
            .selectFrom('permission_overwrites')
            .select([
              text('permission_overwrites.channel_id').as('channel_id'),
              text('permission_overwrites.target_id').as('target_id'),
              'permission_overwrites.type',
              'permission_overwrites.allow',
              'permission_overwrites.deny',
            ])
            .whereRef('permission_overwrites.channel_id', '=', 'channels.id')
            .orderBy('permission_overwrites.target_id'),
        )
        .as('overwrites'),
    ])
    .where('channels.id', '=', CHANNEL_ID);
}

type AccessRow = InferResult<ReturnType<typeof buildQuery>>[number];

/**
 * The compiled SQL per storage: keyed by its Kysely instance's adapter (one per instance, shared
 * by its transactions). The queries take no plugins: every storage here is a plain instance.
 */
const compiled = new WeakMap<object, CompiledQuery<AccessRow>>();

/** SQLite hands JSON back as text; PostgreSQL's driver parses it. */
function fromJson<T>(value: T): T {
  return typeof value === 'string' ? (JSON.parse(value) as T) : value;
}

/** The row mapped like the channel repository's `findById`, with the context beside it. */
export async function findAccessContext(
  db: Kysely<Database>,
  dialect: StorageDialect,
  request: {
    channelId: string;
    userId: string;
    /** The channel repository's row mapper (the row holds the channel's columns). */
    toChannel: (row: AccessRow) => ChannelRecord;
  },
): Promise<ChannelAccessContext | null> {
  const { adapter } = db.getExecutor();
  let query = compiled.get(adapter);
  if (query === undefined) {
    query = buildQuery(db, dialect).compile();
    compiled.set(adapter, query);
  }
  const parameters = query.parameters.map((value) =>
    value === CHANNEL_ID ? request.channelId : value === USER_ID ? request.userId : value,
  );
  // Named, not spread: properties after a leading spread take V8's slow path.
  const { rows } = await db.executeQuery<AccessRow>({
    query: query.query,
    sql: query.sql,
    parameters,
    queryId: createQueryId(),
  });
  const row = rows[0];
  if (row === undefined) return null;
  const channel = request.toChannel(row);
  const guildId = channel.guildId;
  const guild = fromJson(row.guild);
  if (guildId === null || guild === null) return null;
  const member = fromJson(row.member);
  const roleIds = fromJson(row.member_roles).map((role) => role.id);
  return {
    channel: { ...channel, guildId },
    guild: toGuild(guild),
    member: member === null ? null : toMember(member, roleIds),
    roles: fromJson(row.roles).map(toRole),
    overwrites: fromJson(row.overwrites).map(toOverwrite),
  };
}
