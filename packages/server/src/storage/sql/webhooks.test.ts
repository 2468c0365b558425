import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { newPlaceMessage, openMessagePlace } from '../../../test/support/messageStorage.js';
import { manualClock } from '../../domain/clock.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import type { NewMessage } from '../types/messages.js';
import { WebhookTypes, type WebhookRecord } from '../types/webhooks.js';
import type { Storage } from '../types/storage.js';

describeDrivers('webhooks and ephemeral messages in storage on $driver', (driver) => {
  let storage: Storage;
  let dispose: () => Promise<void>;
  const clock = manualClock(Date.UTC(2026, 5, 1));
  const nextId = createSnowflakeGenerator({ clock, workerId: 2 });
  let channelId: string;
  let guildId: string;
  let authorId: string;

  beforeEach(async () => {
    ({ storage, dispose, authorId, guildId, channelId } = await openMessagePlace(driver, {
      prefix: 'webhooks',
      ids: nextId,
      clock,
    }));
  });
  afterEach(async () => {
    await dispose();
  });

  const message = (extra: Partial<NewMessage> = {}): NewMessage =>
    newPlaceMessage({ authorId, guildId, channelId }, { ids: nextId, clock }, extra);

  it('stores, lists, counts, moves and deletes webhooks', async () => {
    const webhook = (extra: Partial<WebhookRecord> = {}): WebhookRecord => ({
      id: nextId(),
      type: WebhookTypes.INCOMING,
      guildId,
      channelId,
      creatorId: authorId,
      name: `'; DROP TABLE webhooks; --`,
      avatar: null,
      tokenHash: 'a'.repeat(64),
      tokenSealed: 'v1:sealed',
      applicationId: null,
      sourceGuildId: null,
      sourceChannelId: null,
      createdAt: clock.now(),
      ...extra,
    });
    const first = webhook();
    const second = webhook({ applicationId: '9223372036854775807', creatorId: null });
    await storage.webhooks.create(first);
    await storage.webhooks.create(second);
    expect(await storage.webhooks.findById(first.id)).toEqual(first);
    expect(await storage.webhooks.findById(second.id)).toEqual(second);
    expect((await storage.webhooks.listByChannel(channelId)).map((w) => w.id)).toEqual([
      first.id,
      second.id,
    ]);
    expect(await storage.webhooks.countByChannel(channelId)).toBe(2);
    const otherChannel = nextId();
    await storage.channels.create({
      id: otherChannel,
      guildId,
      type: 0,
      name: 'other',
      position: 1,
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
    const moved = await storage.webhooks.update(first.id, {
      channelId: otherChannel,
      name: 'renamed',
      avatar: 'b'.repeat(32),
    });
    expect(moved).toEqual({
      ...first,
      channelId: otherChannel,
      name: 'renamed',
      avatar: 'b'.repeat(32),
    });
    expect(await storage.webhooks.countByChannel(channelId)).toBe(1);
    expect((await storage.webhooks.listByGuild(guildId)).length).toBe(2);
    expect(await storage.webhooks.delete(first.id)).toBe(true);
    expect(await storage.webhooks.delete(first.id)).toBe(false);
    expect(await storage.webhooks.update(first.id, { name: 'x' })).toBeNull();
    expect(await storage.webhooks.findById(first.id)).toBeNull();
  });

  it('leaves ephemeral messages out of channel reads; findAnyById keeps them', async () => {
    const visible = message();
    await storage.messages.create(visible);
    const ephemeral = message({ flags: 64, ephemeralUserId: authorId });
    await storage.messages.create(ephemeral);
    await storage.messages.setPinnedAt(channelId, ephemeral.id, clock.now());
    expect(await storage.messages.findById(channelId, ephemeral.id)).toBeNull();
    expect(await storage.messages.findAnyById(channelId, ephemeral.id)).toMatchObject({
      id: ephemeral.id,
      ephemeralUserId: authorId,
    });
    expect(await storage.messages.findAnyById(nextId(), ephemeral.id)).toBeNull();
    expect((await storage.messages.list(channelId, { limit: 50 })).map((m) => m.id)).toEqual([
      visible.id,
    ]);
    expect(await storage.messages.findByIds([ephemeral.id, visible.id])).toHaveLength(1);
    expect(await storage.messages.listPins(channelId, { limit: 50 })).toEqual([]);
    expect(await storage.messages.countPins(channelId)).toBe(0);
    expect((await storage.channels.findById(channelId))?.lastMessageId).toBe(visible.id);
    const found = await storage.messageSearch.search({
      guildId,
      channelIds: [channelId],
      terms: null,
      sortBy: 'timestamp',
      sortOrder: 'desc',
      limit: 25,
      offset: 0,
    });
    expect(found.messageIds).toEqual([visible.id]);
  });
});
