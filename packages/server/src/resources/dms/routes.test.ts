import { expect, it, onTestFinished } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { PNG_1X1 } from '../../../test/support/expressionFixtures.js';
import { useDmFixture, type DmChannel } from '../../../test/support/dmFixture.js';
import { type WireMessage } from '../../../test/support/messageFixtures.js';
import { recordDispatches } from '../../../test/support/dispatchRecorder.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';

describeDrivers('DMs on $driver', (driver) => {
  const { fx, outsider, bearer, openDm, expectError } = useDmFixture(driver);
  const messages = (channelId: string, suffix = '') => `/channels/${channelId}/messages${suffix}`;

  it('opens one DM per pair; the recipient sees it with its first message', async () => {
    const ann = await fx.g.join('ann');
    const bob = await fx.g.join('bob');
    const dispatches = await recordDispatches(fx.server.app);
    onTestFinished(dispatches.stop);
    const dm = await openDm(ann.token, bob.userId);
    expect(dm).toMatchObject({ type: 1, last_message_id: null, recipients: [{ id: bob.userId }] });
    expect((await openDm(ann.token, bob.userId)).id).toBe(dm.id);
    // From either side.
    expect((await openDm(bob.token, ann.userId)).id).toBe(dm.id);
    const created = await dispatches.next('CHANNEL_CREATE');
    expect(created).toMatchObject({ guildId: null, userIds: [ann.userId] });

    const annList = await fx.g.call('GET', '/users/@me/channels', ann.token);
    expect(annList.json<DmChannel[]>().map((c) => c.id)).toEqual([dm.id]);

    const sent = await fx.g.call('POST', messages(dm.id), {
      auth: ann.token,
      payload: { content: 'hello bob' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    expectOpenApiResponse(sent, 'POST', messages(dm.id));
    const message = sent.json<WireMessage & { guild_id?: string; channel_id: string }>();
    expect(message.guild_id).toBeUndefined();
    expect(message.channel_id).toBe(dm.id);

    const create = await dispatches.next('MESSAGE_CREATE');
    expect(create.guildId).toBeNull();
    expect([...create.userIds].sort()).toEqual([ann.userId, bob.userId].sort());
    expect(create.data).not.toHaveProperty('guild_id');
    expect(create.data).not.toHaveProperty('member');

    const bobList = await fx.g.call('GET', '/users/@me/channels', bob.token);
    expect(bobList.json<DmChannel[]>()).toMatchObject([
      { id: dm.id, last_message_id: message.id, recipients: [{ id: ann.userId }] },
    ]);

    const got = await fx.g.call('GET', `/channels/${dm.id}`, bob.token);
    expectOpenApiResponse(got, 'GET', `/channels/${dm.id}`);
    expect(got.json()).toMatchObject({ id: dm.id, type: 1 });

    // Read with a limit (the SDK's last-messages summary), edit and delete by the author.
    await fx.g.call('POST', messages(dm.id), { auth: bob.token, payload: { content: 'hi ann' } });
    const last = await fx.g.call('GET', messages(dm.id, '?limit=1'), ann.token);
    expectOpenApiResponse(last, 'GET', messages(dm.id));
    expect(last.json<WireMessage[]>().map((m) => m.content)).toEqual(['hi ann']);
    const edited = await fx.g.call('PATCH', messages(dm.id, `/${message.id}`), {
      auth: ann.token,
      payload: { content: 'hello again' },
    });
    expect(edited.json()).toMatchObject({ content: 'hello again' });
    const othersEdit = await fx.g.call('PATCH', messages(dm.id, `/${message.id}`), {
      auth: bob.token,
      payload: { content: 'mine now' },
    });
    expectError(othersEdit, 50005);
    const othersDelete = await fx.g.call('DELETE', messages(dm.id, `/${message.id}`), bob.token);
    expectError(othersDelete, 50013);
    const deleted = await fx.g.call('DELETE', messages(dm.id, `/${message.id}`), ann.token);
    expect(deleted.statusCode).toBe(204);
    const gone = await dispatches.next('MESSAGE_DELETE');
    expect(gone).toMatchObject({ guildId: null });
    expect(gone.data).toEqual({ id: message.id, channel_id: dm.id });
  });

  it('refuses anyone outside the DM, and bad requests change nothing', async () => {
    const ann = await fx.g.join('ann');
    const bob = await fx.g.join('bob');
    const carl = await fx.g.join('carl');
    const dm = await openDm(ann.token, bob.userId);
    const post = (payload: unknown) =>
      fx.g.call('POST', '/users/@me/channels', { auth: ann.token, payload });

    expectError(await fx.g.call('GET', `/channels/${dm.id}`, carl.token), 50001);
    expectError(await fx.g.call('DELETE', `/channels/${dm.id}`, carl.token), 50001);
    expectError(await fx.g.call('GET', messages(dm.id), carl.token), 50001, [
      'GET',
      messages(dm.id),
    ]);
    expectError(
      await fx.g.call('POST', messages(dm.id), { auth: carl.token, payload: { content: 'x' } }),
      50001,
      ['POST', messages(dm.id)],
    );

    expectError(await post({ recipient_id: 'abc' }), 50035, ['POST', '/users/@me/channels']);
    expectError(await post({ recipient_id: 12 }), 50035);
    expectError(await post({ recipient_id: ['1'] }), 50035);
    expectError(await post({ recipient_id: '1234567890123' }), 10013, [
      'POST',
      '/users/@me/channels',
    ]);
    expectError(await post({ recipient_id: ann.userId }), 50007);
    expectError(await post({}), 50033);
    expectError(await post({ recipient_id: bob.userId, evil: '<script>' }), 50035);
    expectError(await post({ recipients: ["'; DROP TABLE channels; --"] }), 50035);
    expectError(
      await post({ access_tokens: ['\u0000'.repeat(3)], nicks: { x: 'y'.repeat(40) } }),
      50035,
    );
    const list = await fx.g.call('GET', '/users/@me/channels', ann.token);
    expect(list.json<DmChannel[]>()).toHaveLength(1);

    // A message too long, an activity invite outside a DM: refused.
    expectError(
      await fx.g.call('POST', messages(dm.id), {
        auth: ann.token,
        payload: { content: 'x'.repeat(2001) },
      }),
      50035,
    );
    expectError(
      await fx.g.call('POST', `/channels/${fx.channelId}/messages`, {
        auth: ann.token,
        payload: { content: 'join', activity: { type: 1, party_id: 'p' } },
      }),
      50035,
    );
    const history = await fx.g.call('GET', messages(dm.id), bob.token);
    expect(history.json()).toEqual([]);
  });

  it('nobody DMs across a block, either way', async () => {
    const ann = await fx.g.join('ann');
    const bob = await fx.g.join('bob');
    const dm = await openDm(ann.token, bob.userId);
    await fx.server.app.storage.relationships.put({
      userId: ann.userId,
      targetId: bob.userId,
      applicationId: null,
      type: 2,
      nickname: null,
      isSpamRequest: false,
      since: fx.clock.now(),
    });
    for (const person of [ann, bob]) {
      const res = await fx.g.call('POST', messages(dm.id), {
        auth: person.token,
        payload: { content: 'hello?' },
      });
      expectError(res, 50007, ['POST', messages(dm.id)]);
    }
    expect((await fx.g.call('GET', messages(dm.id), ann.token)).json()).toEqual([]);
    await fx.server.app.storage.relationships.delete(ann.userId, bob.userId);
    const after = await fx.g.call('POST', messages(dm.id), {
      auth: bob.token,
      payload: { content: 'hello!' },
    });
    expect(after.statusCode).toBe(200);
  });

  it('bots DM only the people they share a guild with; never other bots', async () => {
    const ann = await fx.g.join('ann');
    const loner = await outsider('loner');
    const toAnn = await openDm(fx.g.bot.token, ann.userId);
    const ok = await fx.g.call('POST', messages(toAnn.id), {
      auth: fx.g.bot.token,
      payload: { content: 'welcome' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    // People read it; bots read DM content whatever MESSAGE_CONTENT says.
    const read = await fx.g.call('GET', messages(toAnn.id), fx.g.bot.token);
    expect(read.json<WireMessage[]>()[0]?.content).toBe('welcome');

    const toLoner = await openDm(fx.g.bot.token, loner.userId);
    const refused = await fx.g.call('POST', messages(toLoner.id), {
      auth: fx.g.bot.token,
      payload: { content: 'spam' },
    });
    expectError(refused, 50007, ['POST', messages(toLoner.id)]);
    const back = await fx.g.call('POST', messages(toLoner.id), {
      auth: loner.token,
      payload: { content: 'who are you' },
    });
    expectError(back, 50007);
    expect((await fx.g.call('GET', messages(toLoner.id), loner.token)).json()).toEqual([]);
  });

  it('closing a DM hides it until the next message; activity invites carry the app', async () => {
    const ann = await fx.g.join('ann');
    const bob = await fx.g.join('bob');
    const dm = await openDm(ann.token, bob.userId);
    await fx.g.call('POST', messages(dm.id), { auth: ann.token, payload: { content: 'one' } });
    const dispatches = await recordDispatches(fx.server.app);
    onTestFinished(dispatches.stop);
    const closed = await fx.g.call('DELETE', `/channels/${dm.id}`, bob.token);
    expect(closed.statusCode).toBe(200);
    expectOpenApiResponse(closed, 'DELETE', `/channels/${dm.id}`);
    expect(closed.json()).toMatchObject({ id: dm.id, type: 1 });
    expect(await dispatches.next('CHANNEL_DELETE')).toMatchObject({ userIds: [bob.userId] });
    expect((await fx.g.call('GET', '/users/@me/channels', bob.token)).json()).toEqual([]);

    // The game's cover image: what the invite shows when its activity names none.
    const covered = await fx.g.call('PATCH', `/applications/${fx.g.bot.applicationId}`, {
      auth: fx.g.owner.token,
      payload: { cover_image: PNG_1X1 },
    });
    const cover = covered.json<{ cover_image: string }>().cover_image;
    const invite = await fx.g.call('POST', messages(dm.id), {
      auth: ann.token,
      payload: {
        content: 'join my party',
        activity: { type: 1, party_id: 'party-1' },
        application_id: fx.g.bot.applicationId,
      },
    });
    expect(invite.statusCode, invite.body).toBe(200);
    expect(invite.json()).toMatchObject({
      activity: { type: 1, party_id: 'party-1' },
      application_id: fx.g.bot.applicationId,
      application: { id: fx.g.bot.applicationId, name: 'owner app', cover_image: cover },
    });
    const reopened = dispatches.ofType('CHANNEL_CREATE');
    expect(reopened.map((d) => d.userIds)).toEqual([[bob.userId]]);
    expect((await fx.g.call('GET', '/users/@me/channels', bob.token)).json()).toHaveLength(1);

    const bad = [
      { activity: { type: 2, party_id: 'p' }, application_id: fx.g.bot.applicationId },
      { activity: { type: 1, party_id: '' }, application_id: fx.g.bot.applicationId },
      { activity: { type: 1, party_id: 'p' } },
      { activity: { type: 1, party_id: 'p' }, application_id: '1234567890123' },
    ];
    for (const payload of bad) {
      expectError(
        await fx.g.call('POST', messages(dm.id), {
          auth: ann.token,
          payload: { content: 'x', ...payload },
        }),
        50035,
      );
    }
  });

  it('group DMs: made from gdm.join tokens, left by each in turn', async () => {
    const ann = await fx.g.join('ann');
    const bob = await fx.g.join('bob');
    const app = fx.g.bot.applicationId;
    const tokens = [
      (await bearer(ann.userId, app, ['gdm.join'])).slice('Bearer '.length),
      (await bearer(bob.userId, app, ['gdm.join'])).slice('Bearer '.length),
    ];
    const wrong = (await bearer(bob.userId, app, ['identify'])).slice('Bearer '.length);
    const path = '/users/@me/channels';
    expectError(
      await fx.g.call('POST', path, { auth: fx.g.bot.token, payload: { access_tokens: [wrong] } }),
      50025,
    );
    const res = await fx.g.call('POST', path, {
      auth: fx.g.bot.token,
      payload: { access_tokens: tokens, nicks: { [ann.userId]: 'Annie' } },
    });
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, 'POST', path);
    const group = res.json<DmChannel>();
    expect(group).toMatchObject({ type: 3, owner_id: fx.g.bot.userId, application_id: app });
    expect(group.recipients.map((r) => r.id).sort()).toEqual([ann.userId, bob.userId].sort());

    const sent = await fx.g.call('POST', messages(group.id), {
      auth: ann.token,
      payload: { content: 'hi all' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const dispatches = await recordDispatches(fx.server.app);
    onTestFinished(dispatches.stop);
    const renamed = await fx.g.call('PATCH', `/channels/${group.id}`, {
      auth: bob.token,
      payload: { name: 'raid night' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expectOpenApiResponse(renamed, 'PATCH', `/channels/${group.id}`);
    expect(renamed.json()).toMatchObject({ id: group.id, name: 'raid night' });
    const update = await dispatches.next('CHANNEL_UPDATE');
    expect(update).toMatchObject({ guildId: null, data: { name: 'raid night' } });
    expectError(
      await fx.g.call('PATCH', `/channels/${group.id}`, {
        auth: bob.token,
        payload: { name: 'x'.repeat(101) },
      }),
      50035,
    );
    expectError(
      await fx.g.call('PATCH', `/channels/${group.id}`, { auth: bob.token, payload: { name: 5 } }),
      50035,
    );
    const outsiderDm = await openDm(ann.token, bob.userId);
    expectError(
      await fx.g.call('PATCH', `/channels/${outsiderDm.id}`, {
        auth: ann.token,
        payload: { name: 'x' },
      }),
      50035,
    );
    const left = await fx.g.call('DELETE', `/channels/${group.id}`, ann.token);
    expect(left.statusCode).toBe(200);
    expectError(await fx.g.call('GET', messages(group.id), ann.token), 50001);
    expect((await fx.g.call('GET', messages(group.id), bob.token)).json()).toHaveLength(1);
    await fx.g.call('DELETE', `/channels/${group.id}`, bob.token);
    expect(await fx.server.app.storage.privateChannels.find(group.id)).toBeNull();
  });

  it('group DM recipients: added with their gdm.join token, removed by the owner', async () => {
    const ann = await fx.g.join('ann');
    const bob = await fx.g.join('bob');
    const carl = await fx.g.join('carl');
    const app = fx.g.bot.applicationId;
    const tokenOf = async (userId: string) =>
      (await bearer(userId, app, ['gdm.join'])).slice('Bearer '.length);
    const created = await fx.g.call('POST', '/users/@me/channels', {
      auth: fx.g.bot.token,
      payload: { access_tokens: [await tokenOf(ann.userId), await tokenOf(bob.userId)] },
    });
    const group = created.json<DmChannel>();
    const path = (userId: string) => `/channels/${group.id}/recipients/${userId}`;
    const dispatches = await recordDispatches(fx.server.app);
    onTestFinished(dispatches.stop);

    expectError(
      await fx.g.call('PUT', path(carl.userId), {
        auth: fx.g.bot.token,
        payload: { access_token: await tokenOf(bob.userId) },
      }),
      50025,
      ['PUT', path(carl.userId)],
    );
    expectError(
      await fx.g.call('PUT', path(carl.userId), { auth: fx.g.bot.token, payload: {} }),
      50025,
    );
    const added = await fx.g.call('PUT', path(carl.userId), {
      auth: fx.g.bot.token,
      payload: { access_token: await tokenOf(carl.userId), nick: 'C' },
    });
    expect(added.statusCode, added.body).toBe(201);
    expectOpenApiResponse(added, 'PUT', path(carl.userId));
    expect((await dispatches.next('CHANNEL_RECIPIENT_ADD')).data).toMatchObject({
      channel_id: group.id,
      user: { id: carl.userId },
      nick: 'C',
    });
    expect(await dispatches.next('CHANNEL_CREATE')).toMatchObject({ userIds: [carl.userId] });
    const again = await fx.g.call('PUT', path(carl.userId), {
      auth: fx.g.bot.token,
      payload: { access_token: await tokenOf(carl.userId) },
    });
    expect(again.statusCode).toBe(204);
    expect((await fx.g.call('GET', messages(group.id), carl.token)).statusCode).toBe(200);

    expectError(await fx.g.call('DELETE', path(carl.userId), ann.token), 50013, [
      'DELETE',
      path(carl.userId),
    ]);
    const dm = await openDm(ann.token, bob.userId);
    expectError(
      await fx.g.call('PUT', `/channels/${dm.id}/recipients/${carl.userId}`, {
        auth: ann.token,
        payload: {},
      }),
      50003,
    );
    const removed = await fx.g.call('DELETE', path(carl.userId), fx.g.bot.token);
    expect(removed.statusCode).toBe(204);
    expectOpenApiResponse(removed, 'DELETE', path(carl.userId));
    expectError(await fx.g.call('GET', messages(group.id), carl.token), 50001);
    expect((await dispatches.next('CHANNEL_RECIPIENT_REMOVE')).userIds).toHaveLength(2);
  });
});
