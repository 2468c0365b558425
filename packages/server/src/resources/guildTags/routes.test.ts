import { PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { generateToken, hashSecret } from '../../domain/credentials.js';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../domain/permissions.js';
import { registration, useClockedServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  guildFixture,
  type GuildFixture,
  type Person,
} from '../../../test/support/guildMembers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';

const MINUTE = 60_000;

describeDrivers('guild tags and primary guilds on $driver', (driver) => {
  let server: TestServer;
  let guild: GuildFixture;
  let member: Person;
  const shared = useClockedServer({ storage: driver }, 'api-clock', {
    from: Date.UTC(2026, 5, 1),
    until: CHANNEL_LIST_VISIBILITY_FROM_MS,
  });
  const { clock } = shared;
  beforeEach(async () => {
    server = shared.server;
    guild = await guildFixture(server, {
      botPermissions: P.MANAGE_GUILD,
      nowMs: () => clock.now(),
    });
    member = await guild.join('member');
    clock.advance(MINUTE);
  });

  const tagPath = () => `/guilds/${guild.guildId}/tag`;
  const setTag = (auth: string, payload: unknown) =>
    guild.call('PUT', tagPath(), { auth, payload });
  const wear = (auth: string, payload: unknown) =>
    guild.call('PUT', '/users/@me/primary-guild', { auth, payload });
  /** The user object as another caller (the owner) reads it: GET /users/{id}. */
  const userSeenByOwner = async (userId: string) => {
    const res = await guild.call('GET', `/users/${userId}`, guild.owner.token);
    expectOpenApiResponse(res, 'GET', '/users/{user_id}');
    return res.json<{ primary_guild: unknown }>().primary_guild;
  };

  it('lets MANAGE_GUILD set, read and remove the tag', async () => {
    const put = await setTag(guild.bot.token, { tag: 'GH1', badge: 'sword' });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual({ guild_id: guild.guildId, tag: 'GH1', badge: 'sword' });
    const read = await guild.call('GET', tagPath(), member.token);
    expect(read.json()).toEqual({ guild_id: guild.guildId, tag: 'GH1', badge: 'sword' });

    const denied = await setTag(member.token, { tag: 'NOPE' });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 50013 });
    expect((await guild.call('DELETE', tagPath(), member.token)).statusCode).toBe(403);

    expect((await guild.call('DELETE', tagPath(), guild.owner.token)).statusCode).toBe(204);
    const gone = await guild.call('GET', tagPath(), member.token);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ code: 10087 });
    expect((await guild.call('DELETE', tagPath(), guild.owner.token)).statusCode).toBe(404);
  });

  it.each([
    ['empty', { tag: '' }],
    ['five characters', { tag: 'ABCDE' }],
    ['a space', { tag: 'A B' }],
    ['markup', { tag: '<b>' }],
    ['a number', { tag: 1234 }],
    ['a hostile badge', { tag: 'OK', badge: '../../etc' }],
    ['an unknown field', { tag: 'OK', colour: 1 }],
  ])('refuses a tag with %s (50035) and keeps the old one', async (_name, payload) => {
    await setTag(guild.owner.token, { tag: 'OLD' });
    const res = await setTag(guild.owner.token, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 50035 });
    expect((await server.app.storage.guildTags.findTag(guild.guildId))?.tag).toBe('OLD');
  });

  it('accepts letters and digits of any script, up to four', async () => {
    expect((await setTag(guild.owner.token, { tag: 'Ωλ9' })).statusCode).toBe(200);
    expect((await setTag(guild.owner.token, { tag: '日本語字' })).statusCode).toBe(200);
  });

  it('refuses non-members and unknown guilds', async () => {
    const outsider = await server.app.services.auth.register(registration('outsider'));
    expect((await setTag(outsider.token, { tag: 'X' })).json()).toMatchObject({ code: 50001 });
    const unknown = await guild.call('PUT', '/guilds/123456789012345678/tag', {
      auth: guild.owner.token,
      payload: { tag: 'X' },
    });
    expect(unknown.json()).toMatchObject({ code: 10004 });
  });

  it('shows the worn tag on the user object everywhere, and follows the guild', async () => {
    expect(await userSeenByOwner(member.userId)).toBeNull();
    // No tag yet: nothing to wear.
    const early = await wear(member.token, { identity_guild_id: guild.guildId });
    expect(early.statusCode).toBe(400);
    expect(early.json()).toMatchObject({
      code: 50035,
      errors: { identity_guild_id: { _errors: [{ code: 'GUILD_TAG_REQUIRED' }] } },
    });

    await setTag(guild.owner.token, { tag: 'GH', badge: 'b1' });
    const worn = await wear(member.token, { identity_guild_id: guild.guildId });
    expect(worn.statusCode).toBe(200);
    const shown = {
      identity_guild_id: guild.guildId,
      identity_enabled: true,
      tag: 'GH',
      badge: 'b1',
    };
    expect(worn.json()).toEqual(shown);
    expect(await userSeenByOwner(member.userId)).toEqual(shown);
    // In member objects too.
    const asMember = await guild.call(
      'GET',
      `/guilds/${guild.guildId}/members/${member.userId}`,
      guild.owner.token,
    );
    expectOpenApiResponse(asMember, 'GET', '/guilds/{guild_id}/members/{user_id}');
    expect(asMember.json<{ user: { primary_guild: unknown } }>().user.primary_guild).toEqual(shown);

    // The guild renames its tag: the wearer shows the new one.
    await setTag(guild.owner.token, { tag: 'GH2', badge: null });
    expect(await userSeenByOwner(member.userId)).toEqual({ ...shown, tag: 'GH2', badge: null });

    // Hidden by the user.
    await wear(member.token, { identity_guild_id: guild.guildId, identity_enabled: false });
    expect(await userSeenByOwner(member.userId)).toEqual({
      identity_guild_id: guild.guildId,
      identity_enabled: false,
      tag: null,
      badge: null,
    });

    // The guild drops its tag: cleared by the system (enabled null); a later tag stays off.
    await wear(member.token, { identity_guild_id: guild.guildId, identity_enabled: true });
    await guild.call('DELETE', tagPath(), guild.owner.token);
    expect(await userSeenByOwner(member.userId)).toEqual({
      identity_guild_id: guild.guildId,
      identity_enabled: null,
      tag: null,
      badge: null,
    });
    await setTag(guild.owner.token, { tag: 'NEW' });
    expect(await userSeenByOwner(member.userId)).toMatchObject({
      identity_enabled: false,
      tag: null,
    });

    // Cleared by the user.
    const cleared = await wear(member.token, { identity_guild_id: null });
    expect(cleared.json()).toEqual({
      identity_guild_id: null,
      identity_enabled: null,
      tag: null,
      badge: null,
    });
    expect(await userSeenByOwner(member.userId)).toBeNull();
  });

  it('drops the tag when the user leaves, and a return does not bring it back', async () => {
    await setTag(guild.owner.token, { tag: 'GH' });
    await wear(member.token, { identity_guild_id: guild.guildId });
    clock.advance(MINUTE);
    const left = await guild.call('DELETE', `/users/@me/guilds/${guild.guildId}`, member.token);
    expect(left.statusCode).toBe(204);
    expect(await userSeenByOwner(member.userId)).toBeNull();
    clock.advance(MINUTE);
    await server.app.storage.members.add({
      guildId: guild.guildId,
      userId: member.userId,
      nick: null,
      joinedAt: clock.now(),
      deaf: false,
      mute: false,
      flags: 0,
      roleIds: [],
    });
    expect(await userSeenByOwner(member.userId)).toBeNull();
    // Wearing it again works.
    clock.advance(MINUTE);
    await wear(member.token, { identity_guild_id: guild.guildId });
    expect(await userSeenByOwner(member.userId)).toMatchObject({ tag: 'GH' });
  });

  it('refuses bad primary guild requests and changes nothing', async () => {
    await setTag(guild.owner.token, { tag: 'GH' });
    const outsider = await server.app.services.auth.register(registration('outsider'));
    const notMember = await wear(outsider.token, { identity_guild_id: guild.guildId });
    expect(notMember.json()).toMatchObject({ code: 10007 });
    const unknown = await wear(member.token, { identity_guild_id: '123456789012345678' });
    expect(unknown.json()).toMatchObject({ code: 10004 });
    for (const payload of [
      {},
      { identity_guild_id: 'abc' },
      { identity_guild_id: guild.guildId, identity_enabled: 'yes' },
      { identity_guild_id: 12 },
    ]) {
      const res = await wear(member.token, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 50035 });
    }
    expect((await wear(guild.bot.token, { identity_guild_id: guild.guildId })).statusCode).toBe(
      403,
    );

    const token = generateToken(member.userId, clock.now());
    await server.app.storage.tokens.create({
      hash: hashSecret(token),
      kind: 'bearer',
      userId: member.userId,
      applicationId: guild.bot.applicationId,
      scopes: ['guilds'],
      createdAt: clock.now(),
      expiresAt: null,
    });
    const scoped = await wear(`Bearer ${token}`, { identity_guild_id: guild.guildId });
    expect(scoped.json()).toMatchObject({ code: 50026 });
    expect(await userSeenByOwner(member.userId)).toBeNull();
  });
});
