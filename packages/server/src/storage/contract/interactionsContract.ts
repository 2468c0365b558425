import { afterEach, beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import type { NewInteraction } from '../types/interactions.js';
import type { Storage } from '../types/storage.js';
import type { StorageFixture } from './storageContract.js';

/** The interaction repository (acknowledgement, failure, modals, expiry), on every driver. */
export function describeInteractionsContract(makeStorage: () => Promise<StorageFixture>): void {
  let fixture: StorageFixture;
  let storage: Storage;
  const clock = manualClock(Date.UTC(2026, 10, 24, 9));
  const nextId = createSnowflakeGenerator({ clock, workerId: 1 });
  let appId: string;
  let otherAppId: string;
  let ann: string;

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
  const interaction = (extra: Partial<NewInteraction> = {}): NewInteraction => ({
    id: nextId(),
    applicationId: appId,
    type: 2,
    tokenHash: `hash-${nextId()}`,
    userId: ann,
    guildId: null,
    // Above 2^53: ids must come back exactly.
    channelId: '1311111111111111111',
    messageId: null,
    nonce: 'n1',
    payload: { type: 2, data: { name: 'ping', options: [] } },
    triggeringMetadata: null,
    createdAt: clock.now(),
    ackDeadlineAt: clock.now() + 3_000,
    expiresAt: clock.now() + 15 * 60_000,
    ...extra,
  });

  beforeEach(async () => {
    fixture = await makeStorage();
    storage = fixture.storage;
    appId = await newApp('bot');
    otherAppId = await newApp('other');
    ann = (await storage.users.create({ id: nextId(), username: 'ann', createdAt: clock.now() }))
      .id;
  });
  afterEach(() => fixture.dispose());

  it('creates an interaction and finds it by id and by its application and token hash', async () => {
    const made = interaction({
      guildId: '1322222222222222222',
      messageId: '1333333333333333333',
      triggeringMetadata: { id: '1344444444444444444', type: 2 },
    });
    await storage.interactions.create(made);
    const expected = {
      ...made,
      modal: null,
      modalCustomId: null,
      responseType: null,
      originalMessageId: null,
      failedAt: null,
    };
    expect(await storage.interactions.findById(made.id)).toEqual(expected);
    expect(await storage.interactions.findByToken(appId, made.tokenHash)).toEqual(expected);
    expect(await storage.interactions.findByToken(otherAppId, made.tokenHash)).toBeNull();
    expect(await storage.interactions.findById(nextId())).toBeNull();
  });

  it('acknowledges once, and never both acknowledges and fails', async () => {
    const acked = interaction();
    const failed = interaction();
    await storage.interactions.create(acked);
    await storage.interactions.create(failed);
    expect(await storage.interactions.acknowledge(acked.id, 4)).toBe(true);
    expect(await storage.interactions.acknowledge(acked.id, 5)).toBe(false);
    expect(await storage.interactions.markFailed(acked.id, 7)).toBe(false);
    expect(await storage.interactions.findById(acked.id)).toMatchObject({
      responseType: 4,
      failedAt: null,
    });
    expect(await storage.interactions.markFailed(failed.id, 7)).toBe(true);
    expect(await storage.interactions.markFailed(failed.id, 8)).toBe(false);
    expect(await storage.interactions.acknowledge(failed.id, 4)).toBe(false);
    expect(await storage.interactions.findById(failed.id)).toMatchObject({
      responseType: null,
      failedAt: 7,
    });
  });

  it('lists the unacknowledged interactions past their deadline, oldest first', async () => {
    const now = clock.now();
    const late = interaction({ ackDeadlineAt: now - 10 });
    const later = interaction({ ackDeadlineAt: now - 5 });
    const due = interaction({ ackDeadlineAt: now });
    const pending = interaction({ ackDeadlineAt: now + 1 });
    const acked = interaction({ ackDeadlineAt: now - 20 });
    const failed = interaction({ ackDeadlineAt: now - 20 });
    for (const made of [later, late, due, pending, acked, failed]) {
      await storage.interactions.create(made);
    }
    await storage.interactions.acknowledge(acked.id, 5);
    await storage.interactions.markFailed(failed.id, now);
    const overdue = await storage.interactions.listOverdue(now, 10);
    expect(overdue.map((i) => i.id)).toEqual([late.id, later.id, due.id]);
    expect((await storage.interactions.listOverdue(now, 2)).map((i) => i.id)).toEqual([
      late.id,
      later.id,
    ]);
  });

  it('keeps the original message and the shown modal, found by custom_id until it expires', async () => {
    const older = interaction();
    const newer = interaction();
    const other = interaction({ applicationId: otherAppId });
    for (const made of [older, newer, other]) await storage.interactions.create(made);
    await storage.interactions.setOriginalMessage(older.id, '1344444444444444444');
    const modal = { custom_id: 'form', title: 'Form', components: [{ type: 18 }] };
    await storage.interactions.setModal(older.id, 'form', modal);
    await storage.interactions.setModal(newer.id, 'form', { ...modal, title: 'Newer' });
    await storage.interactions.setModal(other.id, 'form', modal);
    expect(await storage.interactions.findById(older.id)).toMatchObject({
      originalMessageId: '1344444444444444444',
      modal,
      modalCustomId: 'form',
    });
    const now = clock.now();
    const shown = await storage.interactions.findShownModal({
      applicationId: appId,
      userId: ann,
      customId: 'form',
      now,
    });
    expect(shown?.id).toBe(newer.id);
    expect(shown?.modal).toEqual({ ...modal, title: 'Newer' });
    expect(
      await storage.interactions.findShownModal({
        applicationId: appId,
        userId: ann,
        customId: 'other',
        now,
      }),
    ).toBeNull();
    expect(await storage.interactions.clearModal(newer.id)).toBe(true);
    // Taken once: a second submit at the same moment finds it gone.
    expect(await storage.interactions.clearModal(newer.id)).toBe(false);
    expect(
      (
        await storage.interactions.findShownModal({
          applicationId: appId,
          userId: ann,
          customId: 'form',
          now,
        })
      )?.id,
    ).toBe(older.id);
    expect(
      await storage.interactions.findShownModal({
        applicationId: appId,
        userId: ann,
        customId: 'form',
        now: older.expiresAt,
      }),
    ).toBeNull();
  });

  it('deletes the interactions whose token expired', async () => {
    const now = clock.now();
    const gone = interaction({ expiresAt: now - 1 });
    const edge = interaction({ expiresAt: now });
    const live = interaction({ expiresAt: now + 1 });
    for (const made of [gone, edge, live]) await storage.interactions.create(made);
    expect(await storage.interactions.deleteExpired(now)).toBe(2);
    expect(await storage.interactions.findById(gone.id)).toBeNull();
    expect(await storage.interactions.findById(edge.id)).toBeNull();
    expect(await storage.interactions.findById(live.id)).not.toBeNull();
    expect(await storage.interactions.deleteExpired(now)).toBe(0);
  });

  it('expires a live token now by its hash alone, and leaves an ended one as it was', async () => {
    const now = clock.now();
    const live = interaction();
    const ended = interaction({ expiresAt: now - 10 });
    for (const made of [live, ended]) await storage.interactions.create(made);
    expect(await storage.interactions.expireToken(live.tokenHash, now)).toBe(true);
    expect((await storage.interactions.findById(live.id))?.expiresAt).toBe(now);
    expect(await storage.interactions.expireToken(live.tokenHash, now)).toBe(false);
    expect(await storage.interactions.expireToken(ended.tokenHash, now)).toBe(false);
    expect((await storage.interactions.findById(ended.id))?.expiresAt).toBe(now - 10);
    expect(await storage.interactions.expireToken('hash-none', now)).toBe(false);
  });
}
