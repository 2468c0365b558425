import { GatewayIntentBits as I, PermissionFlags as P } from '@guildhall/protocol';
import { uniqueName } from '../../test/support/fileServer.js';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import type { Frame, GatewayClient } from '../../test/support/gatewayClient.js';
import { useInteractionFixture } from '../../test/support/interactionFixture.js';
import { expectOpenApiResponse } from '../../test/support/openapi.js';
import { seedDeveloper } from '../../test/support/testServer.js';

interface ClientInstance {
  application_id: string;
  instance_id: string;
  launch_id: string;
  location: Record<string, unknown>;
  users: string[];
  participants: { id: string; username: string; nickname?: string }[];
  launched_by: string;
  ended: boolean;
  activity_origin: string;
}

const UPDATE = 'EMBEDDED_ACTIVITY_UPDATE';

/** The EMBEDDED_ACTIVITY_UPDATE a client received whose data matches, waiting for it. */
async function update(
  client: GatewayClient,
  match: (d: ClientInstance) => boolean,
): Promise<ClientInstance> {
  const frame = await client.next((fr: Frame) => fr.t === UPDATE && match(fr.d as ClientInstance));
  return frame.d as ClientInstance;
}

const updatesOf = (client: GatewayClient) => client.frames.filter((fr) => fr.t === UPDATE);

