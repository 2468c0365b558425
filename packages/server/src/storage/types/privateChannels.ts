/** Private channels (DMs and group DMs), their recipients and DM moderation metadata (0021). */

import type { ChannelRecord } from './channels.js';

/** A user in a private channel. */
export interface ChannelRecipientRecord {
  userId: string;
  /** A group DM nickname given at creation, or null. */
  nick: string | null;
  /** False once the user closed the DM; the next message opens it again. */
  open: boolean;
}

/** A DM (type 1) or group DM (type 3) with its recipients. */
export interface PrivateChannelRecord {
  channel: ChannelRecord;
  /** The group DM's owner; null for DMs. */
  ownerId: string | null;
  /** The group DM's icon hash; null for DMs. */
  icon: string | null;
  /** In the order they joined (user id order within one insert). */
  recipients: ChannelRecipientRecord[];
}

export interface NewPrivateChannel {
  channel: ChannelRecord;
  ownerId: string | null;
  icon: string | null;
  /** A DM's pair key (`dmKey`), null for group DMs. */
  dmKey: string | null;
  /** `open`: whether the channel shows in the user's list from the start. */
  recipients: readonly { userId: string; nick: string | null; open: boolean }[];
}

/** An application's moderation metadata of one DM message. */
export interface DmModerationMetadataRecord {
  messageId: string;
  applicationId: string;
  metadata: Record<string, string>;
  updatedAt: number;
}

/** The key that makes a DM unique per pair of users, and per application for game DMs. */
export function dmKey(userA: string, userB: string, applicationId: string | null): string {
  const [low, high] = BigInt(userA) < BigInt(userB) ? [userA, userB] : [userB, userA];
  return applicationId === null ? `${low}:${high}` : `${low}:${high}:${applicationId}`;
}

export interface PrivateChannelRepository {
  /**
   * Creates the channel and its recipients. A DM whose key exists already is not created:
   * returns false (the caller reads the existing one).
   */
  create(channel: NewPrivateChannel): Promise<boolean>;
  /** The DM of a pair key, or null. */
  findByDmKey(key: string): Promise<PrivateChannelRecord | null>;
  /** A private channel by id; null for unknown ids and guild channels. */
  find(channelId: string): Promise<PrivateChannelRecord | null>;
  /** The private channels a user has open, newest activity first. */
  listOpenFor(userId: string): Promise<PrivateChannelRecord[]>;
  /** Opens or closes the channel in the users' lists. */
  setOpen(channelId: string, userIds: readonly string[], open: boolean): Promise<void>;
  /** Adds a recipient; false when it is one already. */
  addRecipient(
    channelId: string,
    recipient: { userId: string; nick: string | null; open: boolean },
  ): Promise<boolean>;
  /** Hands a group DM to another owner. */
  setOwner(channelId: string, ownerId: string): Promise<void>;
  /** Removes a recipient; returns whether it was one. */
  removeRecipient(channelId: string, userId: string): Promise<boolean>;
  /**
   * Deletes every DM (type 1) the user is in, with its messages, and hands the group DMs it owns
   * to their next recipient (deleting those with nobody else); returns the deleted DMs' ids.
   */
  deleteDmsOf(userId: string): Promise<string[]>;
  putModerationMetadata(record: DmModerationMetadataRecord): Promise<void>;
  findModerationMetadata(
    messageId: string,
    applicationId: string,
  ): Promise<DmModerationMetadataRecord | null>;
  /** Drops every application's metadata of a message (its content changed). */
  clearModerationMetadata(messageId: string): Promise<void>;
}
