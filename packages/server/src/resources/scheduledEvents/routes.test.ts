import { PERMISSION_ENFORCEMENT_DATES, PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  DAY_MS,
  PNG_1X1,
  ROOMY_LIMITS,
  botWith,
  seedGuild,
} from '../../../test/support/expressionFixtures.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';
import { apiRequest } from '../../../test/support/inject.js';

interface ScheduledEvent {
  id: string;
  status: number;
  image: string | null;
  creator?: { id: string };
}

const SPLIT_MS = PERMISSION_ENFORCEMENT_DATES.CREATE_EVENTS;
const iso = (ms: number) => new Date(ms).toISOString();

describeDrivers('guild scheduled events on $driver', (driver) => {
  let server: TestServer;
  let fx: Awaited<ReturnType<typeof seedGuild>>;
  const clock = manualClock(SPLIT_MS + DAY_MS);

  const shared = useFileServer({ storage: driver, clock, ...ROOMY_LIMITS });
  beforeEach(async () => {
    clock.set(SPLIT_MS + DAY_MS);
    server = shared.server;
    fx = await seedGuild(server.app);
  });

  const base = () => `/guilds/${fx.guildId}/scheduled-events`;
  const events = () => server.app.storage.scheduledEvents.listByGuild(fx.guildId);
  const audit = () => server.app.storage.auditLog.list(fx.guildId, { limit: 100 });
  const send = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: { auth: string; body?: unknown; reason?: string },
  ) => {
    const res = await apiRequest(server.app, `${method} ${path}`, {
      auth: options.auth,
      payload: options.body,
      headers: options.reason === undefined ? {} : { 'x-audit-log-reason': options.reason },
    });
    expectOpenApiResponse(res, method, path.split('?')[0] ?? path);
    return res;
  };
  const external = (extra: Record<string, unknown> = {}) => ({
    name: 'Meetup',
    privacy_level: 2,
    entity_type: 3,
    scheduled_start_time: iso(clock.now() + DAY_MS),
    scheduled_end_time: iso(clock.now() + 2 * DAY_MS),
    entity_metadata: { location: 'The park' },
    ...extra,
  });
  const voice = (extra: Record<string, unknown> = {}) => ({
    name: 'Voice hangout',
    privacy_level: 2,
    entity_type: 2,
    channel_id: fx.voiceId,
    scheduled_start_time: iso(clock.now() + DAY_MS),
    ...extra,
  });

  it('creates, lists, reads, moves through its statuses and deletes', async () => {
    const created = await send('POST', base(), {
      auth: fx.ownerAuth,
      body: external({ description: 'Bring snacks', image: PNG_1X1 }),
      reason: 'plan',
    });
    expect(created.statusCode).toBe(200);
    const event = created.json<ScheduledEvent>();
    expect(event).toMatchObject({
      guild_id: fx.guildId,
      name: 'Meetup',
      description: 'Bring snacks',
      channel_id: null,
      creator_id: fx.owner.userId,
      creator: { id: fx.owner.userId },
      status: 1,
      entity_type: 3,
      entity_id: null,
      entity_metadata: { location: 'The park' },
      privacy_level: 2,
      recurrence_rule: null,
      guild_scheduled_event_exceptions: [],
    });
    expect(event).not.toHaveProperty('user_count');
    const cover = await server.app.http.inject({
      url: `/guild-events/${event.id}/${event.image ?? ''}.png`,
    });
    expect(cover.statusCode).toBe(200);

    const stage = await send('POST', base(), {
      auth: fx.ownerAuth,
      body: voice({ name: 'Talk', entity_type: 1, channel_id: fx.stageId }),
    });
    expect(stage.json()).toMatchObject({
      entity_type: 1,
      channel_id: fx.stageId,
      entity_metadata: null,
    });
    const inVoice = await send('POST', base(), { auth: fx.ownerAuth, body: voice() });
    expect(inVoice.json()).toMatchObject({
      entity_type: 2,
      channel_id: fx.voiceId,
      scheduled_end_time: null,
    });

    const list = await send('GET', `${base()}?with_user_count=true`, { auth: fx.ownerAuth });
    expect(list.statusCode).toBe(200);
    expect(list.json<{ user_count: number }[]>().map((e) => e.user_count)).toEqual([0, 0, 0]);
    const one = await send('GET', `${base()}/${event.id}`, { auth: fx.ownerAuth });
    expect(one.json()).toEqual(event);

    for (const status of [2, 3]) {
      const moved = await send('PATCH', `${base()}/${event.id}`, {
        auth: fx.ownerAuth,
        body: { status },
        reason: 'progress',
      });
      expect(moved.statusCode).toBe(200);
      expect(moved.json()).toMatchObject({ status });
    }
    const canceled = await send('PATCH', `${base()}/${inVoice.json<ScheduledEvent>().id}`, {
      auth: fx.ownerAuth,
      body: { status: 4, name: 'Called off' },
    });
    expect(canceled.json()).toMatchObject({ status: 4, name: 'Called off' });
    // Moved from a voice channel to somewhere else: the channel goes, a location comes.
    const moved = await send('PATCH', `${base()}/${stage.json<ScheduledEvent>().id}`, {
      auth: fx.ownerAuth,
      body: {
        entity_type: 3,
        channel_id: null,
        entity_metadata: { location: 'Online' },
        scheduled_end_time: iso(clock.now() + 3 * DAY_MS),
      },
    });
    expect(moved.json()).toMatchObject({
      entity_type: 3,
      channel_id: null,
      entity_metadata: { location: 'Online' },
    });

    const deleted = await send('DELETE', `${base()}/${event.id}`, {
      auth: fx.ownerAuth,
      reason: 'over',
    });
    expect(deleted.statusCode).toBe(204);
    expect(
      (await send('GET', `${base()}/${event.id}`, { auth: fx.ownerAuth })).json(),
    ).toMatchObject({
      code: 10070,
    });
    const entries = (await audit()).filter((e) => e.targetId === event.id);
    expect(entries.map((e) => [e.actionType, e.reason])).toEqual([
      [102, 'over'],
      [101, 'progress'],
      [101, 'progress'],
      [100, 'plan'],
    ]);
    expect(entries[2]?.changes).toEqual([{ key: 'status', old_value: 1, new_value: 2 }]);
  });

  it('creating needs MANAGE_EVENTS before 2026-02-23 and CREATE_EVENTS after', async () => {
    const manager = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'manager',
      permissions: P.MANAGE_EVENTS,
    });
    const creator = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'creator',
      permissions: P.CREATE_EVENTS,
    });
    clock.set(SPLIT_MS - DAY_MS);
    const early = await send('POST', base(), { auth: creator.auth, body: external() });
    expect(early.statusCode).toBe(403);
    expect(early.json()).toMatchObject({ code: 50013 });
    expect(await events()).toEqual([]);
    expect((await send('POST', base(), { auth: manager.auth, body: external() })).statusCode).toBe(
      200,
    );
    clock.set(SPLIT_MS);
    expect((await send('POST', base(), { auth: manager.auth, body: external() })).statusCode).toBe(
      403,
    );
    expect(await events()).toHaveLength(1);
    expect((await send('POST', base(), { auth: creator.auth, body: external() })).statusCode).toBe(
      200,
    );
  });

  it("CREATE_EVENTS edits one's own event; others' need MANAGE_EVENTS", async () => {
    const alice = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'alice',
      permissions: P.CREATE_EVENTS,
    });
    const bob = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'bob',
      permissions: P.CREATE_EVENTS,
    });
    const manager = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'manager',
      permissions: P.MANAGE_EVENTS,
    });
    const event = (
      await send('POST', base(), { auth: alice.auth, body: external() })
    ).json<ScheduledEvent>();
    expect(
      (await send('PATCH', `${base()}/${event.id}`, { auth: alice.auth, body: { name: 'Mine' } }))
        .statusCode,
    ).toBe(200);
    const before = await events();
    const entries = (await audit()).length;
    expect(
      (await send('PATCH', `${base()}/${event.id}`, { auth: bob.auth, body: { name: 'Theirs' } }))
        .statusCode,
    ).toBe(403);
    expect((await send('DELETE', `${base()}/${event.id}`, { auth: bob.auth })).statusCode).toBe(
      403,
    );
    expect(await events()).toEqual(before);
    expect(await audit()).toHaveLength(entries);
    expect(
      (await send('PATCH', `${base()}/${event.id}`, { auth: manager.auth, body: { status: 4 } }))
        .statusCode,
    ).toBe(200);
    expect((await send('DELETE', `${base()}/${event.id}`, { auth: manager.auth })).statusCode).toBe(
      204,
    );
  });

  it('a channel event needs VIEW_CHANNEL and CONNECT in its channel', async () => {
    const host = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'host',
      permissions: P.CREATE_EVENTS,
    });
    await server.app.storage.overwrites.put({
      channelId: fx.voiceId,
      targetId: fx.guildId,
      type: 0,
      allow: 0n,
      deny: P.CONNECT,
    });
    const refused = await send('POST', base(), { auth: host.auth, body: voice() });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 50013 });
    expect(await events()).toEqual([]);
    // The owner can; the host then neither sees nor edits it.
    const event = (
      await send('POST', base(), { auth: fx.ownerAuth, body: voice() })
    ).json<ScheduledEvent>();
    expect((await send('GET', base(), { auth: host.auth })).json()).toEqual([]);
    expect((await send('GET', `${base()}/${event.id}`, { auth: host.auth })).statusCode).toBe(404);
  });

  it('bad input gets its code and changes nothing', async () => {
    const event = (
      await send('POST', base(), { auth: fx.ownerAuth, body: external() })
    ).json<ScheduledEvent>();
    await send('PATCH', `${base()}/${event.id}`, { auth: fx.ownerAuth, body: { status: 2 } });
    const before = await events();
    const entries = (await audit()).length;
    const cases: [string, 'GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown, number, number][] =
      [
        ['unknown event', 'GET', `${base()}/1234`, undefined, 404, 10070],
        ['unknown event patch', 'PATCH', `${base()}/1234`, { name: 'x' }, 404, 10070],
        ['malformed event id', 'DELETE', `${base()}/abc`, undefined, 404, 10070],
        ['unknown guild', 'GET', '/guilds/1234/scheduled-events', undefined, 404, 10004],
        [
          'start in the past',
          'POST',
          base(),
          external({ scheduled_start_time: iso(clock.now() - 1000) }),
          400,
          50035,
        ],
        [
          'end before start',
          'POST',
          base(),
          external({ scheduled_end_time: iso(clock.now()) }),
          400,
          50035,
        ],
        [
          'external without location',
          'POST',
          base(),
          external({ entity_metadata: {} }),
          400,
          50035,
        ],
        [
          'external without end',
          'POST',
          base(),
          external({ scheduled_end_time: null }),
          400,
          50035,
        ],
        [
          'external with a channel',
          'POST',
          base(),
          external({ channel_id: fx.voiceId }),
          400,
          50035,
        ],
        ['voice without channel', 'POST', base(), voice({ channel_id: null }), 400, 50035],
        ['voice in a text channel', 'POST', base(), voice({ channel_id: fx.textId }), 400, 50035],
        ['stage in a voice channel', 'POST', base(), voice({ entity_type: 1 }), 400, 50035],
        ['voice in an unknown channel', 'POST', base(), voice({ channel_id: '1234' }), 404, 10003],
        ['name too long', 'POST', base(), external({ name: 'x'.repeat(101) }), 400, 50035],
        ['empty name', 'POST', base(), external({ name: '' }), 400, 50035],
        [
          'description too long',
          'POST',
          base(),
          external({ description: 'x'.repeat(1001) }),
          400,
          50035,
        ],
        ['privacy level 1', 'POST', base(), external({ privacy_level: 1 }), 400, 50035],
        ['entity type 4', 'POST', base(), external({ entity_type: 4 }), 400, 50035],
        [
          'start not a date',
          'POST',
          base(),
          external({ scheduled_start_time: 'tomorrow' }),
          400,
          50035,
        ],
        [
          'image not an image',
          'POST',
          base(),
          external({ image: 'data:image/png;base64,aGVsbG8=' }),
          400,
          50035,
        ],
        ['ACTIVE back to SCHEDULED', 'PATCH', `${base()}/${event.id}`, { status: 1 }, 400, 50035],
        ['ACTIVE to CANCELED', 'PATCH', `${base()}/${event.id}`, { status: 4 }, 400, 50035],
        [
          'status of the wrong type',
          'PATCH',
          `${base()}/${event.id}`,
          { status: 'done' },
          400,
          50035,
        ],
        [
          'with_user_count not a boolean',
          'GET',
          `${base()}?with_user_count=maybe`,
          undefined,
          400,
          50035,
        ],
      ];
    for (const [label, method, path, body, status, code] of cases) {
      const res = await send(method, path, { auth: fx.ownerAuth, body });
      expect([label, res.statusCode, res.json<{ code: number }>().code]).toEqual([
        label,
        status,
        code,
      ]);
    }
    expect(await events()).toEqual(before);
    expect(await audit()).toHaveLength(entries);
  });
});
