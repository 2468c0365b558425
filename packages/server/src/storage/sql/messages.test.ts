import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { newPlaceMessage, openMessagePlace } from '../../../test/support/messageStorage.js';
import { manualClock } from '../../domain/clock.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import type { NewMessage } from '../types/messages.js';
import type { Storage } from '../types/storage.js';

describeDrivers('message repositories on $driver', (driver) => {
  let storage: Storage;
  let dispose: () => Promise<void>;
  const clock = manualClock(Date.UTC(2026, 5, 1));
  const nextId = createSnowflakeGenerator({ clock, workerId: 2 });
  let channelId: string;
  let guildId: string;
  let authorId: string;

  beforeEach(async () => {
    ({ storage, dispose, authorId, guildId, channelId } = await openMessagePlace(driver, {
      prefix: 'messages',
      ids: nextId,
      clock,
    }));
  });
  afterEach(async () => {
    await dispose();
  });

  const message = (extra: Partial<NewMessage> = {}): NewMessage =>
    newPlaceMessage({ authorId, guildId, channelId }, { ids: nextId, clock }, extra);

  it('round-trips a message with JSON fields, attachments and a reference', async () => {
    const first = message();
    await storage.messages.create(first);
    const second = message({
      type: 19,
      content: `'; DROP TABLE messages; --`,
      embeds: [{ type: 'rich', title: 't', fields: [{ name: 'n', value: 'v', inline: false }] }],
      mentionUserIds: ['18446744073709551615'],
      mentionRoleIds: [guildId],
      mentionEveryone: true,
      tts: true,
      nonce: 'n',
      reference: { type: 0, channelId, messageId: first.id, guildId },
    });
    second.attachments = [
      {
        id: nextId(),
        messageId: second.id,
        channelId,
        position: 0,
        filename: 'a.txt',
        description: 'd',
        contentType: 'text/plain',
        size: 3,
        flags: 8,
        title: null,
      },
    ];
    await storage.messages.create(second);
    expect(await storage.messages.findById(channelId, second.id)).toEqual({
      ...second,
      pinnedAt: null,
      editedAt: null,
    });
    expect((await storage.channels.findById(channelId))?.lastMessageId).toBe(second.id);
    expect((await storage.messages.findByIds([first.id, second.id, '1'])).length).toBe(2);
    expect(await storage.messages.findById(nextId(), second.id)).toBeNull();
  });

  it('pages around, before and after; nonces, slowmode and ban windows', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const m = message({ nonce: `n${String(i)}` });
      await storage.messages.create(m);
      ids.push(m.id);
    }
    const list = async (query: Parameters<Storage['messages']['list']>[1]) =>
      (await storage.messages.list(channelId, query)).map((m) => m.id);
    expect(await list({ limit: 10 })).toEqual([...ids].reverse());
    expect(await list({ limit: 2, before: ids[2] })).toEqual([ids[1], ids[0]]);
    expect(await list({ limit: 2, after: ids[2] })).toEqual([ids[4], ids[3]]);
    expect(await list({ limit: 4, around: ids[2] })).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    const since = ids[1] ?? '';
    expect(
      (await storage.messages.findByNonce({ channelId, authorId, nonce: 'n3', sinceId: since }))
        ?.id,
    ).toBe(ids[3]);
    expect(
      await storage.messages.findByNonce({ channelId, authorId, nonce: 'n0', sinceId: since }),
    ).toBeNull();
    expect(await storage.messages.lastPostedAt({ channelId, authorId, sinceId: since })).toBe(
      clock.now(),
    );
    const window = await storage.messages.listIdsByAuthor({
      channelIds: [channelId],
      authorId,
      sinceId: ids[3] ?? '',
    });
    expect(window.map((row) => row.id).sort()).toEqual([ids[3], ids[4]].sort());
    expect(await storage.messages.delete(channelId, [ids[0] ?? '', '1'])).toEqual([ids[0]]);
  });

  it('pins, edits, attachment replacement and reaction summaries', async () => {
    const m = message();
    const attachment = (position: number) => ({
      id: nextId(),
      messageId: m.id,
      channelId,
      position,
      filename: `f${String(position)}`,
      description: null,
      contentType: null,
      size: 1,
      flags: 0,
      title: null,
    });
    m.attachments = [attachment(0), attachment(1)];
    await storage.messages.create(m);
    expect(await storage.messages.setPinnedAt(channelId, m.id, 5)).toBe(true);
    expect(await storage.messages.countPins(channelId)).toBe(1);
    expect((await storage.messages.listPins(channelId, { limit: 5, before: 5 })).length).toBe(0);
    await storage.messages.update(channelId, m.id, { content: 'edited', editedAt: 9 });
    const added = attachment(1);
    const removed = await storage.messages.replaceAttachments(m.id, {
      kept: [{ id: m.attachments[1]?.id ?? '', position: 0, description: 'kept', flags: 8 }],
      added: [added],
    });
    expect(removed.map((a) => a.id)).toEqual([m.attachments[0]?.id]);
    const stored = await storage.messages.findById(channelId, m.id);
    expect(stored).toMatchObject({ content: 'edited', editedAt: 9, pinnedAt: 5 });
    expect(stored?.attachments.map((a) => [a.id, a.description, a.flags])).toEqual([
      [m.attachments[1]?.id, 'kept', 8],
      [added.id, null, 0],
    ]);

    const other = nextId();
    const react = (emojiKey: string, userId: string, type: 0 | 1 = 0) => {
      clock.advance(1);
      return storage.reactions.add({
        messageId: m.id,
        emojiKey,
        emojiId: null,
        emojiName: emojiKey,
        animated: false,
        type,
        userId,
        createdAt: clock.now(),
      });
    };
    expect(await react('b', authorId)).toBe(true);
    expect(await react('b', authorId)).toBe(false);
    await react('a', other);
    await react('b', other, 1);
    expect(await storage.reactions.summarize([m.id], authorId)).toEqual([
      expect.objectContaining({ emojiKey: 'b', normal: 1, burst: 1, me: true, meBurst: false }),
      expect.objectContaining({ emojiKey: 'a', normal: 1, burst: 0, me: false }),
    ]);
    expect(await storage.reactions.countEmojis(m.id)).toBe(2);
    expect(await storage.reactions.listUsers(m.id, { emojiKey: 'b', type: 0, limit: 5 })).toEqual([
      authorId,
    ]);
    expect(await storage.reactions.removeAll(m.id, 'b')).toBe(2);
    expect(await storage.reactions.hasEmoji(m.id, 'b')).toBe(false);
    // Deleting the message takes its reactions and attachments with it.
    await storage.messages.delete(channelId, [m.id]);
    expect(await storage.reactions.countEmojis(m.id)).toBe(0);
  });

  it('deletes everything a user wrote or reacted with, and nothing else', async () => {
    const gone = message({ authorId: '4242' });
    const kept = message();
    await storage.messages.create(gone);
    await storage.messages.create(kept);
    await storage.reactions.add({
      messageId: kept.id,
      emojiKey: '👍',
      emojiId: null,
      emojiName: '👍',
      animated: false,
      type: 0,
      userId: '4242',
      createdAt: clock.now(),
    });
    expect(await storage.messages.deleteAllByUser('4242')).toBe(1);
    expect(await storage.messages.findById(channelId, gone.id)).toBeNull();
    expect(await storage.messages.findById(channelId, kept.id)).not.toBeNull();
    expect(await storage.reactions.countEmojis(kept.id)).toBe(0);
  });
});
