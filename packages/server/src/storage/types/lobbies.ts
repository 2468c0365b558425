/** Lobbies of the Social SDK: the lobby, its members, its messages and their moderation data. */

/** A string-to-string map (lobby, member and message metadata). */
export type LobbyMetadata = Record<string, string>;

/** A lobby; times are epoch ms. */
export interface LobbyRecord {
  id: string;
  applicationId: string;
  metadata: LobbyMetadata | null;
  flags: number;
  idleTimeoutSeconds: number;
  linkedChannelId: string | null;
  overrideEventWebhooksUrl: string | null;
  /** The hash of the PUT /lobbies secret (null for lobbies made by POST /lobbies). */
  secretHash: string | null;
  secretExpiresAt: number | null;
  createdAt: number;
  /** When its last member left (null while it has members or never had one). */
  emptiedAt: number | null;
}

export interface LobbyMemberRecord {
  lobbyId: string;
  userId: string;
  metadata: LobbyMetadata | null;
  flags: number;
  additionalName: string | null;
  joinedAt: number;
}

/**
 * A lobby member in the lobby's voice call (gateway op 4 with `guild_id: null`, migration 0035):
 * one call per user per application at a time.
 */
export interface LobbyVoiceStateRecord {
  lobbyId: string;
  userId: string;
  /** The lobby's application. */
  applicationId: string;
  /** The gateway session (an SDK session of the application) in the call. */
  sessionId: string;
  selfMute: boolean;
  selfDeaf: boolean;
  joinedAt: number;
}

export interface LobbyMessageRecord {
  id: string;
  lobbyId: string;
  authorId: string;
  applicationId: string;
  content: string;
  metadata: LobbyMetadata | null;
  flags: number;
  additionalName: string | null;
  createdAt: number;
  editedAt: number | null;
}

export type LobbyPatch = Partial<
  Pick<
    LobbyRecord,
    | 'metadata'
    | 'flags'
    | 'idleTimeoutSeconds'
    | 'linkedChannelId'
    | 'overrideEventWebhooksUrl'
    | 'secretHash'
    | 'secretExpiresAt'
    | 'emptiedAt'
  >
>;

export interface LobbyRepository {
  /** Writes a new lobby; false when its (application, secret) pair is taken. */
  create(lobby: LobbyRecord): Promise<boolean>;
  findById(id: string): Promise<LobbyRecord | null>;
  /** The application's lobby holding this secret hash, expired or not. */
  findBySecret(applicationId: string, secretHash: string): Promise<LobbyRecord | null>;
  update(id: string, patch: LobbyPatch): Promise<void>;
  /** Deletes the lobby with its members, voice states and messages; false when there was none. */
  delete(id: string): Promise<boolean>;
  /** Lobbies without members whose idle timeout has run out at `now` (emptied or created then). */
  listExpiredEmpty(now: number, limit: number): Promise<LobbyRecord[]>;

  /**
   * Holds the lobby's row until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite writes one
   * transaction at a time): joins to one lobby are counted against its size one by one.
   */
  lock(lobbyId: string): Promise<void>;

  listMembers(lobbyId: string): Promise<LobbyMemberRecord[]>;
  findMember(lobbyId: string, userId: string): Promise<LobbyMemberRecord | null>;
  /** Inserts or replaces a member. */
  putMember(member: LobbyMemberRecord): Promise<void>;
  /** False when the user was not a member. Their voice state in the lobby goes with it. */
  removeMember(lobbyId: string, userId: string): Promise<boolean>;
  countMembers(lobbyId: string): Promise<number>;
  /** How many lobbies of the application the user is in. */
  countLobbiesOfUser(userId: string, applicationId: string): Promise<number>;
  /** The lobbies of the application the user is in, oldest first (an SDK session's READY). */
  listLobbiesOfUser(userId: string, applicationId: string): Promise<LobbyRecord[]>;
  /** The application's lobbies linked to any of these channels, oldest first. */
  listLinkedToChannels(
    applicationId: string,
    channelIds: readonly string[],
  ): Promise<LobbyRecord[]>;
  /** Whether a lobby other than `lobbyId`, of any application, is linked to the channel. */
  isChannelLinkedElsewhere(channelId: string, lobbyId: string): Promise<boolean>;
  /**
   * Moves every membership of `fromUserId` (of one application's lobbies when given) to
   * `toUserId`; where both are members, the target's membership stays and the source's goes.
   * Returns the lobby ids moved.
   */
  moveMemberships(fromUserId: string, toUserId: string, applicationId?: string): Promise<string[]>;

  /** The lobby's call, first joined first. */
  listVoiceStates(lobbyId: string): Promise<LobbyVoiceStateRecord[]>;
  findVoiceState(lobbyId: string, userId: string): Promise<LobbyVoiceStateRecord | null>;
  /** The call of the application's lobbies the user is in, if any (one at a time). */
  findVoiceStateOfUser(
    userId: string,
    applicationId: string,
  ): Promise<LobbyVoiceStateRecord | null>;
  /** The calls one gateway session is in (at most one per application). */
  listVoiceStatesOfSession(sessionId: string): Promise<LobbyVoiceStateRecord[]>;
  /**
   * Inserts or replaces the user's voice state in the lobby; the caller ends the user's call in
   * another lobby of the application first (one at a time, a unique key holds it).
   */
  putVoiceState(state: LobbyVoiceStateRecord): Promise<void>;
  /** False when the user was not in the lobby's call. */
  deleteVoiceState(lobbyId: string, userId: string): Promise<boolean>;

  createMessage(message: LobbyMessageRecord): Promise<void>;
  findMessage(lobbyId: string, messageId: string): Promise<LobbyMessageRecord | null>;
  /** The newest messages created at or after `since`, newest first. */
  listMessages(
    lobbyId: string,
    options: { since: number; limit: number },
  ): Promise<LobbyMessageRecord[]>;
  /** Writes an edited message's content, metadata and edited_at. */
  updateMessage(
    messageId: string,
    patch: Pick<LobbyMessageRecord, 'content' | 'metadata' | 'editedAt'>,
  ): Promise<void>;
  /** Deletes the message and every application's moderation metadata of it; false when none. */
  deleteMessage(lobbyId: string, messageId: string): Promise<boolean>;

  /** Replaces an application's moderation metadata of a message (an empty map removes it). */
  putModeration(input: {
    messageId: string;
    applicationId: string;
    metadata: LobbyMetadata;
    updatedAt: number;
  }): Promise<void>;
  /** Removes every application's moderation metadata of the message (its content changed). */
  clearModeration(messageId: string): Promise<void>;
  /** The application's moderation metadata of each listed message that has some. */
  listModeration(
    applicationId: string,
    messageIds: readonly string[],
  ): Promise<Map<string, LobbyMetadata>>;
}
