/**
 * The frame protocol without a browser: handshake checks, each command's answer (validated with
 * the embedded app SDK's own response schemas, as the SDK validates them), scope checks and the
 * error codes.
 */
import { ActivityFlags } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import { APP, CONTEXT, harness, ME, ME_ANSWER, sdkParses } from './frameHarness.js';
import { FrameCommandError, presenceFromArgs } from './frameProtocol.js';

describe('handshake', () => {
  it('answers READY with the config and user the SDK expects', () => {
    const { posted, handshake } = harness();
    handshake();
    expect(posted).toEqual([
      [
        1,
        {
          cmd: 'DISPATCH',
          evt: 'READY',
          nonce: null,
          data: {
            v: 1,
            config: {
              cdn_host: '127.0.0.1:3000',
              api_endpoint: '//127.0.0.1:3000/api',
              environment: 'production',
            },
            user: { id: ME, username: 'ada', discriminator: '0' },
          },
        },
      ],
    ]);
  });

  it.each([
    [{ v: 1, client_id: '999', frame_id: 'frame-1' }, 4000],
    [{ v: 2, client_id: APP, frame_id: 'frame-1' }, 4004],
    [{ v: 1, encoding: 'etf', client_id: APP, frame_id: 'frame-1' }, 4005],
    [{ v: 1, client_id: APP, frame_id: 'other-frame' }, 4001],
  ])('closes on a bad handshake %j', (payload, code) => {
    const { host, posted, send } = harness();
    host.receive([0, payload]);
    expect(posted).toHaveLength(1);
    expect(posted[0]?.[0]).toBe(2);
    expect(posted[0]?.[1]['code']).toBe(code);
    // Nothing more is answered after a refused handshake.
    void send('CAPTURE_LOG', { level: 'log', message: 'x' }).catch(() => undefined);
    expect(posted).toHaveLength(1);
  });

  it('starts over when the page handshakes again (reloaded in its frame)', async () => {
    const { host, posted, handshake, send } = harness();
    handshake();
    await send('AUTHENTICATE', { access_token: 'good' });
    expect(host.authenticatedScopes).not.toBeNull();
    handshake();
    expect(posted.filter((m) => m[1]['evt'] === 'READY')).toHaveLength(2);
    expect(host.authenticatedScopes).toBeNull();
    expect(await send('SET_ACTIVITY', { activity: { state: 'x' } })).toMatchObject({
      data: { code: 4006 },
    });
  });

  it('ignores commands before the handshake and malformed messages', () => {
    const { host, posted } = harness();
    host.receive([1, { cmd: 'AUTHORIZE', nonce: 'x', args: {} }]);
    host.receive('hello');
    host.receive([0]);
    host.receive([7, {}]);
    expect(posted).toEqual([]);
  });
});

