import type { Kysely, Selectable } from 'kysely';
import type { ConnectionRecord, ConnectionRepository } from '../types/users.js';
import { bool, flag, id, int } from './rows.js';
import type { Database, UserConnectionsTable } from './schema.js';

function publisherKind(value: string | null): ConnectionRecord['publisherKind'] {
  return value === 'A' || value === 'B' ? value : null;
}

function toConnection(row: Selectable<UserConnectionsTable>): ConnectionRecord {
  return {
    userId: id(row.user_id),
    type: row.type,
    id: row.id,
    name: row.name,
    verified: bool(row.verified),
    friendSync: bool(row.friend_sync),
    showActivity: bool(row.show_activity),
    twoWayLink: bool(row.two_way_link),
    visibility: int(row.visibility),
    revoked: bool(row.revoked),
    publisherKind: publisherKind(row.publisher_kind),
    applicationIdentity: bool(row.application_identity),
    createdAt: int(row.created_at),
  };
}

export function createConnectionRepository(db: Kysely<Database>): ConnectionRepository {
  return {
    async put(connection) {
      const values = {
        name: connection.name,
        verified: flag(connection.verified),
        friend_sync: flag(connection.friendSync),
        show_activity: flag(connection.showActivity),
        two_way_link: flag(connection.twoWayLink),
        visibility: connection.visibility,
        revoked: flag(connection.revoked),
        publisher_kind: connection.publisherKind,
        application_identity: flag(connection.applicationIdentity),
        created_at: connection.createdAt,
      };
      await db
        .insertInto('user_connections')
        .values({ user_id: connection.userId, type: connection.type, id: connection.id, ...values })
        .onConflict((oc) => oc.columns(['user_id', 'type', 'id']).doUpdateSet(values))
        .execute();
    },
    async listByUser(userId) {
      const rows = await db
        .selectFrom('user_connections')
        .selectAll()
        .where('user_id', '=', userId)
        .orderBy('type')
        .orderBy('id')
        .execute();
      return rows.map(toConnection);
    },
  };
}
