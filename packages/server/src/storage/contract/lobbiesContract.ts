import { afterEach, beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import type { LobbyMemberRecord, LobbyRecord, LobbyVoiceStateRecord } from '../types/lobbies.js';
import type { Storage } from '../types/storage.js';
import type { StorageFixture } from './storageContract.js';

/** The lobby repository (lobbies, members, messages, moderation), on every driver. */
export function describeLobbiesContract(makeStorage: () => Promise<StorageFixture>): void {
  let fixture: StorageFixture;
  let storage: Storage;
  const clock = manualClock(Date.UTC(2026, 10, 22, 12));
  const nextId = createSnowflakeGenerator({ clock, workerId: 1 });
  let appId: string;
  let otherAppId: string;
  let ann: string;
  let bob: string;

  const newApp = async (name: string) => {
    const owner = await storage.users.create({
      id: nextId(),
      username: `${name}-owner`,
      createdAt: clock.now(),
    });
    const app = await storage.applications.create({
      id: nextId(),
      name,
      ownerId: owner.id,
      botUserId: null,
      verifyKey: 'ab'.repeat(32),
      signingKey: 'key',
      clientSecretHash: 'hash',
      flags: 0n,
      redirectUris: [],
      createdAt: clock.now(),
    });
    return app.id;
  };
  const lobby = (extra: Partial<LobbyRecord> = {}): LobbyRecord => ({
    id: nextId(),
    applicationId: appId,
    metadata: { mode: 'duel' },
    flags: 0,
    idleTimeoutSeconds: 300,
    linkedChannelId: null,
    overrideEventWebhooksUrl: null,
    secretHash: null,
    secretExpiresAt: null,
    createdAt: clock.now(),
    emptiedAt: null,
    ...extra,
  });
  const member = (lobbyId: string, userId: string, extra: Partial<LobbyMemberRecord> = {}) => ({
    lobbyId,
    userId,
    metadata: null,
    flags: 0,
    additionalName: null,
    joinedAt: clock.now(),
    ...extra,
  });

  beforeEach(async () => {
    fixture = await makeStorage();
    storage = fixture.storage;
    appId = await newApp('game');
    otherAppId = await newApp('other');
    ann = (await storage.users.create({ id: nextId(), username: 'ann', createdAt: clock.now() }))
      .id;
    bob = (await storage.users.create({ id: nextId(), username: 'bob', createdAt: clock.now() }))
      .id;
  });
  afterEach(() => fixture.dispose());

  it('creates, finds, updates and deletes a lobby with its members and messages', async () => {
    const made = lobby({ overrideEventWebhooksUrl: 'https://example.test/hook' });
    expect(await storage.lobbies.create(made)).toBe(true);
    expect(await storage.lobbies.findById(made.id)).toEqual(made);
    await storage.lobbies.update(made.id, { metadata: null, idleTimeoutSeconds: 60, emptiedAt: 5 });
    expect(await storage.lobbies.findById(made.id)).toMatchObject({
      metadata: null,
      idleTimeoutSeconds: 60,
      emptiedAt: 5,
      overrideEventWebhooksUrl: 'https://example.test/hook',
    });
    await storage.lobbies.putMember(member(made.id, ann, { metadata: { a: '1' }, flags: 1 }));
    await storage.lobbies.createMessage({
      id: nextId(),
      lobbyId: made.id,
      authorId: ann,
      applicationId: appId,
      content: 'hi',
      metadata: null,
      flags: 0,
      additionalName: null,
      createdAt: clock.now(),
      editedAt: null,
    });
    expect(await storage.lobbies.delete(made.id)).toBe(true);
    expect(await storage.lobbies.findById(made.id)).toBeNull();
    expect(await storage.lobbies.listMembers(made.id)).toEqual([]);
    expect(await storage.lobbies.delete(made.id)).toBe(false);
  });

  it('keeps a secret unique per application', async () => {
    const first = lobby({ secretHash: 'h1', secretExpiresAt: 10 });
    expect(await storage.lobbies.create(first)).toBe(true);
    expect(await storage.lobbies.create(lobby({ secretHash: 'h1' }))).toBe(false);
    expect(
      await storage.lobbies.create(lobby({ applicationId: otherAppId, secretHash: 'h1' })),
    ).toBe(true);
    expect((await storage.lobbies.findBySecret(appId, 'h1'))?.id).toBe(first.id);
    expect(await storage.lobbies.findBySecret(appId, 'h2')).toBeNull();
  });

  it('upserts and removes members, and counts them per lobby and per user and application', async () => {
    const a = lobby();
    const b = lobby();
    const other = lobby({ applicationId: otherAppId });
    for (const l of [a, b, other]) await storage.lobbies.create(l);
    await storage.lobbies.putMember(member(a.id, ann));
    await storage.lobbies.putMember(member(a.id, ann, { additionalName: 'Ace', flags: 1 }));
    await storage.lobbies.putMember(member(b.id, ann));
    await storage.lobbies.putMember(member(other.id, ann));
    await storage.lobbies.putMember(member(a.id, bob));
    expect(await storage.lobbies.findMember(a.id, ann)).toMatchObject({
      additionalName: 'Ace',
      flags: 1,
    });
    expect(await storage.lobbies.countMembers(a.id)).toBe(2);
    expect(await storage.lobbies.countLobbiesOfUser(ann, appId)).toBe(2);
    expect(await storage.lobbies.countLobbiesOfUser(ann, otherAppId)).toBe(1);
    expect((await storage.lobbies.listLobbiesOfUser(ann, appId)).map((l) => l.id)).toEqual(
      [a.id, b.id].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1)),
    );
    expect((await storage.lobbies.listLobbiesOfUser(bob, otherAppId)).map((l) => l.id)).toEqual([]);
    expect(await storage.lobbies.removeMember(a.id, bob)).toBe(true);
    expect(await storage.lobbies.removeMember(a.id, bob)).toBe(false);
    expect((await storage.lobbies.listMembers(a.id)).map((m) => m.userId)).toEqual([ann]);
  });

  it('moves memberships, keeping the target’s where both are members', async () => {
    const a = lobby();
    const b = lobby();
    const other = lobby({ applicationId: otherAppId });
    for (const l of [a, b, other]) await storage.lobbies.create(l);
    await storage.lobbies.putMember(member(a.id, ann, { additionalName: 'from' }));
    await storage.lobbies.putMember(member(b.id, ann));
    await storage.lobbies.putMember(member(other.id, ann));
    await storage.lobbies.putMember(member(b.id, bob, { additionalName: 'kept' }));
    expect((await storage.lobbies.moveMemberships(ann, bob, appId)).sort()).toEqual([a.id]);
    expect(await storage.lobbies.findMember(a.id, bob)).toMatchObject({ additionalName: 'from' });
    expect(await storage.lobbies.findMember(b.id, bob)).toMatchObject({ additionalName: 'kept' });
    expect(await storage.lobbies.findMember(b.id, ann)).toBeNull();
    // Another application's lobby stays with ann when the move names an application.
    expect(await storage.lobbies.findMember(other.id, ann)).not.toBeNull();
    expect(await storage.lobbies.moveMemberships(ann, bob)).toEqual([other.id]);
  });

  it('lists the empty lobbies whose idle timeout ran out', async () => {
    const start = clock.now();
    const emptied = lobby({ idleTimeoutSeconds: 10, emptiedAt: start + 5000 });
    const fresh = lobby({ idleTimeoutSeconds: 10 });
    const occupied = lobby({ idleTimeoutSeconds: 5 });
    for (const l of [emptied, fresh, occupied]) await storage.lobbies.create(l);
    await storage.lobbies.putMember(member(occupied.id, ann));
    expect(await storage.lobbies.listExpiredEmpty(start + 9_999, 10)).toEqual([]);
    expect((await storage.lobbies.listExpiredEmpty(start + 10_000, 10)).map((l) => l.id)).toEqual([
      fresh.id,
    ]);
    expect((await storage.lobbies.listExpiredEmpty(start + 15_000, 10)).map((l) => l.id)).toEqual([
      emptied.id,
      fresh.id,
    ]);
  });

  it('lists recent messages newest first and keeps moderation metadata per application', async () => {
    const l = lobby();
    await storage.lobbies.create(l);
    const start = clock.now();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = nextId();
      ids.push(id);
      await storage.lobbies.createMessage({
        id,
        lobbyId: l.id,
        authorId: ann,
        applicationId: appId,
        content: `m${String(i)}`,
        metadata: i === 0 ? { k: 'v' } : null,
        flags: 0,
        additionalName: null,
        createdAt: start + i * 1000,
        editedAt: null,
      });
    }
    const listed = await storage.lobbies.listMessages(l.id, { since: start + 1000, limit: 5 });
    expect(listed.map((m) => m.content)).toEqual(['m2', 'm1']);
    expect((await storage.lobbies.listMessages(l.id, { since: 0, limit: 1 }))[0]?.content).toBe(
      'm2',
    );
    expect(await storage.lobbies.findMessage(l.id, ids[0] ?? '')).toMatchObject({
      metadata: { k: 'v' },
    });

    await storage.lobbies.putModeration({
      messageId: ids[0] ?? '',
      applicationId: appId,
      metadata: { action: 'hide' },
      updatedAt: start,
    });
    await storage.lobbies.putModeration({
      messageId: ids[0] ?? '',
      applicationId: appId,
      metadata: { action: 'blur' },
      updatedAt: start,
    });
    expect(await storage.lobbies.listModeration(appId, ids)).toEqual(
      new Map([[ids[0], { action: 'blur' }]]),
    );
    expect(await storage.lobbies.listModeration(otherAppId, ids)).toEqual(new Map());
    await storage.lobbies.putModeration({
      messageId: ids[0] ?? '',
      applicationId: appId,
      metadata: {},
      updatedAt: start,
    });
    expect(await storage.lobbies.listModeration(appId, ids)).toEqual(new Map());
  });

  it('edits a message, clears its moderation and deletes it with its moderation', async () => {
    const l = lobby();
    await storage.lobbies.create(l);
    const id = nextId();
    const base = {
      id,
      lobbyId: l.id,
      authorId: ann,
      applicationId: appId,
      content: 'before',
      metadata: { k: 'v' },
      flags: 0,
      additionalName: null,
      createdAt: clock.now(),
      editedAt: null,
    };
    await storage.lobbies.createMessage(base);
    const moderate = (applicationId: string) =>
      storage.lobbies.putModeration({
        messageId: id,
        applicationId,
        metadata: { action: 'hide' },
        updatedAt: clock.now(),
      });
    await moderate(appId);
    await moderate(otherAppId);
    await storage.lobbies.updateMessage(id, {
      content: 'after',
      metadata: null,
      editedAt: clock.now() + 5,
    });
    expect(await storage.lobbies.findMessage(l.id, id)).toEqual({
      ...base,
      content: 'after',
      metadata: null,
      editedAt: clock.now() + 5,
    });
    await storage.lobbies.clearModeration(id);
    expect((await storage.lobbies.listModeration(appId, [id])).size).toBe(0);
    expect((await storage.lobbies.listModeration(otherAppId, [id])).size).toBe(0);
    await moderate(appId);
    expect(await storage.lobbies.deleteMessage(nextId(), id)).toBe(false);
    expect(await storage.lobbies.deleteMessage(l.id, id)).toBe(true);
    expect(await storage.lobbies.findMessage(l.id, id)).toBeNull();
    expect((await storage.lobbies.listModeration(appId, [id])).size).toBe(0);
    expect(await storage.lobbies.deleteMessage(l.id, id)).toBe(false);
  });

  it('keeps lobby voice states: one call per user and application, ended with the member', async () => {
    const one = lobby();
    const two = lobby();
    const other = lobby({ applicationId: otherAppId });
    for (const l of [one, two, other]) await storage.lobbies.create(l);
    for (const l of [one, two, other]) {
      await storage.lobbies.putMember(member(l.id, ann));
      await storage.lobbies.putMember(member(l.id, bob));
    }
    const voice = (
      lobbyId: string,
      userId: string,
      extra: Partial<LobbyVoiceStateRecord> = {},
    ) => ({
      lobbyId,
      userId,
      applicationId: appId,
      sessionId: `session-${userId}`,
      selfMute: false,
      selfDeaf: false,
      joinedAt: clock.now(),
      ...extra,
    });
    await storage.lobbies.putVoiceState(voice(one.id, ann, { joinedAt: 2 }));
    await storage.lobbies.putVoiceState(voice(one.id, bob, { joinedAt: 1, selfDeaf: true }));
    await storage.lobbies.putVoiceState(
      voice(other.id, ann, { applicationId: otherAppId, sessionId: 'other-session' }),
    );
    expect((await storage.lobbies.listVoiceStates(one.id)).map((v) => v.userId)).toEqual([
      bob,
      ann,
    ]);
    expect(await storage.lobbies.findVoiceState(one.id, bob)).toEqual(
      voice(one.id, bob, { joinedAt: 1, selfDeaf: true }),
    );
    expect(await storage.lobbies.findVoiceStateOfUser(ann, appId)).toMatchObject({
      lobbyId: one.id,
    });
    expect(await storage.lobbies.findVoiceStateOfUser(ann, otherAppId)).toMatchObject({
      lobbyId: other.id,
      sessionId: 'other-session',
    });
    // Replaced in place (mute, another session of the user).
    await storage.lobbies.putVoiceState(
      voice(one.id, ann, { joinedAt: 2, selfMute: true, sessionId: 'next' }),
    );
    expect(await storage.lobbies.findVoiceState(one.id, ann)).toMatchObject({
      selfMute: true,
      sessionId: 'next',
    });
    expect((await storage.lobbies.listVoiceStatesOfSession('next')).map((v) => v.lobbyId)).toEqual([
      one.id,
    ]);
    // A second call of the same application is refused by the store itself.
    await expect(storage.lobbies.putVoiceState(voice(two.id, ann))).rejects.toThrow();
    expect(await storage.lobbies.deleteVoiceState(one.id, ann)).toBe(true);
    expect(await storage.lobbies.deleteVoiceState(one.id, ann)).toBe(false);
    await storage.lobbies.putVoiceState(voice(two.id, ann));
    expect(await storage.lobbies.findVoiceStateOfUser(ann, appId)).toMatchObject({
      lobbyId: two.id,
    });
    // Leaving the lobby ends the call; deleting the lobby ends everyone's.
    await storage.lobbies.removeMember(one.id, bob);
    expect(await storage.lobbies.listVoiceStates(one.id)).toEqual([]);
    await storage.lobbies.putVoiceState(voice(two.id, bob));
    expect(await storage.lobbies.delete(two.id)).toBe(true);
    expect(await storage.lobbies.findVoiceStateOfUser(ann, appId)).toBeNull();
    expect(await storage.lobbies.findVoiceStateOfUser(bob, appId)).toBeNull();
    // Merging accounts does not carry a call over.
    const carol = (
      await storage.users.create({ id: nextId(), username: 'carol', createdAt: clock.now() })
    ).id;
    await storage.lobbies.putVoiceState(
      voice(other.id, bob, { applicationId: otherAppId, sessionId: 'bob-other' }),
    );
    await storage.lobbies.moveMemberships(bob, carol);
    expect(await storage.lobbies.listVoiceStatesOfSession('bob-other')).toEqual([]);
    expect(await storage.lobbies.findVoiceState(other.id, ann)).not.toBeNull();
  });
}