describe('commands', () => {
  it('AUTHORIZE returns the code, passing the scopes joined and prompt', async () => {
    const requests: unknown[] = [];
    const { handshake, send } = harness({
      authorize: (request) => {
        requests.push(request);
        return Promise.resolve({ code: 'c0de' });
      },
    });
    handshake();
    const answer = await send('AUTHORIZE', {
      client_id: APP,
      scope: ['identify', 'rpc.activities.write'],
      response_type: 'code',
      prompt: 'none',
      state: 's',
    });
    expect(sdkParses(answer).data).toEqual({ code: 'c0de' });
    expect(requests).toEqual([
      {
        scope: 'identify rpc.activities.write',
        prompt: 'none',
        state: 's',
        codeChallenge: null,
        codeChallengeMethod: null,
      },
    ]);
  });

  it('AUTHORIZE for another app, or a refusal, is an error', async () => {
    const { handshake, send } = harness({
      authorize: () => Promise.reject(new FrameCommandError(5000, 'access_denied')),
    });
    handshake();
    const other = await send('AUTHORIZE', { client_id: '5', scope: ['identify'] });
    expect(other).toMatchObject({ evt: 'ERROR', data: { code: 4007 } });
    const denied = await send('AUTHORIZE', { client_id: APP, scope: ['identify'] });
    expect(denied).toEqual({
      cmd: 'AUTHORIZE',
      evt: 'ERROR',
      nonce: denied['nonce'],
      data: { code: 5000, message: 'access_denied' },
    });
  });

  it('AUTHENTICATE answers in the SDK shape and unlocks the scopes', async () => {
    const { host, handshake, send, presences } = harness();
    handshake();
    // Before AUTHENTICATE: SET_ACTIVITY is refused with 4006.
    const early = await send('SET_ACTIVITY', { activity: { state: 'x' } });
    expect(early).toMatchObject({ evt: 'ERROR', data: { code: 4006 } });

    const bad = await send('AUTHENTICATE', { access_token: 'bad' });
    expect(bad).toMatchObject({ evt: 'ERROR', data: { code: 4009 } });

    const answer = await send('AUTHENTICATE', { access_token: 'good' });
    const parsed = sdkParses(answer).data as { user: { id: string; public_flags: number } };
    expect(parsed.user).toMatchObject({ id: ME, public_flags: 0 });
    expect(host.authenticatedScopes).toEqual(['identify', 'rpc.activities.write']);

    const set = await send('SET_ACTIVITY', {
      activity: {
        state: 'In a match',
        details: 'Round 2',
        timestamps: { start: 5 },
        party: { size: [1, 4] },
      },
    });
    expect(sdkParses(set).data).toMatchObject({
      name: 'Tiles',
      application_id: APP,
      state: 'In a match',
    });
    expect(presences).toEqual([
      {
        name: 'Tiles',
        type: 0,
        application_id: APP,
        created_at: 1_000,
        state: 'In a match',
        details: 'Round 2',
        timestamps: { start: 5 },
        party: { size: [1, 4] },
        // The activity of an embedded app (docs/platform-notes.md#activity-flags).
        flags: ActivityFlags.EMBEDDED,
      },
    ]);
    // GET_RELATIONSHIPS needs relationships.read, which this token lacks.
    const relationships = await send('GET_RELATIONSHIPS');
    expect(relationships).toMatchObject({ evt: 'ERROR', data: { code: 4006 } });
    // GET_CHANNEL of a guild channel needs `guilds`.
    const channel = await send('GET_CHANNEL', { channel_id: CONTEXT.channelId });
    expect(channel).toMatchObject({ evt: 'ERROR', data: { code: 4006 } });
  });

  it('AUTHENTICATE refuses a token of another app or another person', async () => {
    const other = { ...ME_ANSWER, application: { ...ME_ANSWER.application, id: '7' } };
    const { handshake, send } = harness({ oauthMe: () => Promise.resolve(other) });
    handshake();
    expect(await send('AUTHENTICATE', { access_token: 'x' })).toMatchObject({
      data: { code: 4009 },
    });
    const { handshake: h2, send: s2 } = harness({ currentUserId: () => '9' });
    h2();
    expect(await s2('AUTHENTICATE', { access_token: 'good' })).toMatchObject({
      data: { code: 4009 },
    });
  });

  it('GET_CHANNEL, GET_RELATIONSHIPS with their scopes', async () => {
    const me = { ...ME_ANSWER, scopes: ['guilds', 'relationships.read'] };
    const { handshake, send } = harness({ oauthMe: () => Promise.resolve(me) });
    handshake();
    await send('AUTHENTICATE', { access_token: 'x' });
    const channel = await send('GET_CHANNEL', { channel_id: CONTEXT.channelId });
    expect(sdkParses(channel).data).toMatchObject({ id: CONTEXT.channelId, name: 'Lounge' });
    const unknown = await send('GET_CHANNEL', { channel_id: '1' });
    expect(unknown).toMatchObject({ evt: 'ERROR', data: { code: 4005 } });
    expect(sdkParses(await send('GET_RELATIONSHIPS')).data).toEqual({ relationships: [] });
  });

  it('participants, links and logs need no authentication', async () => {
    const { handshake, send, logs } = harness();
    handshake();
    const participants = await send('GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS');
    expect(sdkParses(participants).data).toMatchObject({ participants: [{ id: ME }] });
    expect(
      sdkParses(await send('OPEN_EXTERNAL_LINK', { url: 'https://example.com/' })).data,
    ).toEqual({
      opened: true,
    });
    const js = await send('OPEN_EXTERNAL_LINK', { url: 'javascript:alert(1)' });
    expect(js).toMatchObject({ evt: 'ERROR', data: { code: 4000 } });
    expect(sdkParses(await send('CAPTURE_LOG', { level: 'warn', message: 'hi' })).data).toBeNull();
    expect(logs).toEqual(['warn:hi']);
    expect(await send('CAPTURE_LOG', { level: 'shout', message: 'x' })).toMatchObject({
      data: { code: 4000 },
    });
  });

  it('locale, channel permissions, platform behaviours, orientation lock', async () => {
    const me = { ...ME_ANSWER, scopes: ['identify', 'guilds.members.read'] };
    const { handshake, send } = harness({ oauthMe: () => Promise.resolve(me) });
    handshake();
    // Before AUTHENTICATE: the scoped ones are 4006.
    expect(await send('USER_SETTINGS_GET_LOCALE')).toMatchObject({ data: { code: 4006 } });
    expect(await send('GET_CHANNEL_PERMISSIONS')).toMatchObject({ data: { code: 4006 } });
    await send('AUTHENTICATE', { access_token: 'x' });
    expect(sdkParses(await send('USER_SETTINGS_GET_LOCALE')).data).toEqual({ locale: 'en-GB' });
    expect(sdkParses(await send('GET_CHANNEL_PERMISSIONS')).data).toEqual({
      permissions: String(1n << 39n),
    });
    expect(sdkParses(await send('GET_PLATFORM_BEHAVIORS')).data).toEqual({});
    expect(sdkParses(await send('SET_ORIENTATION_LOCK_STATE', { lock_state: 3 })).data).toBeNull();
    expect(await send('SET_ORIENTATION_LOCK_STATE', { lock_state: 7 })).toMatchObject({
      data: { code: 4000 },
    });
  });

  it('unknown commands are 4002', async () => {
    const { handshake, send } = harness();
    handshake();
    expect(await send('GET_GUILDS')).toMatchObject({ evt: 'ERROR', data: { code: 4002 } });
  });
});

