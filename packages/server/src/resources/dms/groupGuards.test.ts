import { GatewayIntentBits as I } from '@guildhall/protocol';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { expectApiError, issueBearer, type DmChannel } from '../../../test/support/dmFixture.js';
import { identifyGateway, type GatewayClient } from '../../../test/support/gatewayClient.js';
import {
  guildFixture,
  type GuildFixture,
  type Person,
} from '../../../test/support/guildMembers.js';
import { type WireMessage } from '../../../test/support/messageFixtures.js';
import { recordDispatches } from '../../../test/support/dispatchRecorder.js';
import {
  seedDeveloper,
  startTestServer,
  type TestServer,
} from '../../../test/support/testServer.js';

/** What a person's client identifies with to hear its DMs and group DMs. */
const DM_INTENTS =
  I.GUILDS |
  I.DIRECT_MESSAGES |
  I.DIRECT_MESSAGE_TYPING |
  I.DIRECT_MESSAGE_REACTIONS |
  I.DIRECT_MESSAGE_POLLS;

describeDrivers('group DM recipients, blocks and friends on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  /** A second application, which manages none of the group DMs below. */
  let rival: Awaited<ReturnType<typeof seedDeveloper>>;
  let people = 0;

  beforeAll(async () => {
    server = await startTestServer({ storage: driver, listen: true });
    g = await guildFixture(server, { botPermissions: 0n });
    rival = await seedDeveloper(server.app, 'rival');
  });
  afterAll(async () => {
    await server.close();
  });

  const person = async (name: string): Promise<Person> => {
    people += 1;
    const username = `${name}${String(people)}`;
    const session = await server.app.services.auth.register({
      email: `${username}@example.test`,
      username,
      password: 'correct horse battery',
    });
    return { userId: session.user_id, token: session.token, username };
  };
  /** A person per name, in order. */
  const cast = <const N extends readonly string[]>(...names: N) =>
    Promise.all(names.map((n) => person(n))) as Promise<{ [K in keyof N]: Person }>;
  const bearer = (who: Person, applicationId: string, scopes: string[]) =>
    issueBearer(server.app, { userId: who.userId, applicationId, scopes, nowMs: Date.now() });
  /** The raw token a body's `access_token` carries. */
  const gdmJoin = async (who: Person, applicationId = g.bot.applicationId) =>
    (await bearer(who, applicationId, ['gdm.join'])).slice('Bearer '.length);
  const relate = async (from: Person, to: Person, payload: object = {}) => {
    const res = await g.call('PUT', `/users/@me/relationships/${to.userId}`, {
      auth: from.token,
      payload,
    });
    expect(res.statusCode, res.body).toBe(204);
  };
  const befriend = async (a: Person, b: Person) => {
    await relate(a, b);
    await relate(b, a);
  };
  const block = (blocker: Person, blocked: Person) => relate(blocker, blocked, { type: 2 });
  /** A person's own group DM of their friends (the client's "Create DM"). */
  const ownGroup = async (owner: Person, friends: Person[]) => {
    for (const friend of friends) await befriend(owner, friend);
    const res = await g.call('POST', '/users/@me/channels', {
      auth: owner.token,
      payload: { recipients: friends.map((f) => f.userId) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DmChannel>();
  };
  /** A group DM the application's bot makes from the people's gdm.join tokens. */
  const managedGroup = async (members: Person[]) => {
    const tokens = await Promise.all(members.map((m) => gdmJoin(m)));
    const res = await g.call('POST', '/users/@me/channels', {
      auth: g.bot.token,
      payload: { access_tokens: tokens },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<DmChannel>();
  };
  const recipientIds = async (channelId: string) =>
    ((await server.app.storage.privateChannels.find(channelId))?.recipients ?? [])
      .map((r) => r.userId)
      .sort();
  const path = (channelId: string, userId: string) => `/channels/${channelId}/recipients/${userId}`;
  const sorted = (...who: Person[]) => who.map((p) => p.userId).sort();

  it('a Bearer token of no managing application neither adds nor removes', async () => {
    const [ann, bob, carl, dave] = await cast('ann', 'bob', 'carl', 'dave');
    const group = await ownGroup(ann, [bob, carl]);
    expect(group).not.toHaveProperty('application_id');
    const identifyOnly = await bearer(ann, g.bot.applicationId, ['identify']);
    const daveToken = await gdmJoin(dave);
    const dispatches = await recordDispatches(server.app);

    // Ann's identify-only token: not with Dave's own gdm.join token, not without one.
    expectApiError(
      await g.call('PUT', path(group.id, dave.userId), {
        auth: identifyOnly,
        payload: { access_token: daveToken },
      }),
      50001,
      ['PUT', path(group.id, dave.userId)],
    );
    expectApiError(
      await g.call('PUT', path(group.id, dave.userId), { auth: identifyOnly, payload: {} }),
      50001,
    );
    // Ann owns the group DM, but her Bearer token removes nobody.
    expectApiError(await g.call('DELETE', path(group.id, bob.userId), identifyOnly), 50001, [
      'DELETE',
      path(group.id, bob.userId),
    ]);
    expect(await recipientIds(group.id)).toEqual(sorted(ann, bob, carl));
    expectApiError(await g.call('GET', `/channels/${group.id}/messages`, dave.token), 50001);

    // Her own session keeps what the client does: friends add friends, the owner removes.
    expectApiError(
      await g.call('PUT', path(group.id, dave.userId), { auth: bob.token, payload: {} }),
      80006,
    );
    expectApiError(await g.call('DELETE', path(group.id, carl.userId), bob.token), 50013);
    await befriend(bob, dave);
    const added = await g.call('PUT', path(group.id, dave.userId), {
      auth: bob.token,
      payload: {},
    });
    expect(added.statusCode, added.body).toBe(201);
    const removed = await g.call('DELETE', path(group.id, carl.userId), ann.token);
    expect(removed.statusCode).toBe(204);
    expect(await recipientIds(group.id)).toEqual(sorted(ann, bob, dave));
    // The refusals announced nothing: the one add and the one removal are all there is.
    await dispatches.next('CHANNEL_RECIPIENT_REMOVE');
    const about = (type: string) => [
      ...new Set(
        dispatches
          .ofType(type)
          .map((d) => (d.data as { channel_id: string; user: { id: string } }).user.id),
      ),
    ];
    expect(about('CHANNEL_RECIPIENT_ADD')).toEqual([dave.userId]);
    expect(about('CHANNEL_RECIPIENT_REMOVE')).toEqual([carl.userId]);
  });

  it('an application adds with the person’s gdm.join token, to its own group DMs only', async () => {
    const [ann, bob, carl, dave, erin] = await cast('ann', 'bob', 'carl', 'dave', 'erin');
    const group = await managedGroup([ann, bob]);
    expect(group).toMatchObject({ application_id: g.bot.applicationId, managed: true });
    const added = await g.call('PUT', path(group.id, carl.userId), {
      auth: g.bot.token,
      payload: { access_token: await gdmJoin(carl) },
    });
    expect(added.statusCode, added.body).toBe(201);

    // A Bearer token of the managing application, with Dave's own token: added.
    const annAsApp = await bearer(ann, g.bot.applicationId, ['identify']);
    const viaBearer = await g.call('PUT', path(group.id, dave.userId), {
      auth: annAsApp,
      payload: { access_token: await gdmJoin(dave) },
    });
    expect(viaBearer.statusCode, viaBearer.body).toBe(201);
    // Only the owner (the bot) removes.
    expectApiError(await g.call('DELETE', path(group.id, carl.userId), annAsApp), 50013);

    // Another application: neither its Bearer tokens nor its bot, even with Erin's consent to it.
    const annAsRival = await bearer(ann, rival.applicationId, ['identify']);
    const erinToRival = await gdmJoin(erin, rival.applicationId);
    for (const auth of [annAsRival, `Bot ${rival.botToken}`]) {
      expectApiError(
        await g.call('PUT', path(group.id, erin.userId), {
          auth,
          payload: { access_token: erinToRival },
        }),
        50001,
      );
      expectApiError(await g.call('DELETE', path(group.id, bob.userId), auth), 50001);
    }
    // Nor a group DM of a person's own, whose member the token's user is.
    const own = await ownGroup(ann, [bob]);
    const ownBefore = await recipientIds(own.id);
    expectApiError(
      await g.call('PUT', path(own.id, erin.userId), {
        auth: annAsApp,
        payload: { access_token: await gdmJoin(erin) },
      }),
      50001,
    );
    expect(await recipientIds(own.id)).toEqual(ownBefore);
    expect(await recipientIds(group.id)).toEqual(sorted(ann, bob, carl, dave));

    const removed = await g.call('DELETE', path(group.id, carl.userId), g.bot.token);
    expect(removed.statusCode).toBe(204);
    expect(await recipientIds(group.id)).toEqual(sorted(ann, bob, dave));

    // A group DM a Bearer token makes from gdm.join tokens is its application's, owned by its user.
    const made = await g.call('POST', '/users/@me/channels', {
      auth: annAsApp,
      payload: { access_tokens: [await gdmJoin(bob)] },
    });
    expect(made.statusCode, made.body).toBe(200);
    const byBearer = made.json<DmChannel>();
    expect(byBearer).toMatchObject({
      application_id: g.bot.applicationId,
      managed: true,
      owner_id: ann.userId,
    });
    const kicked = await g.call('DELETE', path(byBearer.id, bob.userId), annAsApp);
    expect(kicked.statusCode).toBe(204);
    expect(await recipientIds(byBearer.id)).toEqual([ann.userId]);
  });

  it('nobody is added to, or named in, a group DM across a block', async () => {
    const [ann, bob, frank, gail] = await cast('ann', 'bob', 'frank', 'gail');
    const own = await ownGroup(ann, [bob]);
    // Frank blocks Ann, his friend (which ends the friendship): she adds him to nothing.
    await befriend(ann, frank);
    await block(frank, ann);
    expectApiError(
      await g.call('PUT', path(own.id, frank.userId), { auth: ann.token, payload: {} }),
      50007,
      ['PUT', path(own.id, frank.userId)],
    );
    expect(await recipientIds(own.id)).toEqual(sorted(ann, bob));

    const listBefore = await g.call('GET', '/users/@me/channels', ann.token);
    const dispatches = await recordDispatches(server.app);
    for (const recipients of [[frank], [bob, frank]]) {
      expectApiError(
        await g.call('POST', '/users/@me/channels', {
          auth: ann.token,
          payload: { recipients: recipients.map((r) => r.userId) },
        }),
        50007,
        ['POST', '/users/@me/channels'],
      );
    }
    // Through an application, with Frank's own gdm.join token: refused all the same.
    const annAsApp = await bearer(ann, g.bot.applicationId, ['identify']);
    const frankToken = await gdmJoin(frank);
    expectApiError(
      await g.call('POST', '/users/@me/channels', {
        auth: annAsApp,
        payload: { access_tokens: [await gdmJoin(bob), frankToken] },
      }),
      50007,
    );
    const managed = await managedGroup([ann, bob]);
    expectApiError(
      await g.call('PUT', path(managed.id, frank.userId), {
        auth: annAsApp,
        payload: { access_token: frankToken },
      }),
      50007,
    );
    expect(await recipientIds(managed.id)).toEqual(sorted(ann, bob));

    // And the other way: Ann blocked Gail.
    await block(ann, gail);
    expectApiError(
      await g.call('POST', '/users/@me/channels', {
        auth: annAsApp,
        payload: { access_tokens: [await gdmJoin(gail)] },
      }),
      50007,
    );
    expectApiError(
      await g.call('PUT', path(managed.id, gail.userId), {
        auth: annAsApp,
        payload: { access_token: await gdmJoin(gail) },
      }),
      50007,
    );
    expect(await recipientIds(managed.id)).toEqual(sorted(ann, bob));
    const listAfter = await g.call('GET', '/users/@me/channels', ann.token);
    // Only the bot's group DM above was made.
    expect(
      listAfter
        .json<DmChannel[]>()
        .map((c) => c.id)
        .sort(),
    ).toEqual([managed.id, ...listBefore.json<DmChannel[]>().map((c) => c.id)].sort());
    expect(dispatches.ofType('CHANNEL_CREATE').every((d) => d.channelId === managed.id)).toBe(true);

    // Unblocked and friends again, the person adds the friend.
    await g.call('DELETE', `/users/@me/relationships/${ann.userId}`, frank.token);
    await befriend(ann, frank);
    const added = await g.call('PUT', path(own.id, frank.userId), {
      auth: ann.token,
      payload: {},
    });
    expect(added.statusCode, added.body).toBe(201);
  });

  it("nothing a blocked person sends in a group DM reaches the blocker's sessions", async () => {
    const [ann, bob, carl] = await cast('ann', 'bob', 'carl');
    const group = await ownGroup(ann, [bob, carl]);
    await block(carl, bob);
    const connect = async (who: Person): Promise<GatewayClient> => {
      const { client } = await identifyGateway(server.app.gatewayUrl(), {
        token: who.token,
        intents: DM_INTENTS,
      });
      return client;
    };
    const [annGw, bobGw, carlGw] = await Promise.all([connect(ann), connect(bob), connect(carl)]);
    const messages = `/channels/${group.id}/messages`;
    const ok = (res: Awaited<ReturnType<typeof g.call>>) => {
      expect(res.statusCode, res.body).toBeLessThan(300);
    };
    const send = async (who: Person, payload: object) => {
      const res = await g.call('POST', messages, { auth: who.token, payload });
      ok(res);
      return res.json<WireMessage>();
    };
    try {
      // Bob types, posts, edits, reacts and votes; then Ann and Carl post.
      ok(await g.call('POST', `/channels/${group.id}/typing`, bob.token));
      const psst = await send(bob, { content: 'psst' });
      ok(
        await g.call('PATCH', `${messages}/${psst.id}`, {
          auth: bob.token,
          payload: { content: 'psst!' },
        }),
      );
      const poll = await send(ann, {
        poll: {
          question: { text: 'Lunch?' },
          answers: [{ poll_media: { text: 'Pizza' } }, { poll_media: { text: 'Soup' } }],
          duration: 1,
        },
      });
      ok(await g.call('PUT', `${messages}/${poll.id}/reactions/%F0%9F%91%8D/@me`, bob.token));
      ok(
        await g.call('PUT', `/channels/${group.id}/polls/${poll.id}/answers/@me`, {
          auth: bob.token,
          payload: { answer_ids: [1] },
        }),
      );
      const fromCarl = await send(carl, { content: 'bob, I can still talk to you' });
      const created = (client: GatewayClient, id: string) =>
        client.next((f) => f.t === 'MESSAGE_CREATE' && (f.d as { id: string }).id === id);
      const byBob = (f: GatewayClient['frames'][number]) => {
        const d = f.d as { user_id?: string; author?: { id: string } } | null;
        return d?.user_id === bob.userId || d?.author?.id === bob.userId;
      };
      const sent = ['TYPING_START', 'MESSAGE_CREATE', 'MESSAGE_UPDATE'];
      const voted = ['MESSAGE_REACTION_ADD', 'MESSAGE_POLL_VOTE_ADD'];

      // Ann hears all of it; Bob hears Carl (a block is the blocker's own).
      await created(annGw, fromCarl.id);
      await created(bobGw, fromCarl.id);
      for (const type of [...sent, ...voted]) await annGw.next((f) => f.t === type && byBob(f));
      // Carl hears Ann's poll and his own message, which came after Bob's: none of Bob's came.
      await created(carlGw, poll.id);
      await created(carlGw, fromCarl.id);
      expect(carlGw.frames.filter((f) => f.t !== null && byBob(f)).map((f) => f.t)).toEqual([]);
      // The history still holds Bob's message, as the platform's does: the client collapses it.
      const history = await g.call('GET', messages, carl.token);
      expect(history.json<WireMessage[]>().map((m) => m.content)).toContain('psst!');
    } finally {
      for (const client of [annGw, bobGw, carlGw]) client.raw.terminate();
    }
  });
});
