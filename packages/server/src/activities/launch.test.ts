import { GatewayIntentBits as I, PermissionFlags as P } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { useInteractionFixture } from '../../test/support/interactionFixture.js';
import { expectOpenApiResponse } from '../../test/support/openapi.js';

const UPDATE = 'EMBEDDED_ACTIVITY_UPDATE';

describeDrivers('launching an activity from an interaction on $driver', (driver) => {
  const f = useInteractionFixture(driver);
  const appId = () => f.guild.bot.applicationId;

  const makeActivity = async () => {
    const res = await f.call(
      'PATCH',
      `/applications/${appId()}/embedded-activity-config`,
      f.guild.owner.token,
      { url_mappings: [{ prefix: '/', target: 'activity.example.test' }] },
    );
    expect(res.statusCode, res.body).toBe(200);
  };
  const invoke = async (
    command: Record<string, unknown>,
    nonce = 'n-1',
    token = f.guild.owner.token,
  ) =>
    f.call('POST', '/interactions', token, {
      type: 2,
      application_id: appId(),
      guild_id: f.guild.guildId,
      channel_id: await f.channelId(),
      session_id: 'session-1',
      nonce,
      data: { id: command['id'], name: command['name'], type: command['type'] },
    });
  const callback = (created: Record<string, unknown>, body: unknown) =>
    f.call(
      'POST',
      `/interactions/${String(created['id'])}/${String(created['token'])}/callback?with_response=true`,
      '',
      body,
    );

  it('answers LAUNCH_ACTIVITY by launching for the invoking person', async () => {
    const command = await f.command({ name: 'play', description: 'Play the game' });
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const person = await f.gateway(f.guild.owner.token, I.GUILDS);

    // Without an activity, 12 is not among the callback types.
    expect((await invoke(command, 'first')).statusCode).toBe(204);
    const first = (await bot.dispatch('INTERACTION_CREATE')).d as Record<string, unknown>;
    const refused = await callback(first, { type: 12 });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 50035,
      errors: { type: { _errors: [{ code: 'BASE_TYPE_CHOICES' }] } },
    });
    expect(
      refused.json<{ errors: { type: { _errors: { message: string }[] } } }>().errors.type
        ._errors[0]?.message,
    ).not.toContain('12');

    await makeActivity();
    expect((await invoke(command, 'second')).statusCode).toBe(204);
    const second = (await bot.next((fr) => fr.t === 'INTERACTION_CREATE' && fr.d !== first))
      .d as Record<string, unknown>;
    expect(second['id']).not.toBe(first['id']);
    const res = await callback(second, { type: 12 });
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, 'POST', '/interactions/1/t/callback');
    const instanceId = res.json<{ resource: { activity_instance: { id: string } } }>().resource
      .activity_instance.id;
    expect(res.json()).toMatchObject({
      interaction: { id: second['id'], type: 2 },
      resource: { type: 12, activity_instance: { id: instanceId } },
    });
    expect(instanceId).toMatch(/^i-\d+-gc-\d+-\d+$/);
    const launched = (await person.dispatch(UPDATE)).d as Record<string, unknown>;
    expect(launched).toMatchObject({
      instance_id: instanceId,
      launched_by: f.guild.owner.userId,
      users: [f.guild.owner.userId],
      location: { kind: 'gc', channel_id: await f.channelId(), guild_id: f.guild.guildId },
    });
    const success = await person.next(
      (fr) => fr.t === 'INTERACTION_SUCCESS' && (fr.d as { nonce: string }).nonce === 'second',
    );
    expect(success.d).toEqual({ id: second['id'], nonce: 'second' });
    // Answered once: a second response is 40060.
    expect((await callback(second, { type: 12 })).json()).toMatchObject({ code: 40060 });
    const stored = await f.server.app.storage.interactions.findById(String(second['id']));
    expect(stored?.responseType).toBe(12);
  });

  it('refuses LAUNCH_ACTIVITY for a person who may not launch there, answering nothing', async () => {
    await makeActivity();
    const command = await f.command({ name: 'play', description: 'Play the game' });
    const bob = await f.guild.join('bob');
    const denied = await f.call(
      'PUT',
      `/channels/${await f.channelId()}/permissions/${bob.userId}`,
      f.guild.owner.token,
      { type: 1, allow: '0', deny: String(P.USE_EMBEDDED_ACTIVITIES) },
    );
    expect(denied.statusCode).toBe(204);
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    expect((await invoke(command, 'bob', bob.token)).statusCode).toBe(204);
    const created = (await bot.dispatch('INTERACTION_CREATE')).d as Record<string, unknown>;
    const res = await callback(created, { type: 12 });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 50013 });
    // The acknowledgement went back with the launch: the app may still answer otherwise.
    const stored = await f.server.app.storage.interactions.findById(String(created['id']));
    expect(stored?.responseType).toBeNull();
    const answered = await callback(created, { type: 4, data: { content: 'not for you' } });
    expect(answered.statusCode, answered.body).toBe(200);
    expect(await f.server.app.storage.activities.listLiveInstances(await f.channelId())).toEqual(
      [],
    );
  });

  it('launches an entry point with the DISCORD_LAUNCH_ACTIVITY handler without the app', async () => {
    await makeActivity();
    const platform = await f.command({
      name: 'launch',
      description: 'Launch the activity',
      type: 4,
      handler: 2,
    });
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const person = await f.gateway(f.guild.owner.token, I.GUILDS);

    const res = await invoke(platform, 'entry');
    expect(res.statusCode, res.body).toBe(204);
    const launched = (await person.dispatch(UPDATE)).d as Record<string, unknown>;
    expect(launched).toMatchObject({ launched_by: f.guild.owner.userId, ended: false });
    expect((await person.next((fr) => fr.t === 'INTERACTION_SUCCESS')).d).toMatchObject({
      nonce: 'entry',
    });
    // No interaction was stored nor sent to the app: a later command of the app's own is the
    // bot's first INTERACTION_CREATE.
    const own = await f.command({ name: 'ping', description: 'Ping' });
    await invoke(own, 'ping');
    const created = (await bot.dispatch('INTERACTION_CREATE')).d as { data: { name: string } };
    expect(created.data.name).toBe('ping');
    expect(bot.frames.filter((fr) => fr.t === 'INTERACTION_CREATE')).toHaveLength(1);
    expect(bot.frames.filter((fr) => fr.t === UPDATE)).toEqual([]);

    // Bob launching the same entry point joins the running instance; the update names him.
    const bob = await f.guild.join('bob');
    const bobGateway = await f.gateway(bob.token, I.GUILDS);
    expect((await invoke(platform, 'bob', bob.token)).statusCode).toBe(204);
    const joined = (await bobGateway.dispatch(UPDATE)).d as Record<string, unknown>;
    expect(joined).toMatchObject({
      instance_id: launched['instance_id'],
      launched_by: bob.userId,
      users: [f.guild.owner.userId, bob.userId],
    });
  });

  it('sends an APP_HANDLER entry point to the app, and refuses a platform one without activity', async () => {
    const appHandled = await f.command({
      name: 'launch',
      description: 'Launch the activity',
      type: 4,
      handler: 1,
    });
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    expect((await invoke(appHandled)).statusCode).toBe(204);
    const created = (await bot.dispatch('INTERACTION_CREATE')).d as { data: { type: number } };
    expect(created.data.type).toBe(4);

    // The app turns its entry point over to the platform, but has no activity yet.
    const edited = await f.call(
      'PATCH',
      `/applications/${appId()}/commands/${String(appHandled['id'])}`,
      f.guild.bot.token,
      { handler: 2 },
    );
    expect(edited.statusCode, edited.body).toBe(200);
    const before = await f.unsettled();
    const res = await invoke(appHandled, 'no-activity');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 50035, errors: { application_id: {} } });
    expect(await f.unsettled()).toBe(before);
  });
});