describe('subscriptions', () => {
  it('SUBSCRIBE answers {evt}, sends the present value, then dispatches until UNSUBSCRIBE', async () => {
    const { host, posted, handshake, send } = harness();
    handshake();
    const answer = await send('SUBSCRIBE', {}, 'ORIENTATION_UPDATE');
    expect(sdkParses(answer).data).toEqual({ evt: 'ORIENTATION_UPDATE' });
    const index = posted.findIndex((m) => m[1] === answer);
    expect(posted[index + 1]).toEqual([
      1,
      {
        cmd: 'DISPATCH',
        evt: 'ORIENTATION_UPDATE',
        nonce: null,
        data: { screen_orientation: 1, orientation: 'landscape' },
      },
    ]);
    await send('SUBSCRIBE', {}, 'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE');
    host.dispatch('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', { participants: [] });
    expect(posted.at(-1)?.[1]).toMatchObject({ cmd: 'DISPATCH', data: { participants: [] } });
    const count = posted.length;
    await send('UNSUBSCRIBE', {}, 'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE');
    host.dispatch('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', { participants: [] });
    // Only the UNSUBSCRIBE answer was added.
    expect(posted).toHaveLength(count + 1);
  });

  it('unknown events are 4004, scoped ones 4006 before AUTHENTICATE', async () => {
    const { handshake, send } = harness();
    handshake();
    expect(await send('SUBSCRIBE', {}, 'GUILD_CREATE')).toMatchObject({ data: { code: 4004 } });
    expect(
      await send('SUBSCRIBE', { channel_id: CONTEXT.channelId }, 'VOICE_STATE_UPDATE'),
    ).toMatchObject({
      data: { code: 4006 },
    });
  });

  it('the client closing clears the presence and stops the answers', async () => {
    const { host, posted, presences, handshake } = harness();
    handshake();
    host.close();
    expect(presences).toEqual([null]);
    const count = posted.length;
    host.receive([1, { cmd: 'CAPTURE_LOG', nonce: 'z', args: { level: 'log', message: 'x' } }]);
    await Promise.resolve();
    expect(posted).toHaveLength(count);
  });

  it('CLOSE from the frame tells the client', () => {
    const closes: string[] = [];
    const { host, handshake } = harness({
      closed: (code, message) => closes.push(`${code} ${message}`),
    });
    handshake();
    host.receive([2, { code: 1000, message: 'bye' }]);
    expect(closes).toEqual(['1000 bye']);
  });
});

describe('presenceFromArgs', () => {
  const app = { id: APP, name: 'Tiles' };
  it('refuses what the platform refuses', () => {
    expect(() => presenceFromArgs({ type: 1 }, app, 0)).toThrow(FrameCommandError);
    expect(() => presenceFromArgs({ state: 'x'.repeat(129) }, app, 0)).toThrow(/state/);
    expect(() => presenceFromArgs({ party: { size: [3, 2] } }, app, 0)).toThrow(/party/);
    expect(() => presenceFromArgs('x', app, 0)).toThrow(/object/);
  });
  it('keeps only the known fields', () => {
    expect(presenceFromArgs({ state: 's', name: 'Other', url: 'https://x' }, app, 7)).toEqual({
      name: 'Tiles',
      type: 0,
      application_id: APP,
      created_at: 7,
      state: 's',
      flags: ActivityFlags.EMBEDDED,
    });
    expect(presenceFromArgs(null, app, 7)).toBeNull();
  });
});
