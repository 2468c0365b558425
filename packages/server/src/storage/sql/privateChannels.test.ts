import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { openTestStorage } from '../../../test/support/testStorage.js';
import { manualClock } from '../../domain/clock.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import { dmKey, type NewPrivateChannel } from '../types/privateChannels.js';
import type { Storage } from '../types/storage.js';

describeDrivers('private channel repository on $driver', (driver) => {
  let storage: Storage;
  let dispose: () => Promise<void>;
  const clock = manualClock(Date.UTC(2026, 5, 1));
  const nextId = createSnowflakeGenerator({ clock, workerId: 3 });
  const users: string[] = [];

  beforeEach(async () => {
    const opened = await openTestStorage(driver, { prefix: 'dms' });
    storage = opened.storage;
    dispose = () => opened.dispose();
    users.splice(0);
    for (const name of ['ann', 'bob', 'cat']) {
      users.push((await storage.users.create({ id: nextId(), username: name, createdAt: 0 })).id);
    }
  });
  afterEach(async () => {
    await dispose();
  });

  const channel = (type: number, applicationId: string | null = null) => ({
    id: nextId(),
    guildId: null,
    type,
    name: null,
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
    applicationId,
  });
  const dm = (a: string, b: string): NewPrivateChannel => ({
    channel: channel(1),
    ownerId: null,
    icon: null,
    dmKey: dmKey(a, b, null),
    recipients: [
      { userId: a, nick: null, open: true },
      { userId: b, nick: null, open: false },
    ],
  });

  it('keeps one DM per pair and key, and lists what each user has open', async () => {
    const [ann = '', bob = ''] = users;
    const first = dm(ann, bob);
    expect(await storage.privateChannels.create(first)).toBe(true);
    // The same pair from the other side: the key is the same, nothing is written.
    expect(await storage.privateChannels.create(dm(bob, ann))).toBe(false);
    expect((await storage.privateChannels.findByDmKey(dmKey(bob, ann, null)))?.channel.id).toBe(
      first.channel.id,
    );
    expect(dmKey(ann, bob, '42')).not.toBe(dmKey(ann, bob, null));
    expect((await storage.privateChannels.listOpenFor(ann)).map((c) => c.channel.id)).toEqual([
      first.channel.id,
    ]);
    expect(await storage.privateChannels.listOpenFor(bob)).toEqual([]);
    await storage.privateChannels.setOpen(first.channel.id, [bob], true);
    expect(await storage.privateChannels.listOpenFor(bob)).toHaveLength(1);
    // A guild channel id is no private channel.
    expect(await storage.privateChannels.find(nextId())).toBeNull();
  });

  it("deleting a user's DMs takes their messages; its group DMs pass on", async () => {
    const [ann = '', bob = '', cat = ''] = users;
    const direct = dm(ann, bob);
    await storage.privateChannels.create(direct);
    await storage.messages.create({
      id: nextId(),
      channelId: direct.channel.id,
      guildId: null,
      authorId: bob,
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
      createdAt: clock.now(),
      attachments: [],
      activity: { type: 1, partyId: 'p' },
    });
    const [stored] = await storage.messages.list(direct.channel.id, { limit: 1 });
    expect(stored?.activity).toEqual({ type: 1, partyId: 'p' });
    const group = {
      channel: channel(3),
      ownerId: ann,
      icon: null,
      dmKey: null,
      recipients: [ann, bob, cat].map((userId) => ({ userId, nick: null, open: true })),
    };
    await storage.privateChannels.create(group);
    const alone = {
      channel: channel(3),
      ownerId: ann,
      icon: null,
      dmKey: null,
      recipients: [{ userId: ann, nick: null, open: true }],
    };
    await storage.privateChannels.create(alone);

    expect(await storage.privateChannels.deleteDmsOf(ann)).toEqual([direct.channel.id]);
    expect(await storage.privateChannels.find(direct.channel.id)).toBeNull();
    expect(await storage.messages.list(direct.channel.id, { limit: 10 })).toEqual([]);
    const passed = await storage.privateChannels.find(group.channel.id);
    expect(passed?.ownerId).toBe([bob, cat].sort()[0]);
    expect(await storage.privateChannels.find(alone.channel.id)).toBeNull();
  });
});
