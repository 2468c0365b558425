/**
 * Issue 18's voice-adjacent records and application data (migration 0034): soundboard sounds,
 * stage instances, scheduled event users and exceptions, application emojis, role connections
 * and activity attachments.
 */

/** A guild soundboard sound; its audio is in the blob store under `soundboard/{id}`. */
export interface SoundboardSoundRecord {
  id: string;
  guildId: string;
  name: string;
  volume: number;
  emojiId: string | null;
  emojiName: string | null;
  creatorId: string | null;
  /** audio/mpeg or audio/ogg. */
  contentType: string;
  available: boolean;
  createdAt: number;
}

export type SoundboardSoundPatch = Partial<
  Pick<SoundboardSoundRecord, 'name' | 'volume' | 'emojiId' | 'emojiName'>
>;

export interface SoundboardRepository {
  create(sound: SoundboardSoundRecord): Promise<SoundboardSoundRecord>;
  findById(id: string): Promise<SoundboardSoundRecord | null>;
  listByGuild(guildId: string): Promise<SoundboardSoundRecord[]>;
  update(id: string, patch: SoundboardSoundPatch): Promise<SoundboardSoundRecord | null>;
  /** Returns whether it existed. */
  delete(id: string): Promise<boolean>;
}

/** A live stage in a stage channel (one per channel). */
export interface StageInstanceRecord {
  id: string;
  guildId: string;
  channelId: string;
  topic: string;
  /** 1 PUBLIC (deprecated), 2 GUILD_ONLY. */
  privacyLevel: number;
  scheduledEventId: string | null;
  createdAt: number;
}

export interface StageInstanceRepository {
  create(instance: StageInstanceRecord): Promise<StageInstanceRecord>;
  findByChannel(channelId: string): Promise<StageInstanceRecord | null>;
  listByGuild(guildId: string): Promise<StageInstanceRecord[]>;
  update(
    channelId: string,
    patch: Partial<Pick<StageInstanceRecord, 'topic' | 'privacyLevel'>>,
  ): Promise<StageInstanceRecord | null>;
  /** Returns whether it existed. */
  delete(channelId: string): Promise<boolean>;
}

/** A changed or canceled occurrence of a recurring event; times are epoch ms. */
export interface ScheduledEventExceptionRecord {
  id: string;
  eventId: string;
  originalStartTime: number;
  scheduledStartTime: number | null;
  scheduledEndTime: number | null;
  isCanceled: boolean;
}

/** One user's answer: to the whole event (exceptionId null) or to one occurrence. */
export interface ScheduledEventUserRecord {
  eventId: string;
  exceptionId: string | null;
  userId: string;
  /** 1 interested, 0 not interested (an occurrence only). */
  response: number;
  createdAt: number;
}

export interface ScheduledEventUserRepository {
  /** Returns whether it was new (false when the user already answered the same). */
  putUser(user: ScheduledEventUserRecord): Promise<boolean>;
  /** Returns whether it existed. */
  deleteUser(eventId: string, exceptionId: string | null, userId: string): Promise<boolean>;
  /** Answers in user id order, `before`/`after` exclusive, at most `limit`. */
  listUsers(
    eventId: string,
    exceptionId: string | null,
    page: { limit: number; before?: string; after?: string },
  ): Promise<ScheduledEventUserRecord[]>;
  /** Interested users of the whole event, and per exception those of that occurrence. */
  countUsers(eventId: string): Promise<{ event: number; exceptions: Map<string, number> }>;
  /** Interested users of the whole event, per event id (for `user_count`). */
  countInterested(eventIds: readonly string[]): Promise<Map<string, number>>;
  createException(exception: ScheduledEventExceptionRecord): Promise<void>;
  findException(id: string): Promise<ScheduledEventExceptionRecord | null>;
  findExceptionAt(
    eventId: string,
    originalStartTime: number,
  ): Promise<ScheduledEventExceptionRecord | null>;
  listExceptions(eventId: string): Promise<ScheduledEventExceptionRecord[]>;
  updateException(
    id: string,
    patch: Partial<
      Pick<ScheduledEventExceptionRecord, 'scheduledStartTime' | 'scheduledEndTime' | 'isCanceled'>
    >,
  ): Promise<ScheduledEventExceptionRecord | null>;
  /** Deletes it and its answers; returns whether it existed. */
  deleteException(id: string): Promise<boolean>;
}

/** An application's own emoji; its image is in the blob store under `emojis/{id}`. */
export interface ApplicationEmojiRecord {
  id: string;
  applicationId: string;
  name: string;
  animated: boolean;
  creatorId: string | null;
  createdAt: number;
}

export interface ApplicationEmojiRepository {
  create(emoji: ApplicationEmojiRecord): Promise<ApplicationEmojiRecord>;
  findById(id: string): Promise<ApplicationEmojiRecord | null>;
  listByApplication(applicationId: string): Promise<ApplicationEmojiRecord[]>;
  rename(id: string, name: string): Promise<ApplicationEmojiRecord | null>;
  /** Returns whether it existed. */
  delete(id: string): Promise<boolean>;
}

/** One role connection metadata record of an application, as the wire has it. */
export interface RoleConnectionMetadataRecord {
  type: number;
  key: string;
  name: string;
  description: string;
  name_localizations?: Record<string, string> | null;
  description_localizations?: Record<string, string> | null;
}

/** A user's role connection with an application. */
export interface UserRoleConnectionRecord {
  userId: string;
  applicationId: string;
  platformName: string | null;
  platformUsername: string | null;
  metadata: Record<string, string>;
  updatedAt: number;
}

export interface RoleConnectionRepository {
  listMetadata(applicationId: string): Promise<RoleConnectionMetadataRecord[]>;
  putMetadata(
    applicationId: string,
    records: readonly RoleConnectionMetadataRecord[],
    updatedAt: number,
  ): Promise<void>;
  findConnection(userId: string, applicationId: string): Promise<UserRoleConnectionRecord | null>;
  putConnection(connection: UserRoleConnectionRecord): Promise<void>;
  /** Returns whether it existed. */
  deleteConnection(userId: string, applicationId: string): Promise<boolean>;
}

/** A file an application uploaded for its activity (`app-attachments/{id}` in the blob store). */
export interface ApplicationAttachmentRecord {
  id: string;
  applicationId: string;
  filename: string;
  contentType: string | null;
  size: number;
  width: number | null;
  height: number | null;
  createdAt: number;
}

export interface ApplicationAttachmentRepository {
  create(attachment: ApplicationAttachmentRecord): Promise<void>;
  findById(id: string): Promise<ApplicationAttachmentRecord | null>;
}
