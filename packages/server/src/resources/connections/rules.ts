import type { ConnectionRecord } from '../../storage/index.js';

/**
 * The spec's two game-publisher connection kinds (Get Current User Connections): connections made
 * through the Social SDK and application identities are never returned; legacy ones stop being
 * returned from these dates (UTC midnight). Kind A is Riot Games / League of Legends
 * (docs/platform-notes.md#dated-behaviour); the sources do not name kind B, so the operator marks
 * such connections.
 */
export const LEGACY_CONNECTIONS_HIDDEN_FROM_MS = {
  A: Date.UTC(2026, 6, 10),
  B: Date.UTC(2026, 8, 22),
} as const;

/** Connection types that are kind A unless the operator says otherwise. */
export const KIND_A_TYPES: readonly string[] = ['riotgames', 'leagueoflegends'];

/** Whether GET /users/@me/connections shows this connection at `nowMs`. */
export function isConnectionListed(
  connection: Pick<ConnectionRecord, 'publisherKind' | 'applicationIdentity'>,
  nowMs: number,
): boolean {
  const kind = connection.publisherKind;
  if (kind === null) return true;
  if (connection.applicationIdentity) return false;
  return nowMs < LEGACY_CONNECTIONS_HIDDEN_FROM_MS[kind];
}
