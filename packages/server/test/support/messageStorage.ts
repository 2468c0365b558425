/**
 * A storage with one author, one guild and one text channel for the message repository tests,
 * and messages to put there.
 *
 * @module
 */
import type { Clock } from '../../src/domain/clock.js';
import type { IdGenerator } from '../../src/domain/snowflakes.js';
import type { NewMessage, Storage } from '../../src/storage/index.js';
import type { Driver } from './drivers.js';
import { openTestStorage } from './testStorage.js';

/** Where the messages go. */
export interface MessagePlace {
  storage: Storage;
  dispose: () => Promise<void>;
  authorId: string;
  guildId: string;
  channelId: string;
}

/** Opens a storage on `driver` and makes the author ("ann"), the guild and its channel. */
export async function openMessagePlace(
  driver: Driver,
  options: { prefix: string; ids: IdGenerator; clock: Clock },
): Promise<MessagePlace> {
  const { ids, clock } = options;
  const opened = await openTestStorage(driver, { prefix: options.prefix });
  const { storage } = opened;
  const authorId = (await storage.users.create({ id: ids(), username: 'ann', createdAt: 0 })).id;
  const guildId = ids();
  await storage.guilds.create({
    id: guildId,
    name: 'g',
    icon: null,
    description: null,
    ownerId: authorId,
    features: [],
    preferredLocale: 'en-US',
    createdAt: clock.now(),
  });
  const channelId = ids();
  await storage.channels.create({
    id: channelId,
    guildId,
    type: 0,
    name: 'general',
    position: 0,
    parentId: null,
    topic: null,
    nsfw: false,
    rateLimitPerUser: 0,
    bitrate: null,
    userLimit: null,
    flags: 0,
    lastMessageId: null,
    createdAt: clock.now(),
  });
  return { storage, dispose: () => opened.dispose(), authorId, guildId, channelId };
}

/** A plain message by the author in the place's channel, one millisecond after the last. */
export function newPlaceMessage(
  place: Pick<MessagePlace, 'authorId' | 'guildId' | 'channelId'>,
  options: { ids: IdGenerator; clock: Clock & { advance(ms: number): void } },
  extra: Partial<NewMessage> = {},
): NewMessage {
  options.clock.advance(1);
  return {
    id: options.ids(),
    channelId: place.channelId,
    guildId: place.guildId,
    authorId: place.authorId,
    type: 0,
    content: 'hi',
    embeds: [],
    flags: 0,
    tts: false,
    mentionEveryone: false,
    mentionUserIds: [],
    mentionRoleIds: [],
    reference: null,
    snapshots: null,
    nonce: null,
    applicationId: null,
    webhookId: null,
    createdAt: options.clock.now(),
    attachments: [],
    ...extra,
  };
}
