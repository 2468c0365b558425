/**
 * The rows of the lobby tables as the repository's records, and lobby metadata as stored (a JSON
 * object of strings): what lobbies.ts, lobbyVoice.ts and lobbyMessages.ts share.
 */
import type { Selectable } from 'kysely';
import type {
  LobbyMemberRecord,
  LobbyMessageRecord,
  LobbyRecord,
  LobbyMetadata,
  LobbyVoiceStateRecord,
} from '../types/lobbies.js';
import { bool, id, idOrNull, int, intOrNull } from './rows.js';
import type {
  LobbiesTable,
  LobbyMembersTable,
  LobbyMessagesTable,
  LobbyVoiceStatesTable,
} from './schema.js';

export function metadataOf(text: string | null): LobbyMetadata | null {
  if (text === null) return null;
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  return Object.fromEntries(
    Object.entries(parsed as Record<string, unknown>).map(([k, v]) => [k, String(v)]),
  );
}

export const metadataText = (metadata: LobbyMetadata | null) =>
  metadata === null ? null : JSON.stringify(metadata);

export function toLobby(row: Selectable<LobbiesTable>): LobbyRecord {
  return {
    id: id(row.id),
    applicationId: id(row.application_id),
    metadata: metadataOf(row.metadata),
    flags: int(row.flags),
    idleTimeoutSeconds: int(row.idle_timeout_seconds),
    linkedChannelId: idOrNull(row.linked_channel_id),
    overrideEventWebhooksUrl: row.override_event_webhooks_url,
    secretHash: row.secret_hash,
    secretExpiresAt: intOrNull(row.secret_expires_at),
    createdAt: int(row.created_at),
    emptiedAt: intOrNull(row.emptied_at),
  };
}

export function toMember(row: Selectable<LobbyMembersTable>): LobbyMemberRecord {
  return {
    lobbyId: id(row.lobby_id),
    userId: id(row.user_id),
    metadata: metadataOf(row.metadata),
    flags: int(row.flags),
    additionalName: row.additional_name,
    joinedAt: int(row.joined_at),
  };
}

export function toVoiceState(row: Selectable<LobbyVoiceStatesTable>): LobbyVoiceStateRecord {
  return {
    lobbyId: id(row.lobby_id),
    userId: id(row.user_id),
    applicationId: id(row.application_id),
    sessionId: row.session_id,
    selfMute: bool(row.self_mute),
    selfDeaf: bool(row.self_deaf),
    joinedAt: int(row.joined_at),
  };
}

export function toMessage(row: Selectable<LobbyMessagesTable>): LobbyMessageRecord {
  return {
    id: id(row.id),
    lobbyId: id(row.lobby_id),
    authorId: id(row.author_id),
    applicationId: id(row.application_id),
    content: row.content,
    metadata: metadataOf(row.metadata),
    flags: int(row.flags),
    additionalName: row.additional_name,
    createdAt: int(row.created_at),
    editedAt: intOrNull(row.edited_at),
  };
}
