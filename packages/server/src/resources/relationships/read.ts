import type { RelationshipRecord, Repositories } from '../../storage/index.js';
import { serializeRelationship, type RelationshipWire } from './serialize.js';

/**
 * A user's relationships on the wire, for READY and the SDK's friends list: the platform-wide
 * ones and, given an application, that application's game relationships (with `application_id`).
 * Oldest first within each scope; rows whose user is gone are left out.
 */
export async function readRelationships(
  repos: Repositories,
  userId: string,
  applicationId: string | null = null,
): Promise<RelationshipWire[]> {
  const rows: RelationshipRecord[] = await repos.relationships.listForUser(userId);
  if (applicationId !== null) {
    rows.push(...(await repos.relationships.listForUser(userId, applicationId)));
  }
  return serializeRows(repos, rows);
}

/** Relationship rows on the wire, their users read in one query. */
export async function serializeRows(
  repos: Pick<Repositories, 'users'>,
  rows: readonly RelationshipRecord[],
): Promise<RelationshipWire[]> {
  const users = await repos.users.findByIds([...new Set(rows.map((r) => r.targetId))]);
  const byId = new Map(users.map((u) => [u.id, u]));
  return rows.flatMap((row) => {
    const target = byId.get(row.targetId);
    return target === undefined ? [] : [serializeRelationship(row, target)];
  });
}
