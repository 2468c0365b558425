/** Guild expressions and events: custom emojis, stickers and scheduled events. */

/** A guild's custom emoji; its image is in the blob store under `emojis/{id}`. */
export interface EmojiRecord {
  id: string;
  guildId: string;
  name: string;
  creatorId: string | null;
  animated: boolean;
  /** Roles allowed to use it; empty means everyone. */
  roleIds: string[];
  available: boolean;
  createdAt: number;
}

export type EmojiPatch = Partial<Pick<EmojiRecord, 'name' | 'roleIds'>>;

export interface EmojiRepository {
  create(emoji: EmojiRecord): Promise<EmojiRecord>;
  findById(id: string): Promise<EmojiRecord | null>;
  listByGuild(guildId: string): Promise<EmojiRecord[]>;
  update(id: string, patch: EmojiPatch): Promise<EmojiRecord | null>;
  /** Returns whether it existed. */
  delete(id: string): Promise<boolean>;
}

/** A guild sticker; its file is in the blob store under `stickers/{id}`. */
export interface StickerRecord {
  id: string;
  guildId: string;
  name: string;
  description: string | null;
  tags: string;
  /** 1 PNG, 2 APNG, 3 LOTTIE, 4 GIF. */
  formatType: number;
  creatorId: string | null;
  available: boolean;
  createdAt: number;
}

export type StickerPatch = Partial<Pick<StickerRecord, 'name' | 'description' | 'tags'>>;

export interface StickerRepository {
  create(sticker: StickerRecord): Promise<StickerRecord>;
  findById(id: string): Promise<StickerRecord | null>;
  listByGuild(guildId: string): Promise<StickerRecord[]>;
  update(id: string, patch: StickerPatch): Promise<StickerRecord | null>;
  /** Returns whether it existed. */
  delete(id: string): Promise<boolean>;
}

/** A guild scheduled event; times are epoch ms. */
export interface ScheduledEventRecord {
  id: string;
  guildId: string;
  channelId: string | null;
  creatorId: string | null;
  name: string;
  description: string | null;
  /** Cover image hash, or null. */
  image: string | null;
  scheduledStartTime: number;
  scheduledEndTime: number | null;
  privacyLevel: number;
  status: number;
  entityType: number;
  /** entity_metadata.location of an EXTERNAL event. */
  location: string | null;
  createdAt: number;
}

export type ScheduledEventPatch = Partial<
  Omit<ScheduledEventRecord, 'id' | 'guildId' | 'creatorId' | 'createdAt'>
>;

export interface ScheduledEventRepository {
  create(event: ScheduledEventRecord): Promise<ScheduledEventRecord>;
  findById(id: string): Promise<ScheduledEventRecord | null>;
  listByGuild(guildId: string): Promise<ScheduledEventRecord[]>;
  update(id: string, patch: ScheduledEventPatch): Promise<ScheduledEventRecord | null>;
  /** Returns whether it existed. */
  delete(id: string): Promise<boolean>;
}
