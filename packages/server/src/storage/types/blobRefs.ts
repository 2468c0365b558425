/** Which blob-store keys rows point at. */

/** Which blobs rows point at: the orphan sweep's question, and what a deletion frees. */
export interface BlobReferenceRepository {
  /** Those of `keys` some row still points at (a key of an unknown layout always counts). */
  referenced(keys: readonly string[]): Promise<Set<string>>;
  /** Ids of the attachments of the messages a scope names (all given conditions hold). */
  attachmentIds(scope: {
    guildId?: string;
    channelId?: string;
    authorId?: string;
    messageIds?: readonly string[];
  }): Promise<string[]>;
}
