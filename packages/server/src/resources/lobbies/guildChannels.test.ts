import { PermissionFlags as P } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useLobbyFixture } from '../../../test/support/lobbyFixture.js';
import { apiRequest } from '../../../test/support/inject.js';

interface LinkableChannel {
  id: string;
  name: string;
  type: number;
  position: number;
  parent_id: string | null;
  linkable: boolean;
  viewable_and_writeable_by_all_members: boolean;
  linked_lobby: { application_id: string; lobby_id: string } | null;
}

describeDrivers('guilds and channels for an SDK token on $driver', (driver) => {
  const fx = useLobbyFixture(driver);
  const { call } = fx;

  const inject = (route: string, auth: string, body?: object) =>
    apiRequest(fx.app, route, { auth, payload: body });

  /**
   * Ann's guild: #general (default), a category "Raids" holding #plans and #officers (hidden
   * from @everyone), and #rules (readable, not writable by @everyone). Bob joins it.
   */
  const annsGuild = async () => {
    const { ann, bob } = fx.players;
    const guild = (await inject('POST /guilds', ann.session, { name: 'Raid night' })).json<{
      id: string;
    }>();
    const make = async (body: object) => {
      const res = await inject(`POST /guilds/${guild.id}/channels`, ann.session, body);
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ id: string }>().id;
    };
    const raids = await make({ name: 'Raids', type: 4, position: 0 });
    const plans = await make({ name: 'plans', type: 0, parent_id: raids, position: 1 });
    const officers = await make({
      name: 'officers',
      type: 0,
      parent_id: raids,
      position: 0,
      permission_overwrites: [{ id: guild.id, type: 0, deny: String(P.VIEW_CHANNEL) }],
    });
    const rules = await make({
      name: 'rules',
      type: 0,
      position: 5,
      permission_overwrites: [{ id: guild.id, type: 0, deny: String(P.SEND_MESSAGES) }],
    });
    const channels = (await inject(`GET /guilds/${guild.id}/channels`, ann.session)).json<
      { id: string; name: string }[]
    >();
    const general = channels.find((c) => c.name === 'general')?.id ?? '';
    const invite = await inject(`POST /channels/${general}/invites`, ann.session, {});
    const code = invite.json<{ code: string }>().code;
    expect((await inject(`POST /invites/${code}`, bob.session, {})).statusCode).toBe(200);
    return { guildId: guild.id, raids, plans, officers, rules, general };
  };

  it('lists the player’s guilds for a token with sdk.social_layer, not for one without', async () => {
    const { ann } = fx.players;
    const { guildId } = await annsGuild();
    const listed = await inject('GET /users/@me/guilds', ann.bearer);
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json<{ id: string; name: string }[]>()).toEqual([
      expect.objectContaining({ id: guildId, name: 'Raid night' }),
    ]);
    const identifyOnly = await fx.bearerFor(ann.id, fx.dev.applicationId, ['identify']);
    expect((await inject('GET /users/@me/guilds', identifyOnly)).statusCode).toBe(401);
    const guildsScope = await fx.bearerFor(ann.id, fx.dev.applicationId, ['guilds']);
    expect((await inject('GET /users/@me/guilds', guildsScope)).statusCode).toBe(200);
  });

  it('lists the channels the caller sees, with linkability and @everyone’s access', async () => {
    const { ann, bob } = fx.players;
    const g = await annsGuild();
    const owner = await call(`GET /users/@me/guilds/${g.guildId}/channels`, ann.bearer);
    expect(owner.statusCode, owner.body).toBe(200);
    const byName = new Map(owner.json<LinkableChannel[]>().map((c) => [c.name, c]));
    expect(byName.get('officers')).toMatchObject({
      id: g.officers,
      parent_id: g.raids,
      linkable: true,
      viewable_and_writeable_by_all_members: false,
      linked_lobby: null,
    });
    expect(byName.get('plans')).toMatchObject({
      linkable: true,
      viewable_and_writeable_by_all_members: true,
    });
    expect(byName.get('rules')).toMatchObject({
      linkable: true,
      viewable_and_writeable_by_all_members: false,
    });
    // Categories and voice channels are listed but never linkable.
    expect(byName.get('Raids')).toMatchObject({ type: 4, linkable: false });
    expect(byName.get('General')).toMatchObject({ type: 2, linkable: false });

    // Bob (no MANAGE_CHANNELS) links nothing and does not see #officers.
    const member = await call(`GET /users/@me/guilds/${g.guildId}/channels`, bob.bearer);
    const bobs = member.json<LinkableChannel[]>();
    expect(bobs.map((c) => c.name)).not.toContain('officers');
    expect(bobs.map((c) => c.name)).toContain('plans');
    expect(bobs.every((c) => !c.linkable)).toBe(true);
  });

  it('shows the application’s lobby linked to a channel, not another application’s', async () => {
    const { ann } = fx.players;
    const g = await annsGuild();
    const made = await call('POST /lobbies', fx.bot(), { members: [{ id: ann.id, flags: 1 }] });
    const lobbyId = made.json<{ id: string }>().id;
    const linked = await call(`PATCH /lobbies/${lobbyId}/channel-linking`, ann.bearer, {
      channel_id: g.plans,
    });
    expect(linked.statusCode, linked.body).toBe(200);
    const listed = (await call(`GET /users/@me/guilds/${g.guildId}/channels`, ann.bearer)).json<
      LinkableChannel[]
    >();
    expect(listed.find((c) => c.id === g.plans)?.linked_lobby).toEqual({
      application_id: fx.dev.applicationId,
      lobby_id: lobbyId,
    });
    const otherApp = await fx.bearerFor(ann.id, fx.other.applicationId);
    const seenByOther = (await call(`GET /users/@me/guilds/${g.guildId}/channels`, otherApp)).json<
      LinkableChannel[]
    >();
    expect(seenByOther.find((c) => c.id === g.plans)?.linked_lobby).toBeNull();
  });

  it('refuses guilds the caller is not in, unknown guilds and tokens without the scope', async () => {
    const { cat, ann } = fx.players;
    const g = await annsGuild();
    expect(
      (await call(`GET /users/@me/guilds/${g.guildId}/channels`, cat.bearer)).json(),
    ).toMatchObject({ code: 50001 });
    expect((await call('GET /users/@me/guilds/4242/channels', ann.bearer)).json()).toMatchObject({
      code: 10004,
    });
    const identifyOnly = await fx.bearerFor(ann.id, fx.dev.applicationId, ['identify']);
    expect(
      (await call(`GET /users/@me/guilds/${g.guildId}/channels`, identifyOnly)).json(),
    ).toMatchObject({ code: 50026 });
    // Bearer tokens only: a session is not an SDK client.
    expect(
      (await inject(`GET /users/@me/guilds/${g.guildId}/channels`, ann.session)).statusCode,
    ).toBe(401);
  });
});
