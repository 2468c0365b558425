import type { Kysely, Selectable } from 'kysely';
import {
  DEFAULT_MESSAGE_POLICY,
  MESSAGE_POLICIES,
  RelationshipType,
  type MessagePolicy,
  type RelationshipRecord,
  type RelationshipRepository,
  type StoredRelationshipType,
} from '../types/relationships.js';
import { bool, flag, id, int } from './rows.js';
import type { StorageDialect } from '../types/storage.js';
import type { Database } from './schema.js';
import type { RelationshipsTable } from './relationshipsSchema.js';

/** The stored scope of platform-wide rows (application ids are snowflakes, never 0). */
const PLATFORM_SCOPE = '0';

function scopeOf(applicationId: string | null | undefined): string {
  return applicationId ?? PLATFORM_SCOPE;
}

const STORED_TYPES: ReadonlySet<number> = new Set([
  RelationshipType.FRIEND,
  RelationshipType.BLOCKED,
  RelationshipType.PENDING_INCOMING,
  RelationshipType.PENDING_OUTGOING,
  RelationshipType.IMPLICIT,
]);

function storedType(value: number): StoredRelationshipType {
  if (!STORED_TYPES.has(value)) throw new Error(`Unknown relationship type ${String(value)}`);
  return value as StoredRelationshipType;
}

function toRelationship(row: Selectable<RelationshipsTable>): RelationshipRecord {
  const scope = id(row.application_id);
  return {
    userId: id(row.user_id),
    targetId: id(row.target_id),
    applicationId: scope === PLATFORM_SCOPE ? null : scope,
    type: storedType(int(row.type)),
    nickname: row.nickname,
    isSpamRequest: bool(row.is_spam_request),
    since: int(row.since),
  };
}

function isMessagePolicy(value: string | undefined): value is MessagePolicy {
  return (MESSAGE_POLICIES as readonly string[]).includes(value ?? '');
}

function sortIds(ids: Iterable<string>): string[] {
  return [...new Set(ids)].sort((a, b) => {
    const x = BigInt(a);
    const y = BigInt(b);
    return x < y ? -1 : x > y ? 1 : 0;
  });
}

/**
 * Moves the rows of `from` to `to`: in every scope, or in `scope` only. Rows between the two are
 * dropped, and so is a moved row whose place is taken already (the one there stays).
 */
async function move(
  db: Kysely<Database>,
  { from, to, scope }: { from: string; to: string; scope: string | undefined },
): Promise<number> {
  if (from === to) return 0;
  let between = db
    .deleteFrom('relationships')
    .where((eb) =>
      eb.or([
        eb.and([eb('user_id', '=', from), eb('target_id', '=', to)]),
        eb.and([eb('user_id', '=', to), eb('target_id', '=', from)]),
      ]),
    );
  if (scope !== undefined) between = between.where('application_id', '=', scope);
  await between.execute();

  // Own rows: drop those whose (scope, target) `to` holds already, move the rest.
  let ownTaken = db
    .deleteFrom('relationships as r')
    .where('r.user_id', '=', from)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('relationships as t')
          .select('t.user_id')
          .where('t.user_id', '=', to)
          .whereRef('t.application_id', '=', 'r.application_id')
          .whereRef('t.target_id', '=', 'r.target_id'),
      ),
    );
  if (scope !== undefined) ownTaken = ownTaken.where('r.application_id', '=', scope);
  await ownTaken.execute();
  let own = db.updateTable('relationships').set({ user_id: to }).where('user_id', '=', from);
  if (scope !== undefined) own = own.where('application_id', '=', scope);
  const ownMoved = await own.executeTakeFirst();

  // The others' rows about `from`: the same, on the target side.
  let theirsTaken = db
    .deleteFrom('relationships as r')
    .where('r.target_id', '=', from)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('relationships as t')
          .select('t.user_id')
          .whereRef('t.user_id', '=', 'r.user_id')
          .whereRef('t.application_id', '=', 'r.application_id')
          .where('t.target_id', '=', to),
      ),
    );
  if (scope !== undefined) theirsTaken = theirsTaken.where('r.application_id', '=', scope);
  await theirsTaken.execute();
  let theirs = db.updateTable('relationships').set({ target_id: to }).where('target_id', '=', from);
  if (scope !== undefined) theirs = theirs.where('application_id', '=', scope);
  const theirsMoved = await theirs.executeTakeFirst();

  return Number(ownMoved.numUpdatedRows) + Number(theirsMoved.numUpdatedRows);
}

