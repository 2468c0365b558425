import { createHash } from 'node:crypto';
import { GatewayIntentBits as I, PermissionFlags as P } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  useInteractionFixture,
  type InteractionFixture,
} from '../../../test/support/interactionFixture.js';

const ECHO = {
  name: 'echo',
  description: 'Says it back',
  options: [
    { type: 3, name: 'text', description: 'What to say', required: true, max_length: 50 },
    { type: 4, name: 'times', description: 'How often', min_value: 1, max_value: 3 },
    { type: 6, name: 'who', description: 'To whom' },
  ],
};

const DIGITS = expect.stringMatching(/^\d+$/) as unknown;
const ANY_ARRAY = expect.any(Array) as unknown;
const ANY_NUMBER = expect.any(Number) as unknown;
const ANY_STRING = expect.any(String) as unknown;
const ANYTHING = expect.anything() as unknown;

/** Invokes the echo command as the guild's owner, with these options and fields. */
const echoInvoker =
  (f: InteractionFixture) =>
  async (
    command: Record<string, unknown>,
    options: unknown[],
    extra: Record<string, unknown> = {},
  ) =>
    f.call('POST', '/interactions', f.guild.owner.token, {
      type: 2,
      application_id: f.guild.bot.applicationId,
      guild_id: f.guild.guildId,
      channel_id: await f.channelId(),
      session_id: 'session-1',
      nonce: 'nonce-1',
      data: { id: command['id'], name: 'echo', type: 1, options },
      ...extra,
    });