describeDrivers('activity instances on $driver', (driver) => {
  const f = useInteractionFixture(driver);
  const appId = () => f.guild.bot.applicationId;

  /** Makes the fixture's app an activity (a root mapping). */
  const makeActivity = async (applicationId = appId(), token = f.guild.owner.token) => {
    const res = await f.call(
      'PATCH',
      `/applications/${applicationId}/embedded-activity-config`,
      token,
      { url_mappings: [{ prefix: '/', target: '127.0.0.1:5173' }] },
    );
    expect(res.statusCode, res.body).toBe(200);
  };
  const newChannel = async (name: string, type: number) => {
    const res = await f.call('POST', `/guilds/${f.guild.guildId}/channels`, f.guild.owner.token, {
      name,
      type,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>().id;
  };
  const deny = async (channelId: string, userId: string, bits: bigint) => {
    const res = await f.call(
      'PUT',
      `/channels/${channelId}/permissions/${userId}`,
      f.guild.owner.token,
      { type: 1, allow: '0', deny: String(bits) },
    );
    expect(res.statusCode, res.body).toBe(204);
  };
  const launch = (channelId: string, token: string, applicationId = appId()) =>
    f.call('POST', `/channels/${channelId}/activity-instances`, token, {
      application_id: applicationId,
    });
  const leave = (channelId: string, instanceId: string, token: string) =>
    f.call(
      'DELETE',
      `/channels/${channelId}/activity-instances/${encodeURIComponent(instanceId)}/participants/@me`,
      token,
    );
  const appGet = (instanceId: string, token = f.guild.bot.token, applicationId = appId()) =>
    f.call(
      'GET',
      `/applications/${applicationId}/activity-instances/${encodeURIComponent(instanceId)}`,
      token,
    );

  it('launches, joins and ends an instance in a voice channel, telling who can see it', async () => {
    await makeActivity();
    const voice = await newChannel('Lounge', 2);
    const owner = f.guild.owner;
    const bob = await f.guild.join('bob');
    const carol = await f.guild.join('carol');
    await deny(voice, carol.userId, P.VIEW_CHANNEL);
    const ownerGateway = await f.gateway(owner.token, I.GUILDS);
    const bobGateway = await f.gateway(bob.token, I.GUILDS);
    const carolGateway = await f.gateway(carol.token, I.GUILDS);
    const botGateway = await f.gateway(f.guild.bot.token, I.GUILDS);

    const launched = await launch(voice, owner.token);
    expect(launched.statusCode, launched.body).toBe(200);
    const instance = launched.json<ClientInstance>();
    expect(instance).toMatchObject({
      application_id: appId(),
      location: {
        id: `gc-${f.guild.guildId}-${voice}`,
        kind: 'gc',
        channel_id: voice,
        guild_id: f.guild.guildId,
      },
      users: [owner.userId],
      participants: [{ id: owner.userId, username: owner.username }],
      launched_by: owner.userId,
      ended: false,
    });
    expect(instance.instance_id).toBe(`i-${instance.launch_id}-gc-${f.guild.guildId}-${voice}`);
    expect(instance.activity_origin).toMatch(
      new RegExp(`^http://${appId()}\\.activities\\.localhost:\\d+$`),
    );
    expect(await update(ownerGateway, (d) => d.users.length === 1)).toEqual(instance);
    expect(await update(bobGateway, (d) => d.users.length === 1)).toEqual(instance);

    // Bob joins the same instance; launching again is joining.
    const joined = await launch(voice, bob.token);
    expect(joined.json<ClientInstance>()).toMatchObject({
      instance_id: instance.instance_id,
      users: [owner.userId, bob.userId],
      // The update reports Bob's launch: his client opens the activity.
      launched_by: bob.userId,
    });
    expect(await update(ownerGateway, (d) => d.users.length === 2)).toEqual(joined.json());
    // Listed, an instance names who started it.
    const listed = await f.call('GET', `/channels/${voice}/activity-instances`, bob.token);
    expect(listed.json()).toEqual([
      { ...joined.json<ClientInstance>(), launched_by: owner.userId },
    ]);

    // The app's backend reads it with its bot token, as the platform's document declares.
    const read = await appGet(instance.instance_id);
    expect(read.statusCode, read.body).toBe(200);
    expectOpenApiResponse(read, 'GET', `/applications/${appId()}/activity-instances/x`);
    expect(read.json()).toEqual({
      application_id: appId(),
      instance_id: instance.instance_id,
      launch_id: instance.launch_id,
      location: instance.location,
      users: [owner.userId, bob.userId],
    });

    expect((await leave(voice, instance.instance_id, owner.token)).statusCode).toBe(204);
    const left = await update(bobGateway, (d) => d.users.length === 1 && d.users[0] === bob.userId);
    expect(left.ended).toBe(false);
    expect((await leave(voice, instance.instance_id, bob.token)).statusCode).toBe(204);
    const ended = await update(ownerGateway, (d) => d.ended);
    expect(ended).toMatchObject({ instance_id: instance.instance_id, users: [], ended: true });
    expect((await appGet(instance.instance_id)).statusCode).toBe(404);
    expect(
      (await f.call('GET', `/channels/${voice}/activity-instances`, bob.token)).json(),
    ).toEqual([]);
    // Leaving an ended instance is 404; a new launch is a new instance.
    expect((await leave(voice, instance.instance_id, bob.token)).statusCode).toBe(404);
    const again = await launch(voice, bob.token);
    expect(again.json<ClientInstance>().instance_id).not.toBe(instance.instance_id);

    // A channel update reaches every GUILDS session after the activity events: the bot and
    // Carol (who cannot see the voice channel) got none of them.
    await f.call('PATCH', `/channels/${await f.channelId()}`, f.guild.owner.token, {
      topic: 'marker',
    });
    await botGateway.dispatch('CHANNEL_UPDATE');
    await carolGateway.dispatch('CHANNEL_UPDATE');
    expect(updatesOf(botGateway)).toEqual([]);
    expect(updatesOf(carolGateway)).toEqual([]);
    expect(updatesOf(bobGateway).length).toBeGreaterThanOrEqual(4);
  });

  it('takes people out when they leave the voice channel or the guild', async () => {
    await makeActivity();
    const voice = await newChannel('Hangout', 2);
    const text = await newChannel('games', 0);
    const owner = f.guild.owner;
    const dan = await f.guild.join('dan');
    const ownerGateway = await f.gateway(owner.token, I.GUILDS | I.GUILD_VOICE_STATES);
    const danGateway = await f.gateway(dan.token, I.GUILDS | I.GUILD_VOICE_STATES);
    const voiceState = (channelId: string | null) => {
      danGateway.send(4, {
        guild_id: f.guild.guildId,
        channel_id: channelId,
        self_mute: false,
        self_deaf: false,
      });
    };
    voiceState(voice);
    await danGateway.next(
      (fr) =>
        fr.t === 'VOICE_STATE_UPDATE' && (fr.d as { channel_id: string }).channel_id === voice,
    );
    expect((await launch(voice, owner.token)).statusCode).toBe(200);
    const inVoice = (await launch(voice, dan.token)).json<ClientInstance>();
    expect(inVoice.users).toEqual([owner.userId, dan.userId]);
    const inText = (await launch(text, dan.token)).json<ClientInstance>();
    expect(inText.users).toEqual([dan.userId]);

    // Dan leaves the voice channel (op 4 with no channel): out of the voice channel's instance,
    // still in the text channel's.
    voiceState(null);
    const left = await update(
      ownerGateway,
      (d) => d.instance_id === inVoice.instance_id && d.users.length === 1,
    );
    expect(left).toMatchObject({ users: [owner.userId], ended: false });
    const listed = await f.call('GET', `/channels/${text}/activity-instances`, dan.token);
    expect(listed.json<ClientInstance[]>().map((i) => i.users)).toEqual([[dan.userId]]);

    // Dan leaves the guild: out of the text channel's instance too, which ends with him.
    const gone = await f.call('DELETE', `/users/@me/guilds/${f.guild.guildId}`, dan.token);
    expect(gone.statusCode, gone.body).toBe(204);
    const ended = await update(
      ownerGateway,
      (d) => d.instance_id === inText.instance_id && d.ended,
    );
    expect(ended.users).toEqual([]);
  });

  it('takes people out of text and DM instances when their last session ends', async () => {
    await makeActivity();
    const text = await newChannel('board-games', 0);
    const owner = f.guild.owner;
    const eve = await f.guild.join('eve');
    const opened = await f.call('POST', '/users/@me/channels', owner.token, {
      recipient_id: eve.userId,
    });
    const dm = opened.json<{ id: string }>().id;
    const ownerGateway = await f.gateway(owner.token, I.GUILDS);
    const first = await f.gateway(eve.token, I.GUILDS);
    const second = await f.gateway(eve.token, I.GUILDS);
    expect((await launch(text, owner.token)).statusCode).toBe(200);
    const inText = (await launch(text, eve.token)).json<ClientInstance>();
    const inDm = (await launch(dm, eve.token)).json<ClientInstance>();
    expect(inText.users).toEqual([owner.userId, eve.userId]);
    expect(inDm.users).toEqual([eve.userId]);

    // One of her two sessions ends: she is still in both.
    await first.close(1000);
    const listed = await f.call('GET', `/channels/${text}/activity-instances`, owner.token);
    expect(listed.json<ClientInstance[]>().map((i) => i.users)).toEqual([
      [owner.userId, eve.userId],
    ]);
    // Her last one ends: she leaves both (after it, not before); the DM's instance ends.
    const seen = Math.max(0, ...ownerGateway.frames.map((fr) => fr.s ?? 0));
    await second.close(1000);
    const leftText = await ownerGateway.next(
      (fr) =>
        fr.t === UPDATE &&
        (fr.s ?? 0) > seen &&
        (fr.d as ClientInstance).instance_id === inText.instance_id &&
        (fr.d as ClientInstance).users.length === 1,
    );
    expect(leftText.d).toMatchObject({ users: [owner.userId], ended: false });
    const endedDm = await update(
      ownerGateway,
      (d) => d.instance_id === inDm.instance_id && d.ended,
    );
    expect(endedDm.users).toEqual([]);
  });

  it('refuses an age-gated activity to a person not known to be allowed', async () => {
    await makeActivity();
    const gated = await f.call(
      'PATCH',
      `/applications/${appId()}/embedded-activity-config`,
      f.guild.owner.token,
      { requires_age_gate: true },
    );
    expect(gated.statusCode, gated.body).toBe(200);
    const text = await newChannel('after-dark', 0);
    const owner = f.guild.owner;
    const fay = await f.guild.join('fay');
    const users = f.server.app.storage.users;
    try {
      // Not known, then not allowed: refused, nothing launched.
      for (const allowed of [null, false]) {
        await users.setNsfwAllowed(owner.userId, allowed);
        const refused = await launch(text, owner.token);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual({ code: 20024, message: 'Under minimum age' });
      }
      expect(
        (await f.call('GET', `/channels/${text}/activity-instances`, owner.token)).json(),
      ).toEqual([]);
      // Allowed: launched; Fay, not known, may not join it.
      await users.setNsfwAllowed(owner.userId, true);
      expect((await launch(text, owner.token)).statusCode).toBe(200);
      expect((await launch(text, fay.token)).json()).toMatchObject({ code: 20024 });
      await users.setNsfwAllowed(fay.userId, true);
      expect((await launch(text, fay.token)).json<ClientInstance>().users).toEqual([
        owner.userId,
        fay.userId,
      ]);
    } finally {
      await users.setNsfwAllowed(owner.userId, null);
      await f.call('PATCH', `/applications/${appId()}/embedded-activity-config`, owner.token, {
        requires_age_gate: false,
      });
    }
  });

  it('makes one instance of launches at once, and one end of leaves at once', async () => {
    await makeActivity();
    const voice = await newChannel('Lounge', 2);
    const people = [
      f.guild.owner,
      ...(await Promise.all(['a', 'b', 'c'].map((n) => f.guild.join(n)))),
    ];
    const answers = await Promise.all(people.map((p) => launch(voice, p.token)));
    const ids = new Set(answers.map((res) => res.json<ClientInstance>().instance_id));
    expect(ids.size).toBe(1);
    const [instanceId] = [...ids];
    const read = (await appGet(instanceId ?? '')).json<{ users: string[] }>();
    expect(read.users.toSorted()).toEqual(people.map((p) => p.userId).toSorted());
    const left = await Promise.all(people.map((p) => leave(voice, instanceId ?? '', p.token)));
    expect(left.map((res) => res.statusCode)).toEqual([204, 204, 204, 204]);
    expect((await appGet(instanceId ?? '')).statusCode).toBe(404);
    const stored = await f.server.app.storage.activities.findInstance(instanceId ?? '');
    expect(stored?.endedAt).not.toBeNull();
  });

  it('refuses what the caller may not do, with the platform errors', async () => {
    const voice = await newChannel('Lounge', 2);
    const bob = await f.guild.join('bob');
    // No activity yet: 50035 on application_id; unknown app 10002.
    const none = await launch(voice, bob.token);
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ code: 50035, errors: { application_id: {} } });
    const unknownApp = await launch(voice, bob.token, '1');
    expect(unknownApp.json()).toMatchObject({ code: 10002 });
    await makeActivity();
    // Supported platforms are enforced: an activity for phones only does not run in the web client.
    const config = `/applications/${appId()}/embedded-activity-config`;
    const mobile = await f.call('PATCH', config, f.guild.owner.token, {
      supported_platforms: ['ios', 'android'],
    });
    expect(mobile.statusCode, mobile.body).toBe(200);
    const phonesOnly = await launch(voice, bob.token);
    expect(phonesOnly.statusCode).toBe(400);
    expect(phonesOnly.json()).toMatchObject({
      code: 50035,
      errors: { application_id: { _errors: [{ code: 'ACTIVITY_PLATFORM_UNSUPPORTED' }] } },
    });
    await f.call('PATCH', config, f.guild.owner.token, { supported_platforms: ['web', 'ios'] });

    await deny(voice, bob.userId, P.USE_EMBEDDED_ACTIVITIES);
    expect((await launch(voice, bob.token)).json()).toMatchObject({ code: 50013 });
    await deny(voice, bob.userId, P.CONNECT);
    expect((await launch(voice, bob.token)).json()).toMatchObject({ code: 50013 });
    await deny(voice, bob.userId, P.VIEW_CHANNEL);
    const hidden = await launch(voice, bob.token);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json()).toMatchObject({ code: 50001 });
    expect(
      (await f.call('GET', `/channels/${voice}/activity-instances`, bob.token)).json(),
    ).toMatchObject({ code: 50001 });

    const category = await newChannel('Stuff', 4);
    expect((await launch(category, f.guild.owner.token)).json()).toMatchObject({ code: 50024 });
    for (const channel of ['1', 'not-a-channel']) {
      const res = await launch(channel, f.guild.owner.token);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 10003 });
    }
    for (const body of [{}, { application_id: 'x' }, { application_id: appId(), extra: 1 }]) {
      const res = await f.call('POST', `/channels/${voice}/activity-instances`, bob.token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ code: 50035 });
    }
    // A bot cannot launch; an outsider of the guild cannot either.
    expect((await launch(voice, f.guild.bot.token)).statusCode).toBe(403);
    const stranger = await seedDeveloper(f.server.app, uniqueName('stranger'));
    expect((await launch(voice, stranger.userToken)).json()).toMatchObject({ code: 50001 });
    expect(await f.server.app.storage.activities.listLiveInstances(voice)).toEqual([]);
  });

  it('serves an instance only to its own app’s bot, and only while it runs', async () => {
    await makeActivity();
    const text = await f.channelId();
    const launched = (await launch(text, f.guild.owner.token)).json<ClientInstance>();
    expect(launched.location).toMatchObject({ kind: 'gc', channel_id: text });
    const other = await seedDeveloper(f.server.app, uniqueName('rival'));
    for (const res of [
      await appGet(launched.instance_id, `Bot ${other.botToken}`),
      await appGet(launched.instance_id, `Bot ${other.botToken}`, other.applicationId),
    ]) {
      expect(res.statusCode).toBe(404);
    }
    expect((await appGet(launched.instance_id, `Bot ${other.botToken}`)).json()).toMatchObject({
      code: 10002,
    });
    for (const id of ['i-1-pc-2', '<script>', 'x'.repeat(500)]) {
      const res = await appGet(id);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 0, message: '404: Not Found' });
    }
    // A person's session is not the app's backend.
    expect((await appGet(launched.instance_id, f.guild.owner.token)).statusCode).toBe(403);
    // Leaving an instance through another channel's path is 404; not being in it is a no-op.
    const bob = await f.guild.join('bob');
    expect(
      (await leave(await newChannel('v', 2), launched.instance_id, bob.token)).statusCode,
    ).toBe(404);
    expect((await leave(text, launched.instance_id, bob.token)).statusCode).toBe(204);
    expect((await appGet(launched.instance_id)).json()).toMatchObject({
      users: [f.guild.owner.userId],
    });
  });

  it('runs in a DM for its recipients only', async () => {
    await makeActivity();
    const bob = await f.guild.join('bob');
    const carol = await f.guild.join('carol');
    const opened = await f.call('POST', '/users/@me/channels', f.guild.owner.token, {
      recipient_id: bob.userId,
    });
    expect(opened.statusCode, opened.body).toBe(200);
    const dm = opened.json<{ id: string }>().id;
    const bobGateway = await f.gateway(bob.token);
    const carolGateway = await f.gateway(carol.token);

    const launched = await launch(dm, f.guild.owner.token);
    expect(launched.statusCode, launched.body).toBe(200);
    const instance = launched.json<ClientInstance>();
    expect(instance.location).toEqual({ id: `pc-${dm}`, kind: 'pc', channel_id: dm });
    expect(instance.instance_id).toBe(`i-${instance.launch_id}-pc-${dm}`);
    expect(await update(bobGateway, () => true)).toEqual(instance);
    const read = await appGet(instance.instance_id);
    expectOpenApiResponse(read, 'GET', `/applications/${appId()}/activity-instances/x`);

    expect((await launch(dm, carol.token)).json()).toMatchObject({ code: 50001 });
    expect((await launch(dm, bob.token)).json<ClientInstance>().users).toEqual([
      f.guild.owner.userId,
      bob.userId,
    ]);
    expect((await leave(dm, instance.instance_id, bob.token)).statusCode).toBe(204);
    await update(bobGateway, (d) => d.users.length === 1);
    // Carol hears nothing of the DM: a DM of her own afterwards is her first event.
    await f.call('POST', '/users/@me/channels', carol.token, {
      recipient_id: f.guild.owner.userId,
    });
    await carolGateway.dispatch('CHANNEL_CREATE');
    expect(updatesOf(carolGateway)).toEqual([]);
  });
});
