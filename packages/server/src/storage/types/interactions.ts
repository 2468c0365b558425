/** Interactions people invoke and apps answer (migration 0026, docs/interactions.md). */

/** One interaction; times are epoch ms. Its token is never kept: only its sha256 (hex). */
export interface InteractionRecord {
  id: string;
  applicationId: string;
  /** 2 APPLICATION_COMMAND, 3 MESSAGE_COMPONENT, 4 AUTOCOMPLETE, 5 MODAL_SUBMIT. */
  type: number;
  tokenHash: string;
  /** The person who invoked it. */
  userId: string;
  guildId: string | null;
  channelId: string;
  /** The message a component interaction was clicked on; null for the other types. */
  messageId: string | null;
  /** The client's nonce, handed back when the interaction succeeds or fails. */
  nonce: string | null;
  /** The interaction object as delivered to the app, without its token. */
  payload: Record<string, unknown>;
  /**
   * A modal submit's: the interaction metadata of the interaction that showed the modal (its
   * messages' `triggering_interaction_metadata`); null for the other types.
   */
  triggeringMetadata: Record<string, unknown> | null;
  /** The modal the app showed in answer (MODAL callback), as validated; null when none. */
  modal: unknown;
  /** The shown modal's custom_id, which a MODAL_SUBMIT names; null when none. */
  modalCustomId: string | null;
  /** The initial response's callback type; null until the interaction was acknowledged. */
  responseType: number | null;
  /** The message the initial response created (CHANNEL_MESSAGE_WITH_SOURCE, deferred). */
  originalMessageId: string | null;
  /** When it failed for want of a response in time; null otherwise. */
  failedAt: number | null;
  createdAt: number;
  /** The initial response is due by then (3 s after creation). */
  ackDeadlineAt: number;
  /** The token's end (15 minutes after creation); the row is swept after it. */
  expiresAt: number;
}

/** A new interaction: not acknowledged, not failed, without modal or original message. */
export type NewInteraction = Omit<
  InteractionRecord,
  'modal' | 'modalCustomId' | 'responseType' | 'originalMessageId' | 'failedAt'
>;

export interface InteractionRepository {
  create(interaction: NewInteraction): Promise<void>;
  findById(id: string): Promise<InteractionRecord | null>;
  /** The application's interaction holding this token hash, expired or not. */
  findByToken(applicationId: string, tokenHash: string): Promise<InteractionRecord | null>;
  /**
   * Records the initial response, once: false when the interaction was already acknowledged
   * (the 40060 rule) or has failed (read it again to tell which). Atomic against `markFailed`.
   */
  acknowledge(id: string, responseType: number): Promise<boolean>;
  /**
   * Marks an unacknowledged interaction failed (no response in time): false when it was
   * acknowledged or failed already. Atomic against `acknowledge`.
   */
  markFailed(id: string, at: number): Promise<boolean>;
  /** Unacknowledged, not failed interactions whose deadline is at or before `now`, oldest first. */
  listOverdue(now: number, limit: number): Promise<InteractionRecord[]>;
  setOriginalMessage(id: string, messageId: string): Promise<void>;
  /** Keeps the modal shown in answer, found again by its custom_id (`findShownModal`). */
  setModal(id: string, customId: string, modal: unknown): Promise<void>;
  /**
   * The newest unexpired interaction of the application and user that showed a modal with this
   * custom_id (a MODAL_SUBMIT answers it); null when none.
   */
  findShownModal(query: {
    applicationId: string;
    userId: string;
    customId: string;
    now: number;
  }): Promise<InteractionRecord | null>;
  /**
   * Forgets a shown modal once it was submitted (a modal is submitted once): false when it was
   * forgotten already (a concurrent submit took it).
   */
  clearModal(id: string): Promise<boolean>;
  /**
   * Ends the token holding this hash at `at` (a test's "expired now"), of any application, if it
   * is still live then; returns whether one was.
   */
  expireToken(tokenHash: string, at: number): Promise<boolean>;
  /** Deletes interactions whose token expired at or before `now`; returns how many. */
  deleteExpired(now: number): Promise<number>;
}
