import { PermissionFlags as P } from '@guildhall/protocol';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../domain/permissions.js';
import { uniqueName, useClockedServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { DAY_MS, SPLIT_MS, botWith, seedGuild } from '../../../test/support/expressionFixtures.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';
import { recordDispatches, type DispatchRecorder } from '../../../test/support/dispatchRecorder.js';
import { apiCaller } from '../../../test/support/voiceFixture.js';

const iso = (ms: number) => new Date(ms).toISOString();

describeDrivers('scheduled event users and exceptions on $driver', (driver) => {
  let server: TestServer;
  let fx: Awaited<ReturnType<typeof seedGuild>>;
  let events: DispatchRecorder;
  let call: ReturnType<typeof apiCaller>;
  // The worker's server of the clocked API files: its route bucket is ROOMY_LIMITS' already (the
  // test server's default), and these refusals are far from its invalid request limit.
  const shared = useClockedServer({ storage: driver }, 'api-clock', {
    from: SPLIT_MS + DAY_MS,
    until: CHANNEL_LIST_VISIBILITY_FROM_MS,
  });
  const { clock } = shared;

  beforeAll(async () => {
    server = shared.server;
    events = await recordDispatches(server.app);
    call = apiCaller(server.app);
  });
  // The server outlives the file: its collector stops with the file.
  afterAll(() => {
    events.stop();
  });
  beforeEach(async () => {
    fx = await seedGuild(server.app);
  });

  /** A person in the guild, with a user session. */
  const person = async (name: string) => {
    const dev = await seedDeveloper(server.app, uniqueName(name));
    await server.app.storage.members.add({
      guildId: fx.guildId,
      userId: dev.userId,
      nick: null,
      joinedAt: clock.now(),
      deaf: false,
      mute: false,
      flags: 0,
      roleIds: [],
    });
    return { userId: dev.userId, auth: dev.userToken };
  };

  it('records interest, lists and counts users, and keeps exceptions', async () => {
    const start = clock.now() + DAY_MS;
    const created = await call('POST', `/guilds/${fx.guildId}/scheduled-events`, {
      auth: fx.ownerAuth,
      body: {
        name: 'Meetup',
        privacy_level: 2,
        entity_type: 3,
        scheduled_start_time: iso(start),
        scheduled_end_time: iso(start + 3_600_000),
        entity_metadata: { location: 'The park' },
      },
    });
    expect(created.statusCode).toBe(200);
    const eventId = created.json<{ id: string }>().id;
    const base = `/guilds/${fx.guildId}/scheduled-events/${eventId}`;
    const [ann, bob] = [await person('ann'), await person('bob')];
    await events.take();

    for (const who of [ann, bob, ann]) {
      const res = await call('PUT', `${base}/users/@me`, { auth: who.auth, clientRoute: true });
      expect(res.statusCode).toBe(204);
    }
    const added = (await events.take()).filter((e) =>
      e.type.startsWith('GUILD_SCHEDULED_EVENT_USER'),
    );
    expect(added.map((e) => [e.type, (e.data as Record<string, unknown>)['user_id']])).toEqual([
      ['GUILD_SCHEDULED_EVENT_USER_ADD', ann.userId],
      ['GUILD_SCHEDULED_EVENT_USER_ADD', bob.userId],
    ]);
    expect(added[0]?.data).toEqual({
      guild_scheduled_event_id: eventId,
      user_id: ann.userId,
      guild_id: fx.guildId,
    });

    const users = await call('GET', `${base}/users?with_member=true`, { auth: fx.ownerAuth });
    expect(users.statusCode).toBe(200);
    const listed = users.json<{ user_id: string; member?: object; response: number }[]>();
    expect(listed.map((u) => u.user_id).sort()).toEqual([ann.userId, bob.userId].sort());
    expect(listed.every((u) => u.member !== undefined && u.response === 1)).toBe(true);
    const [firstId, secondId] = listed.map((u) => u.user_id);
    const page = await call('GET', `${base}/users?limit=1&after=${firstId ?? ''}`, {
      auth: fx.ownerAuth,
    });
    expect(page.json<{ user_id: string }[]>().map((u) => u.user_id)).toEqual([secondId]);
    expect(page.json()).not.toContainEqual(
      expect.objectContaining({ member: expect.anything() as unknown }),
    );
    const withCount = await call('GET', `${base}?with_user_count=true`, { auth: fx.ownerAuth });
    expect(withCount.json()).toMatchObject({ user_count: 2 });

    // An exception moves the one occurrence; a person answers it.
    const exception = await call('POST', `${base}/exceptions`, {
      auth: fx.ownerAuth,
      body: {
        original_scheduled_start_time: iso(start),
        scheduled_start_time: iso(start + 7_200_000),
        scheduled_end_time: iso(start + 9_000_000),
      },
    });
    expect(exception.statusCode).toBe(200);
    const exceptionId = exception.json<{ event_exception_id: string }>().event_exception_id;
    expect(exception.json()).toEqual({
      event_id: eventId,
      event_exception_id: exceptionId,
      scheduled_start_time: new Date(start + 7_200_000).toISOString().replace('Z', '+00:00'),
      scheduled_end_time: new Date(start + 9_000_000).toISOString().replace('Z', '+00:00'),
      is_canceled: false,
    });
    const twice = await call('POST', `${base}/exceptions`, {
      auth: fx.ownerAuth,
      body: { original_scheduled_start_time: iso(start) },
    });
    expect(twice.json()).toMatchObject({
      code: 50035,
      errors: { original_scheduled_start_time: {} },
    });
    const notAnOccurrence = await call('POST', `${base}/exceptions`, {
      auth: fx.ownerAuth,
      body: { original_scheduled_start_time: iso(start + DAY_MS) },
    });
    expect(notAnOccurrence.json()).toMatchObject({ code: 50035 });
    const backwards = await call('PATCH', `${base}/exceptions/${exceptionId}`, {
      auth: fx.ownerAuth,
      body: { scheduled_end_time: iso(start) },
    });
    expect(backwards.json()).toMatchObject({ code: 50035, errors: { scheduled_end_time: {} } });
    const canceled = await call('PATCH', `${base}/exceptions/${exceptionId}`, {
      auth: fx.ownerAuth,
      body: { is_canceled: true },
    });
    expect(canceled.json()).toMatchObject({ is_canceled: true });
    const event = await call('GET', base, { auth: fx.ownerAuth });
    expect(event.json()).toMatchObject({ guild_scheduled_event_exceptions: [canceled.json()] });

    const occurrence = `${base}/${exceptionId}/users/@me`;
    expect(
      (await call('PUT', occurrence, { auth: bob.auth, body: { response: 0 }, clientRoute: true }))
        .statusCode,
    ).toBe(204);
    expect((await call('PUT', occurrence, { auth: ann.auth, clientRoute: true })).statusCode).toBe(
      204,
    );
    const answered = await call('GET', `${base}/${exceptionId}/users`, { auth: fx.ownerAuth });
    expect(
      answered
        .json<{ user_id: string; response: number; guild_scheduled_event_exception_id: string }[]>()
        .map((u) => [u.user_id, u.response, u.guild_scheduled_event_exception_id])
        .sort(),
    ).toEqual(
      [
        [ann.userId, 1, exceptionId],
        [bob.userId, 0, exceptionId],
      ].sort(),
    );
    const counts = await call(
      'GET',
      `${base}/users/counts?guild_scheduled_event_exception_ids=${exceptionId}`,
      { auth: fx.ownerAuth },
    );
    expect(counts.json()).toEqual({
      guild_scheduled_event_count: 2,
      guild_scheduled_event_exception_counts: { [exceptionId]: 1 },
    });

    // Interest withdrawn; an unknown exception; a member without rights; then the exception goes.
    expect(
      (await call('DELETE', `${base}/users/@me`, { auth: bob.auth, clientRoute: true })).statusCode,
    ).toBe(204);
    const removed = (await events.take()).filter(
      (e) => e.type === 'GUILD_SCHEDULED_EVENT_USER_REMOVE',
    );
    expect(
      removed.map((e) => [
        (e.data as Record<string, unknown>)['user_id'],
        (e.data as Record<string, unknown>)['guild_scheduled_event_exception_id'],
      ]),
    ).toEqual([
      [bob.userId, exceptionId],
      [bob.userId, undefined],
    ]);
    const unknown = await call('GET', `${base}/123/users`, { auth: fx.ownerAuth });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 10070 });
    const viewer = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'viewer',
      permissions: P.VIEW_CHANNEL,
    });
    const refused = await call('DELETE', `${base}/exceptions/${exceptionId}`, {
      auth: viewer.auth,
    });
    expect(refused.json()).toMatchObject({ code: 50013 });
    const botInterest = await call('PUT', `${base}/users/@me`, {
      auth: viewer.auth,
      clientRoute: true,
    });
    expect(botInterest.statusCode).toBe(403);
    expect(
      (await call('DELETE', `${base}/exceptions/${exceptionId}`, { auth: fx.ownerAuth }))
        .statusCode,
    ).toBe(204);
    const after = await call('GET', `${base}/users/counts`, { auth: fx.ownerAuth });
    expect(after.json()).toEqual({
      guild_scheduled_event_count: 1,
      guild_scheduled_event_exception_counts: {},
    });
    const badLimit = await call('GET', `${base}/users?limit=0`, { auth: fx.ownerAuth });
    expect(badLimit.json()).toMatchObject({ code: 50035 });
    const unknownEvent = await call('GET', `/guilds/${fx.guildId}/scheduled-events/1/users`, {
      auth: fx.ownerAuth,
    });
    expect(unknownEvent.json()).toMatchObject({ code: 10070 });
  });
});
