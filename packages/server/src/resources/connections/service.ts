import { requireScope } from '../access/index.js';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { ConnectionRecord } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { isConnectionListed } from './rules.js';

/** The OAuth2 scope a Bearer token needs to read connections. */
export const CONNECTIONS_SCOPE = 'connections';

/** A connection on the wire (ConnectedAccountResponse). */
export function serializeConnection(connection: ConnectionRecord) {
  return {
    id: connection.id,
    name: connection.name,
    type: connection.type,
    verified: connection.verified,
    friend_sync: connection.friendSync,
    show_activity: connection.showActivity,
    two_way_link: connection.twoWayLink,
    visibility: connection.visibility,
    revoked: connection.revoked,
  };
}

export type NewConnection = Omit<ConnectionRecord, 'createdAt'>;

/** The current user's connected accounts, and the operator's way to add them. */
export function createConnectionService(deps: ServiceDeps) {
  const { storage, clock } = deps;
  return {
    /**
     * GET /users/@me/connections: a Bearer token needs the `connections` scope; a session reads
     * its own user's. The game-publisher rule of rules.ts applies at the clock's now.
     */
    async list(principal: Principal) {
      requireScope(principal, CONNECTIONS_SCOPE);
      const now = clock.now();
      const connections = await storage.connections.listByUser(principal.user.id);
      return connections.filter((c) => isConnectionListed(c, now)).map(serializeConnection);
    },

    /** Adds (or replaces) a connection of a user (the `guildhall user connection add` command). */
    async add(connection: NewConnection) {
      const user = await storage.users.findById(connection.userId);
      if (user === null || user.bot) throw new ApiError('UNKNOWN_USER');
      const record: ConnectionRecord = { ...connection, createdAt: clock.now() };
      await storage.connections.put(record);
      return serializeConnection(record);
    },
  };
}

export type ConnectionService = ReturnType<typeof createConnectionService>;