export function createRelationshipRepository(
  db: Kysely<Database>,
  dialect: StorageDialect,
): RelationshipRepository {
  const friendIdsIn = async (userId: string, scopes: readonly string[] | null) => {
    let query = db
      .selectFrom('relationships')
      .select('target_id')
      .where('user_id', '=', userId)
      .where('type', '=', RelationshipType.FRIEND);
    if (scopes !== null) query = query.where('application_id', 'in', scopes);
    const rows = await query.execute();
    return sortIds(rows.map((row) => id(row.target_id)));
  };
  return {
    async lockPair(a, b) {
      if (dialect !== 'postgres') return;
      // NO KEY UPDATE: rows elsewhere may still reference these users meanwhile.
      await db
        .selectFrom('users')
        .select('id')
        .where('id', 'in', sortIds([a, b]))
        .orderBy('id')
        .forNoKeyUpdate()
        .execute();
    },
    async get(userId, targetId, applicationId) {
      const row = await db
        .selectFrom('relationships')
        .selectAll()
        .where('user_id', '=', userId)
        .where('application_id', '=', scopeOf(applicationId))
        .where('target_id', '=', targetId)
        .executeTakeFirst();
      return row === undefined ? null : toRelationship(row);
    },
    async listForUser(userId, applicationId) {
      const rows = await db
        .selectFrom('relationships')
        .selectAll()
        .where('user_id', '=', userId)
        .where('application_id', '=', scopeOf(applicationId))
        .orderBy('since')
        .orderBy('target_id')
        .execute();
      return rows.map(toRelationship);
    },
    async listEveryScope(userId) {
      const rows = await db
        .selectFrom('relationships')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('since')
        .orderBy('application_id')
        .orderBy('target_id')
        .execute();
      return rows.map(toRelationship);
    },
    async listBetween(a, b) {
      const rows = await db
        .selectFrom('relationships')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb.and([eb('user_id', '=', a), eb('target_id', '=', b)]),
            eb.and([eb('user_id', '=', b), eb('target_id', '=', a)]),
          ]),
        )
        .orderBy('user_id')
        .orderBy('application_id')
        .execute();
      return rows.map(toRelationship);
    },
    async put(record) {
      const values = {
        type: record.type,
        nickname: record.nickname,
        is_spam_request: flag(record.isSpamRequest),
        since: record.since,
      };
      await db
        .insertInto('relationships')
        .values({
          user_id: record.userId,
          target_id: record.targetId,
          application_id: scopeOf(record.applicationId),
          ...values,
        })
        .onConflict((oc) =>
          oc.columns(['user_id', 'application_id', 'target_id']).doUpdateSet(values),
        )
        .execute();
    },
    async delete(userId, targetId, applicationId) {
      const result = await db
        .deleteFrom('relationships')
        .where('user_id', '=', userId)
        .where('application_id', '=', scopeOf(applicationId))
        .where('target_id', '=', targetId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async count(userId, type, applicationId) {
      const row = await db
        .selectFrom('relationships')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('user_id', '=', userId)
        .where('application_id', '=', scopeOf(applicationId))
        .where('type', '=', type)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async isBlockedEitherWay(a, b) {
      const row = await db
        .selectFrom('relationships')
        .select('user_id')
        .where('type', '=', RelationshipType.BLOCKED)
        .where((eb) =>
          eb.or([
            eb.and([eb('user_id', '=', a), eb('target_id', '=', b)]),
            eb.and([eb('user_id', '=', b), eb('target_id', '=', a)]),
          ]),
        )
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    async areFriends(a, b, applicationId) {
      const scopes = [PLATFORM_SCOPE, ...(applicationId == null ? [] : [applicationId])];
      const row = await db
        .selectFrom('relationships')
        .select('user_id')
        .where('user_id', '=', a)
        .where('target_id', '=', b)
        .where('application_id', 'in', scopes)
        .where('type', '=', RelationshipType.FRIEND)
        .limit(1)
        .executeTakeFirst();
      return row !== undefined;
    },
    friendIds(userId, applicationId) {
      return friendIdsIn(userId, [
        PLATFORM_SCOPE,
        ...(applicationId == null ? [] : [applicationId]),
      ]);
    },
    async blockerIds(userId) {
      const rows = await db
        .selectFrom('relationships')
        .select('user_id')
        .where('target_id', '=', userId)
        .where('type', '=', RelationshipType.BLOCKED)
        .execute();
      return sortIds(rows.map((row) => id(row.user_id)));
    },
    async blockersAmong(userId, candidateIds) {
      if (candidateIds.length === 0) return [];
      const rows = await db
        .selectFrom('relationships')
        .select('user_id')
        .where('target_id', '=', userId)
        .where('type', '=', RelationshipType.BLOCKED)
        .where('user_id', 'in', [...candidateIds])
        .execute();
      return sortIds(rows.map((row) => id(row.user_id)));
    },
    allFriendIds(userId) {
      return friendIdsIn(userId, null);
    },
    moveUser(fromUserId, toUserId) {
      return move(db, { from: fromUserId, to: toUserId, scope: undefined });
    },
    moveScope(fromUserId, toUserId, applicationId) {
      return move(db, { from: fromUserId, to: toUserId, scope: applicationId });
    },
    async messagePolicy(userId) {
      const row = await db
        .selectFrom('user_message_privacy')
        .select('setting')
        .where('user_id', '=', userId)
        .executeTakeFirst();
      const setting = row?.setting;
      return isMessagePolicy(setting) ? setting : DEFAULT_MESSAGE_POLICY;
    },
    async setMessagePolicy(userId, policy) {
      await db
        .insertInto('user_message_privacy')
        .values({ user_id: userId, setting: policy })
        .onConflict((oc) => oc.column('user_id').doUpdateSet({ setting: policy }))
        .execute();
    },
  };
}
