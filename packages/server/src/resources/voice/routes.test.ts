import { PermissionFlags as P } from '@guildhall/protocol';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../domain/permissions.js';
import { useClockedServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  DAY_MS,
  SPLIT_MS,
  botWith,
  outsider,
  seedGuild,
} from '../../../test/support/expressionFixtures.js';
import { type TestServer } from '../../../test/support/testServer.js';
import { recordDispatches, type DispatchRecorder } from '../../../test/support/dispatchRecorder.js';
import { apiCaller } from '../../../test/support/voiceFixture.js';

describeDrivers('voice regions, voice states and stage instances on $driver', (driver) => {
  let server: TestServer;
  let fx: Awaited<ReturnType<typeof seedGuild>>;
  let collected: DispatchRecorder;
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
    collected = await recordDispatches(server.app);
    call = apiCaller(server.app);
  });
  // The server outlives the file: its collector stops with the file.
  afterAll(() => {
    collected.stop();
  });
  /** The guilds this file made: what is dispatched in any of them is the file's to see. */
  const ours = new Set<string>();
  // A guild of the test's own: its voice states and stage are no other test's.
  beforeEach(async () => {
    fx = await seedGuild(server.app);
    ours.add(fx.guildId);
  });
  /**
   * The dispatches since the last look but those of other files' guilds: the server is the
   * worker's, and its sweeps may announce what other files left there. A dispatch sent to another
   * of this file's guilds by mistake still shows.
   */
  const events = {
    take: async () =>
      (await collected.take()).filter((e) => e.guildId === null || ours.has(e.guildId)),
  };

  /** Puts a user in a voice channel as op 4 would (suppressed in a stage). */
  const connect = (userId: string, channelId: string, suppress: boolean) =>
    server.app.storage.gateway.putVoiceState({
      guildId: fx.guildId,
      userId,
      channelId,
      sessionId: `session-${userId}`,
      selfMute: false,
      selfDeaf: false,
      selfVideo: false,
      joinedAt: clock.now(),
      suppress,
      requestToSpeakAt: null,
    });

  it('lists the one voice region, to anyone and to a guild member', async () => {
    const bot = await outsider(server.app);
    const all = await call('GET', '/voice/regions', { auth: bot.auth });
    expect(all.statusCode).toBe(200);
    expect(all.json()).toEqual([
      { id: 'guildhall', name: 'Guildhall', optimal: true, deprecated: false, custom: true },
    ]);
    const guild = await call('GET', `/guilds/${fx.guildId}/regions`, { auth: fx.ownerAuth });
    expect(guild.json()).toEqual(all.json());
    const stranger = await call('GET', `/guilds/${fx.guildId}/regions`, { auth: bot.auth });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json()).toMatchObject({ code: 50001 });
    const unknown = await call('GET', '/guilds/12345/regions', { auth: fx.ownerAuth });
    expect(unknown.json()).toMatchObject({ code: 10004 });
  });

  it('reads voice states and moves stage speakers, announcing VOICE_STATE_UPDATE', async () => {
    const listener = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'listener',
      permissions: P.VIEW_CHANNEL | P.CONNECT | P.REQUEST_TO_SPEAK,
    });
    const none = await call('GET', `/guilds/${fx.guildId}/voice-states/@me`, {
      auth: fx.ownerAuth,
    });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ code: 10065 });
    await connect(fx.owner.userId, fx.stageId, true);
    await connect(listener.userId, fx.stageId, true);
    await events.take();

    const mine = await call('GET', `/guilds/${fx.guildId}/voice-states/@me`, {
      auth: fx.ownerAuth,
    });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      guild_id: fx.guildId,
      channel_id: fx.stageId,
      user_id: fx.owner.userId,
      suppress: true,
      request_to_speak_timestamp: null,
      member: { user: { id: fx.owner.userId } },
    });

    // The listener raises a hand; it may not make itself a speaker.
    const raise = new Date(clock.now()).toISOString();
    const raised = await call('PATCH', `/guilds/${fx.guildId}/voice-states/@me`, {
      auth: listener.auth,
      body: { channel_id: fx.stageId, request_to_speak_timestamp: raise },
    });
    expect(raised.statusCode).toBe(204);
    const [update] = await events.take();
    expect(update).toMatchObject({
      type: 'VOICE_STATE_UPDATE',
      data: { user_id: listener.userId, suppress: true, request_to_speak_timestamp: raise },
    });
    const selfInvite = await call('PATCH', `/guilds/${fx.guildId}/voice-states/@me`, {
      auth: listener.auth,
      body: { suppress: false },
    });
    expect(selfInvite.json()).toMatchObject({ code: 50013 });

    // The owner (a stage moderator) invites the listener to speak.
    const invited = await call('PATCH', `/guilds/${fx.guildId}/voice-states/${listener.userId}`, {
      auth: fx.ownerAuth,
      body: { channel_id: fx.stageId, suppress: false },
    });
    expect(invited.statusCode).toBe(204);
    expect(
      (await events.take()).map((e) => [e.type, (e.data as Record<string, unknown>)['suppress']]),
    ).toEqual([['VOICE_STATE_UPDATE', false]]);
    const theirs = await call('GET', `/guilds/${fx.guildId}/voice-states/${listener.userId}`, {
      auth: fx.ownerAuth,
    });
    expect(theirs.json()).toMatchObject({ suppress: false, request_to_speak_timestamp: raise });
    expect(
      (await server.app.storage.gateway.findVoiceState(fx.guildId, listener.userId))?.suppress,
    ).toBe(false);

    // The listener may not move others; channel_id is required and must be theirs.
    const refused = await call('PATCH', `/guilds/${fx.guildId}/voice-states/${fx.owner.userId}`, {
      auth: listener.auth,
      body: { channel_id: fx.stageId, suppress: false },
    });
    expect(refused.json()).toMatchObject({ code: 50013 });
    const noChannel = await call('PATCH', `/guilds/${fx.guildId}/voice-states/${listener.userId}`, {
      auth: fx.ownerAuth,
      body: { suppress: true },
    });
    expect(noChannel.statusCode).toBe(400);
    expect(noChannel.json()).toMatchObject({ code: 50035, errors: { channel_id: {} } });
    const wrong = await call('PATCH', `/guilds/${fx.guildId}/voice-states/${listener.userId}`, {
      auth: fx.ownerAuth,
      body: { channel_id: fx.voiceId, suppress: true },
    });
    expect(wrong.json()).toMatchObject({ code: 50035 });
    const badTime = await call('PATCH', `/guilds/${fx.guildId}/voice-states/@me`, {
      auth: fx.ownerAuth,
      body: { request_to_speak_timestamp: 'soon' },
    });
    expect(badTime.json()).toMatchObject({ code: 50035 });

    // Outside a stage channel the routes refuse (50024).
    await connect(fx.owner.userId, fx.voiceId, false);
    const notStage = await call('PATCH', `/guilds/${fx.guildId}/voice-states/@me`, {
      auth: fx.ownerAuth,
      body: { suppress: true },
    });
    expect(notStage.json()).toMatchObject({ code: 50024 });
    const gone = await call('GET', `/guilds/${fx.guildId}/voice-states/1234`, {
      auth: fx.ownerAuth,
    });
    expect(gone.json()).toMatchObject({ code: 10065 });
    await events.take();
  });

  it('opens, reads, edits and closes a stage, with events and audit entries', async () => {
    const audience = await botWith(server.app, {
      guildId: fx.guildId,
      name: 'audience',
      permissions: P.VIEW_CHANNEL | P.CONNECT,
    });
    const refused = await call('POST', '/stage-instances', {
      auth: audience.auth,
      body: { channel_id: fx.stageId, topic: 'Town hall' },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 50013 });
    const notStage = await call('POST', '/stage-instances', {
      auth: fx.ownerAuth,
      body: { channel_id: fx.voiceId, topic: 'Town hall' },
    });
    expect(notStage.json()).toMatchObject({ code: 50024 });
    const blank = await call('POST', '/stage-instances', {
      auth: fx.ownerAuth,
      body: { channel_id: fx.stageId, topic: '' },
    });
    expect(blank.json()).toMatchObject({ code: 50035, errors: { topic: {} } });
    const unknownEvent = await call('POST', '/stage-instances', {
      auth: fx.ownerAuth,
      body: { channel_id: fx.stageId, topic: 'Town hall', guild_scheduled_event_id: '99' },
    });
    expect(unknownEvent.json()).toMatchObject({ code: 50035 });
    await events.take();

    const opened = await call('POST', '/stage-instances', {
      auth: fx.ownerAuth,
      body: { channel_id: fx.stageId, topic: 'Town hall' },
      reason: 'weekly',
    });
    expect(opened.statusCode).toBe(200);
    const stage = opened.json<{ id: string }>();
    expect(stage).toMatchObject({
      guild_id: fx.guildId,
      channel_id: fx.stageId,
      topic: 'Town hall',
      privacy_level: 2,
      guild_scheduled_event_id: null,
    });
    const again = await call('POST', '/stage-instances', {
      auth: fx.ownerAuth,
      body: { channel_id: fx.stageId, topic: 'Twice' },
    });
    expect(again.json()).toMatchObject({ code: 150006 });
    const read = await call('GET', `/stage-instances/${fx.stageId}`, { auth: audience.auth });
    expect(read.json()).toEqual(opened.json());

    const edited = await call('PATCH', `/stage-instances/${fx.stageId}`, {
      auth: fx.ownerAuth,
      body: { topic: 'Town hall, part 2' },
    });
    expect(edited.json()).toMatchObject({ id: stage.id, topic: 'Town hall, part 2' });
    const editRefused = await call('PATCH', `/stage-instances/${fx.stageId}`, {
      auth: audience.auth,
      body: { topic: 'mine' },
    });
    expect(editRefused.json()).toMatchObject({ code: 50013 });
    const closed = await call('DELETE', `/stage-instances/${fx.stageId}`, { auth: fx.ownerAuth });
    expect(closed.statusCode).toBe(204);
    const after = await call('GET', `/stage-instances/${fx.stageId}`, { auth: fx.ownerAuth });
    expect(after.statusCode).toBe(404);
    expect(after.json()).toMatchObject({ code: 10067 });
    const closedTwice = await call('DELETE', `/stage-instances/${fx.stageId}`, {
      auth: fx.ownerAuth,
    });
    expect(closedTwice.json()).toMatchObject({ code: 10067 });

    const seen = await events.take();
    expect(
      seen.filter((e) => e.type.startsWith('STAGE_')).map((e) => [e.type, e.channelId]),
    ).toEqual([
      ['STAGE_INSTANCE_CREATE', fx.stageId],
      ['STAGE_INSTANCE_UPDATE', fx.stageId],
      ['STAGE_INSTANCE_DELETE', fx.stageId],
    ]);
    const audit = await server.app.storage.auditLog.list(fx.guildId, { limit: 10 });
    expect(audit.map((e) => e.actionType).slice(0, 3)).toEqual([85, 84, 83]);
    expect(audit.find((e) => e.actionType === 83)?.reason).toBe('weekly');
  });
});