describeDrivers('POST /interactions, delivered on the gateway: $driver', (driver) => {
  const f = useInteractionFixture(driver);
  const invokeEcho = echoInvoker(f);

  it('sends the complete interaction to the bot, and success to the user once answered', async () => {
    const command = await f.command(ECHO);
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const person = await f.gateway(f.guild.owner.token);
    const channelId = await f.channelId();
    const res = await invokeEcho(command, [
      { name: 'text', type: 3, value: 'line one\nline two' },
      { name: 'times', type: 4, value: 2 },
      { name: 'who', type: 6, value: f.guild.bot.userId },
    ]);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');

    const created = (await bot.dispatch('INTERACTION_CREATE')).d as Record<string, unknown>;
    const token = created['token'] as string;
    expect(token).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(created).toMatchObject({
      application_id: f.guild.bot.applicationId,
      type: 2,
      guild_id: f.guild.guildId,
      guild: { id: f.guild.guildId, locale: 'en-US', features: ANY_ARRAY },
      channel_id: channelId,
      channel: { id: channelId, type: 0, permissions: DIGITS },
      member: {
        user: { id: f.guild.owner.userId },
        roles: [],
        permissions: DIGITS,
      },
      version: 1,
      app_permissions: DIGITS,
      locale: 'en-US',
      guild_locale: 'en-US',
      entitlements: [],
      authorizing_integration_owners: { '0': f.guild.guildId },
      context: 0,
      attachment_size_limit: ANY_NUMBER,
      data: {
        id: command['id'],
        name: 'echo',
        type: 1,
        options: [
          { name: 'text', type: 3, value: 'line one\nline two' },
          { name: 'times', type: 4, value: 2 },
          { name: 'who', type: 6, value: f.guild.bot.userId },
        ],
        resolved: {
          users: { [f.guild.bot.userId]: { id: f.guild.bot.userId, bot: true } },
          members: {
            [f.guild.bot.userId]: { roles: ANY_ARRAY, permissions: ANY_STRING },
          },
        },
      },
    });
    expect(created).not.toHaveProperty('user');
    // The owner holds every permission; the member object says so.
    const member = created['member'] as { permissions: string };
    expect(BigInt(member.permissions) & P.ADMINISTRATOR).toBe(P.ADMINISTRATOR);

    // Only the token's hash is kept, and the stored object has no token.
    const hash = createHash('sha256').update(token).digest('hex');
    const stored = await f.server.app.storage.interactions.findByToken(
      f.guild.bot.applicationId,
      hash,
    );
    expect(stored).toMatchObject({ id: created['id'], nonce: 'nonce-1', responseType: null });
    expect(stored?.payload).not.toHaveProperty('token');
    expect(JSON.stringify(stored)).not.toContain(token);

    // The app answers: the user hears of the success; a second answer is 40060.
    const answer = { type: 4, data: { content: 'line one' } };
    if (stored === null) throw new Error('not stored');
    await f.server.app.services.handleInteractionCallback(stored, answer, []);
    const success = await person.dispatch('INTERACTION_SUCCESS');
    expect(success.d).toEqual({ id: created['id'], nonce: 'nonce-1' });
    await expect(
      f.server.app.services.handleInteractionCallback(stored, answer, []),
    ).rejects.toMatchObject({ code: 40060 });
    // The deadline's timer was cleared with the answer: nothing fails later.
    f.timers.fire();
    expect(await f.unsettled()).toBe(0);
    expect((await f.server.app.storage.interactions.findById(stored.id))?.failedAt).toBeNull();
  });

  it('fails an interaction nobody answered in time, and later answers get 10062', async () => {
    const command = await f.command(ECHO);
    await f.gateway(f.guild.bot.token, I.GUILDS);
    const person = await f.gateway(f.guild.owner.token);
    expect((await invokeEcho(command, [{ name: 'text', type: 3, value: 'hi' }])).statusCode).toBe(
      204,
    );
    expect(await f.unsettled()).toBe(1);
    f.clock.advance(3_000);
    f.timers.fire();
    const failure = await person.dispatch('INTERACTION_FAILURE');
    const { id } = failure.d as { id: string };
    expect(failure.d).toEqual({ id, nonce: 'nonce-1' });
    const stored = await f.server.app.storage.interactions.findById(id);
    expect(stored?.failedAt).toBe(f.clock.now());
    if (stored === null) throw new Error('not stored');
    await expect(
      f.server.app.services.handleInteractionCallback(stored, { type: 5 }, []),
    ).rejects.toMatchObject({ code: 10062 });
  });

  it('refuses what the platform refuses, with its codes, and stores nothing', async () => {
    const command = await f.command(ECHO);
    const channelId = await f.channelId();
    const outsider = await f.guild.join('outsider');
    const cases: [Promise<{ statusCode: number; json: () => unknown }>, number, unknown?][] = [
      // Bots do not invoke.
      [f.call('POST', '/interactions', f.guild.bot.token, {}), 403],
      [
        invokeEcho(command, [{ name: 'text', type: 4, value: 'x' }]),
        400,
        { code: 50035, errors: { data: { options: { 0: { type: ANYTHING } } } } },
      ],
      [
        invokeEcho(command, [{ name: 'text', type: 3, value: 7 }]),
        400,
        { code: 50035, errors: { data: { options: { 0: { value: ANYTHING } } } } },
      ],
      [
        invokeEcho(command, [{ name: 'text', type: 3, value: 'x'.repeat(51) }]),
        400,
        { code: 50035 },
      ],
      [
        invokeEcho(command, [
          { name: 'text', type: 3, value: 'x' },
          { name: 'times', type: 4, value: 4 },
        ]),
        400,
        {
          code: 50035,
          errors: {
            data: { options: { 1: { value: { _errors: [{ code: 'NUMBER_TYPE_MAX' }] } } } },
          },
        },
      ],
      [
        invokeEcho(command, [{ name: 'times', type: 4, value: 1 }]),
        400,
        { code: 50035, errors: { data: { options: ANYTHING } } },
      ],
      [
        invokeEcho(command, [
          { name: 'text', type: 3, value: 'x' },
          { name: 'who', type: 6, value: '1311111111111111111' },
        ]),
        400,
        { code: 50035, errors: { data: { options: { 1: { value: ANYTHING } } } } },
      ],
      [invokeEcho({ id: '1311111111111111111' }, []), 404, { code: 10063 }],
      [invokeEcho(command, [], { application_id: '1311111111111111111' }), 404, { code: 10002 }],
      [invokeEcho(command, [], { channel_id: '1311111111111111111' }), 404, { code: 10003 }],
      [invokeEcho(command, [], { type: 9 }), 400, { code: 50035, errors: { type: ANYTHING } }],
    ];
    for (const [pending, status, body] of cases) {
      const res = await pending;
      expect(res.statusCode).toBe(status);
      if (body !== undefined) expect(res.json()).toMatchObject(body as object);
    }
    // A member who may not use commands there: 50013; one who cannot see the channel: 50001.
    await f.call(
      'PUT',
      `/channels/${channelId}/permissions/${outsider.userId}`,
      f.guild.owner.token,
      {
        type: 1,
        allow: '0',
        deny: P.USE_APPLICATION_COMMANDS.toString(),
      },
    );
    const body = {
      type: 2,
      application_id: f.guild.bot.applicationId,
      channel_id: channelId,
      session_id: 's',
      data: {
        id: command['id'],
        name: 'echo',
        type: 1,
        options: [{ name: 'text', type: 3, value: 'x' }],
      },
    };
    const denied = await f.call('POST', '/interactions', outsider.token, body);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 50013 });
    await f.call(
      'PUT',
      `/channels/${channelId}/permissions/${outsider.userId}`,
      f.guild.owner.token,
      {
        type: 1,
        allow: '0',
        deny: P.VIEW_CHANNEL.toString(),
      },
    );
    const hidden = await f.call('POST', '/interactions', outsider.token, body);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.json()).toMatchObject({ code: 50001 });
    expect(await f.unsettled()).toBe(0);
  });

  it('sends a DM interaction to the bot, with the user and the BOT_DM context', async () => {
    const command = await f.command({ name: 'dm', description: 'In DMs', contexts: [0, 1] });
    const shard0 = await f.gateway(f.guild.bot.token, I.GUILDS);
    const dm = await f.call('POST', '/users/@me/channels', f.guild.owner.token, {
      recipient_id: f.guild.bot.userId,
    });
    expect(dm.statusCode).toBe(200);
    const channelId = dm.json<{ id: string }>().id;
    const res = await f.call('POST', '/interactions', f.guild.owner.token, {
      type: 2,
      application_id: f.guild.bot.applicationId,
      channel_id: channelId,
      session_id: 's',
      data: { id: command['id'], name: 'dm', type: 1 },
    });
    expect(res.statusCode).toBe(204);
    const created = (await shard0.dispatch('INTERACTION_CREATE')).d as Record<string, unknown>;
    expect(created).toMatchObject({
      context: 1,
      user: { id: f.guild.owner.userId },
      channel: { id: channelId, type: 1 },
      authorizing_integration_owners: { '0': '0' },
    });
    expect(created).not.toHaveProperty('member');
    expect(created).not.toHaveProperty('guild_id');
  });

  it("sends each interaction to one shard of the bot: the guild's, or shard 0 for a DM", async () => {
    const command = await f.command({ name: 'dm', description: 'Anywhere', contexts: [0, 1] });
    const shardOf = (guildId: string) => Number((BigInt(guildId) >> 22n) % 2n);
    // A second guild of the bot on the other shard (ids minted a millisecond apart).
    f.clock.advance(1);
    const { guild: other } = await f.server.app.services.guilds.create({
      ownerId: f.guild.owner.userId,
      name: 'Other shard',
      channels: [{ name: 'general', type: 'text' }],
    });
    await f.server.app.services.guilds.addBot({
      guildId: other.id,
      applicationId: f.guild.bot.applicationId,
      permissions: 0n,
    });
    expect(shardOf(other.id)).not.toBe(shardOf(f.guild.guildId));
    const shards = [
      await f.gateway(f.guild.bot.token, I.GUILDS, { shard: [0, 2] }),
      await f.gateway(f.guild.bot.token, I.GUILDS, { shard: [1, 2] }),
    ];
    const otherChannel = (await f.server.app.storage.channels.listByGuild(other.id))[0]?.id ?? '';
    const dm = await f.call('POST', '/users/@me/channels', f.guild.owner.token, {
      recipient_id: f.guild.bot.userId,
    });
    const where = [
      { channel_id: dm.json<{ id: string }>().id },
      { guild_id: f.guild.guildId, channel_id: await f.channelId() },
      { guild_id: other.id, channel_id: otherChannel },
    ];
    for (const place of where) {
      const res = await f.call('POST', '/interactions', f.guild.owner.token, {
        type: 2,
        application_id: f.guild.bot.applicationId,
        session_id: 's',
        data: { id: command['id'], name: 'dm', type: 1 },
        ...place,
      });
      expect(res.statusCode).toBe(204);
    }
    // A change every session of the bot hears, after the interactions on each socket.
    await f.call('PATCH', '/users/@me', f.guild.bot.token, { username: 'renamed-bot' });
    const received = await Promise.all(
      shards.map(async (shard) => {
        await shard.dispatch('USER_UPDATE');
        return shard.frames
          .filter((frame) => frame.t === 'INTERACTION_CREATE')
          .map((frame) => (frame.d as { guild_id?: string }).guild_id ?? 'dm');
      }),
    );
    const expected: string[][] = [['dm'], []];
    for (const guildId of [f.guild.guildId, other.id]) expected[shardOf(guildId)]?.push(guildId);
    expect(received).toEqual(expected);
  });
});

// Stopping the node's interaction watch, and sweeping the whole database, need a server of their
// own.
describeDrivers('POST /interactions on a node that stopped: $driver', (driver) => {
  const f = useInteractionFixture(driver, { own: true });
  const invokeEcho = echoInvoker(f);

  it('fails what a stopped node left when the sweep finds it overdue', async () => {
    const command = await f.command(ECHO);
    const person = await f.gateway(f.guild.owner.token);
    await invokeEcho(command, [{ name: 'text', type: 3, value: 'hi' }]);
    // As after a restart: no timer of this node watches it, the row is past its deadline.
    await f.server.app.services.interactionLifecycle.stop();
    f.clock.advance(3_001);
    expect(await f.server.app.services.interactionLifecycle.sweep()).toEqual({
      failed: 1,
      deleted: 0,
    });
    expect((await person.dispatch('INTERACTION_FAILURE')).d).toMatchObject({ nonce: 'nonce-1' });
    f.clock.advance(15 * 60_000);
    expect(await f.server.app.services.interactionLifecycle.sweep()).toEqual({
      failed: 0,
      deleted: 1,
    });
  });
});
