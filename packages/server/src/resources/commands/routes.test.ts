import { describe, expect, it } from 'vitest';
import { useCommandFixture } from '../../../test/support/commandFixture.js';
import { describeDrivers } from '../../../test/support/drivers.js';

interface CommandBody {
  id: string;
  application_id: string;
  version: string;
  type: number;
  name: string;
  description: string;
  guild_id?: string;
  name_localizations?: Record<string, string> | null;
  name_localized?: string;
  options?: Record<string, unknown>[];
  [key: string]: unknown;
}

const PING = {
  name: 'ping',
  description: 'Replies with pong',
  name_localizations: { fr: 'pingue', de: 'ping-de' },
  description_localizations: { fr: 'Répond pong' },
  options: [
    {
      type: 3,
      name: 'text',
      description: 'What to say',
      required: true,
      choices: [{ name: 'Two lines', value: 'first\nsecond' }],
    },
    { type: 4, name: 'times', description: 'How often', min_value: 1, max_value: 5 },
  ],
};

describeDrivers('application commands on $driver', (driver) => {
  const fx = useCommandFixture(driver);
  const globalPath = () => `/applications/${fx.appId}/commands`;
  const guildPath = (guildId = fx.guild.guildId) =>
    `/applications/${fx.appId}/guilds/${guildId}/commands`;

  const create = async (path: string, payload: object, status = 201) => {
    const res = await fx.call(`POST ${path}`, fx.bot, { payload });
    expect(res.statusCode, res.body).toBe(status);
    return res.json<CommandBody>();
  };

  describe('global commands', () => {
    it('creates, gets, lists, edits and deletes a command, with the wire fields', async () => {
      const made = await create(globalPath(), PING);
      expect(made).toMatchObject({
        application_id: fx.appId,
        type: 1,
        name: 'ping',
        description: 'Replies with pong',
        name_localizations: { fr: 'pingue', de: 'ping-de' },
        default_member_permissions: null,
        dm_permission: true,
        contexts: null,
        integration_types: [0],
        nsfw: false,
      });
      expect(made).not.toHaveProperty('guild_id');
      // Multiline text is kept as sent.
      expect(made.options?.[0]).toMatchObject({
        required: true,
        choices: [{ name: 'Two lines', value: 'first\nsecond' }],
      });
      expect(made.options?.[1]).not.toHaveProperty('required');

      const got = await fx.call(`GET ${globalPath()}/${made.id}`, fx.bot);
      expect(got.json()).toEqual(made);

      const edited = await fx.call(`PATCH ${globalPath()}/${made.id}`, fx.bot, {
        payload: { description: 'Now different', default_member_permissions: '32', contexts: [0] },
      });
      expect(edited.statusCode, edited.body).toBe(200);
      const after = edited.json<CommandBody>();
      expect(after).toMatchObject({
        id: made.id,
        name: 'ping',
        description: 'Now different',
        default_member_permissions: '32',
        contexts: [0],
        dm_permission: false,
      });
      expect(after.version).not.toBe(made.version);
      expect(BigInt(after.version) > BigInt(made.version)).toBe(true);

      const deleted = await fx.call(`DELETE ${globalPath()}/${made.id}`, fx.bot);
      expect(deleted.statusCode).toBe(204);
      expect(deleted.body).toBe('');
      const gone = await fx.call(`GET ${globalPath()}/${made.id}`, fx.bot);
      expect(gone.statusCode).toBe(404);
      expect(gone.json()).toMatchObject({ code: 10063 });
      expect((await fx.call(`DELETE ${globalPath()}/${made.id}`, fx.bot)).json()).toMatchObject({
        code: 10063,
      });
    });

    it('answers POST of an existing name and type with 200 and the same command (upsert)', async () => {
      const first = await create(globalPath(), PING);
      const again = await create(globalPath(), PING, 200);
      expect(again).toEqual(first);
      const changed = await create(globalPath(), { ...PING, description: 'Other' }, 200);
      expect(changed.id).toBe(first.id);
      expect(changed.version).not.toBe(first.version);
      // The same name as a context-menu command is another command.
      const user = await create(globalPath(), { name: 'ping', type: 2 });
      expect(user.id).not.toBe(first.id);
      expect(user).toMatchObject({ type: 2, description: '' });
      const list = await fx.call(`GET ${globalPath()}`, fx.bot);
      expect(list.json<CommandBody[]>().map((c) => c.id)).toEqual([first.id, user.id]);
    });

    it('makes one command of two racing POSTs of the same name (201 and 200)', async () => {
      const [a, b] = await Promise.all([
        fx.call(`POST ${globalPath()}`, fx.bot, { payload: PING }),
        fx.call(`POST ${globalPath()}`, fx.bot, { payload: { ...PING, description: 'Second' } }),
      ]);
      expect([a.statusCode, b.statusCode].sort()).toEqual([200, 201]);
      const list = (await fx.call(`GET ${globalPath()}`, fx.bot)).json<CommandBody[]>();
      expect(list).toHaveLength(1);
      expect(a.json<CommandBody>().id).toBe(b.json<CommandBody>().id);
    });

    it('lists with localized names by X-Discord-Locale, or the full maps with with_localizations', async () => {
      await create(globalPath(), PING);
      const plain = await fx.call(`GET ${globalPath()}`, fx.bot, {
        headers: { 'x-discord-locale': 'fr' },
      });
      const [command] = plain.json<CommandBody[]>();
      expect(command).toMatchObject({ name: 'ping', name_localized: 'pingue' });
      expect(command).not.toHaveProperty('name_localizations');
      expect(command?.['description_localized']).toBe('Répond pong');
      expect(command?.options?.[0]).not.toHaveProperty('name_localizations');

      const full = await fx.call(`GET ${globalPath()}?with_localizations=true`, fx.bot);
      expect(full.json<CommandBody[]>()[0]).toMatchObject({
        name_localizations: { fr: 'pingue', de: 'ping-de' },
      });
      expect(full.json<CommandBody[]>()[0]).not.toHaveProperty('name_localized');
    });

    it('refuses a rename onto another command’s name with 40041', async () => {
      await create(globalPath(), PING);
      const other = await create(globalPath(), { name: 'other', description: 'd' });
      const res = await fx.call(`PATCH ${globalPath()}/${other.id}`, fx.bot, {
        payload: { name: 'ping' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 40041 });
      expect((await fx.call(`GET ${globalPath()}/${other.id}`, fx.bot)).json()).toEqual(other);
    });

    it('validates a PATCH as a whole command: a USER command takes no description', async () => {
      const user = await create(globalPath(), { name: 'Show Profile', type: 2 });
      const res = await fx.call(`PATCH ${globalPath()}/${user.id}`, fx.bot, {
        payload: { description: 'nope' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 50035, errors: { description: {} } });
      const renamed = await fx.call(`PATCH ${globalPath()}/${user.id}`, fx.bot, {
        payload: { name: 'Show Card', nsfw: true, integration_types: [0, 1], contexts: [0, 1, 2] },
      });
      expect(renamed.json()).toMatchObject({
        name: 'Show Card',
        nsfw: true,
        integration_types: [0, 1],
        contexts: [0, 1, 2],
      });
    });
  });

  describe('bulk overwrite', () => {
    it('replaces the set: matched commands keep their id (and version when unchanged), the rest go', async () => {
      const ping = await create(globalPath(), PING);
      const old = await create(globalPath(), { name: 'old', description: 'Going away' });
      const res = await fx.call(`PUT ${globalPath()}`, fx.bot, {
        payload: [PING, { name: 'new', description: 'Fresh' }, { name: 'Inspect', type: 3 }],
      });
      expect(res.statusCode, res.body).toBe(200);
      const list = res.json<CommandBody[]>();
      expect(list.map((c) => c.name)).toEqual(['ping', 'new', 'Inspect']);
      expect(list[0]).toEqual(ping);
      expect(list.some((c) => c.id === old.id)).toBe(false);
      expect((await fx.call(`GET ${globalPath()}/${old.id}`, fx.bot)).statusCode).toBe(404);
      const listed = await fx.call(`GET ${globalPath()}?with_localizations=true`, fx.bot);
      expect(listed.json()).toEqual(list);

      // By id: a rename keeps the command.
      const renamed = await fx.call(`PUT ${globalPath()}`, fx.bot, {
        payload: [{ id: ping.id, name: 'pong', description: 'Renamed' }],
      });
      expect(renamed.json<CommandBody[]>()).toMatchObject([{ id: ping.id, name: 'pong' }]);
      const empty = await fx.call(`PUT ${globalPath()}`, fx.bot, { payload: [] });
      expect(empty.json()).toEqual([]);
    });

    it('is all or nothing: one bad entry or a duplicate name changes nothing', async () => {
      const ping = await create(globalPath(), PING);
      const bad = await fx.call(`PUT ${globalPath()}`, fx.bot, {
        payload: [
          { name: 'fine', description: 'ok' },
          { name: 'Bad Name', description: 'x' },
        ],
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 50035, errors: { '1': { name: {} } } });
      const duplicate = await fx.call(`PUT ${globalPath()}`, fx.bot, {
        payload: [
          { name: 'same', description: 'a' },
          { name: 'same', description: 'b' },
        ],
      });
      expect(duplicate.json()).toMatchObject({
        code: 50035,
        errors: { '1': { name: { _errors: [{ code: 'APPLICATION_COMMANDS_DUPLICATE_NAME' }] } } },
      });
      const notArray = await fx.call(`PUT ${globalPath()}`, fx.bot, { payload: { name: 'x' } });
      expect(notArray.statusCode).toBe(400);
      for (const payload of ['null', '']) {
        const res = await fx.app.http.inject({
          method: 'PUT',
          url: `/api/v10${globalPath()}`,
          headers: { authorization: fx.bot, 'content-type': 'application/json' },
          payload,
        });
        expect(res.statusCode, res.body).toBe(400);
      }
      const list = await fx.call(`GET ${globalPath()}?with_localizations=true`, fx.bot);
      expect(list.json()).toEqual([ping]);
    });
  });

  describe('limits', () => {
    const slash = (i: number) => ({ name: `c${String(i)}`, description: 'd' });

    it('allows 100 slash commands per scope and refuses the 101st with 30032', async () => {
      const hundred = Array.from({ length: 100 }, (_, i) => slash(i));
      const ok = await fx.call(`PUT ${globalPath()}`, fx.bot, { payload: hundred });
      expect(ok.statusCode, ok.body).toBe(200);
      const over = await create(globalPath(), slash(100), 400);
      expect(over).toMatchObject({ code: 30032 });
      const bulkOver = await fx.call(`PUT ${guildPath()}`, fx.bot, {
        payload: [...hundred, slash(100)],
      });
      expect(bulkOver.json()).toMatchObject({ code: 30032 });
      // Another scope counts on its own.
      await create(guildPath(), slash(0));
    });

    it('allows 15 USER and 15 MESSAGE commands per scope, not 16', async () => {
      const menu = (type: number, n: number) =>
        Array.from({ length: n }, (_, i) => ({ name: `Menu ${String(i)}`, type }));
      const ok = await fx.call(`PUT ${globalPath()}`, fx.bot, {
        payload: [...menu(2, 15), ...menu(3, 15)],
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(await create(globalPath(), { name: 'Menu 15', type: 2 }, 400)).toMatchObject({
        code: 30032,
      });
      expect(await create(globalPath(), { name: 'Menu 15', type: 3 }, 400)).toMatchObject({
        code: 30032,
      });
      const bulk = await fx.call(`PUT ${guildPath()}`, fx.bot, { payload: menu(3, 16) });
      expect(bulk.json()).toMatchObject({ code: 30032 });
    });

    it('keeps one PRIMARY_ENTRY_POINT command per application, global only', async () => {
      const entry = { name: 'launch', description: 'Launch', type: 4, handler: 2 };
      const made = await create(globalPath(), entry);
      expect(made).toMatchObject({ type: 4, handler: 2 });
      expect(await create(globalPath(), { ...entry, name: 'launch2' }, 400)).toMatchObject({
        code: 30032,
      });
      const inGuild = await create(guildPath(), entry, 400);
      expect(inGuild).toMatchObject({ code: 50035, errors: { type: {} } });
      const noHandler = await create(globalPath(), { ...entry, handler: undefined }, 400);
      expect(noHandler).toMatchObject({ code: 50035, errors: { handler: {} } });
    });
  });

  describe('guild commands', () => {
    it('keeps guild commands to their guild, with guild_id, apart from the global ones', async () => {
      const global = await create(globalPath(), PING);
      const local = await create(guildPath(), PING);
      expect(local.guild_id).toBe(fx.guild.guildId);
      expect(local).not.toHaveProperty('dm_permission');
      expect(local.id).not.toBe(global.id);
      const list = await fx.call(`GET ${guildPath()}`, fx.bot);
      expect(list.json<CommandBody[]>().map((c) => c.id)).toEqual([local.id]);
      // Neither is found through the other's path.
      expect((await fx.call(`GET ${guildPath()}/${global.id}`, fx.bot)).json()).toMatchObject({
        code: 10063,
      });
      expect((await fx.call(`GET ${globalPath()}/${local.id}`, fx.bot)).json()).toMatchObject({
        code: 10063,
      });
      const edited = await fx.call(`PATCH ${guildPath()}/${local.id}`, fx.bot, {
        payload: { description: 'Guild only' },
      });
      expect(edited.json()).toMatchObject({
        guild_id: fx.guild.guildId,
        description: 'Guild only',
      });
      expect((await fx.call(`DELETE ${guildPath()}/${local.id}`, fx.bot)).statusCode).toBe(204);
    });

    it('needs the app installed in the guild (50001) and a known guild (10004)', async () => {
      const bare = await fx.call(`POST ${guildPath(fx.bareGuildId)}`, fx.bot, { payload: PING });
      expect(bare.statusCode).toBe(403);
      expect(bare.json()).toMatchObject({ code: 50001 });
      expect((await fx.call(`GET ${guildPath(fx.bareGuildId)}`, fx.bot)).json()).toMatchObject({
        code: 50001,
      });
      const unknown = await fx.call(`GET ${guildPath('1234')}`, fx.bot);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ code: 10004 });
    });
  });

  describe('who may manage commands', () => {
    it('refuses another application’s bot, a session token, and Bearer tokens without the scope', async () => {
      await create(globalPath(), PING);
      const otherBot = `Bot ${fx.other.botToken}`;
      for (const res of [
        await fx.call(`GET ${globalPath()}`, otherBot),
        await fx.call(`POST ${globalPath()}`, otherBot, { payload: PING }),
        await fx.call(`PUT ${globalPath()}`, otherBot, { payload: [] }),
        await fx.call(
          `GET ${globalPath()}`,
          await fx.bearer(fx.guild.owner.userId, ['identify', 'applications.commands']),
        ),
        await fx.call(
          `GET ${globalPath()}`,
          await fx.bearer(
            fx.other.userId,
            ['applications.commands.update'],
            fx.other.applicationId,
          ),
        ),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 50001 });
      }
      // A session writes nothing (its owner reads and deletes, commands/owner.test.ts).
      const session = await fx.call(`POST ${globalPath()}`, fx.guild.owner.token, {
        payload: PING,
      });
      expect(session.statusCode).toBe(401);
      // Nothing was overwritten.
      expect((await fx.call(`GET ${globalPath()}`, fx.bot)).json()).toHaveLength(1);
    });

    it('accepts a client-credentials token of the app (its owner) with the scope', async () => {
      const { applicationId, clientSecret } = fx.other;
      const res = await fx.app.http.inject({
        method: 'POST',
        url: '/api/oauth2/token',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${applicationId}:${clientSecret}`).toString('base64')}`,
        },
        payload: new URLSearchParams({
          grant_type: 'client_credentials',
          scope: 'applications.commands.update',
        }).toString(),
      });
      expect(res.statusCode, res.body).toBe(200);
      const token = `Bearer ${res.json<{ access_token: string }>().access_token}`;
      const path = `/applications/${applicationId}/commands`;
      const made = await fx.call(`POST ${path}`, token, { payload: PING });
      expect(made.statusCode, made.body).toBe(201);
      expect(made.json()).toMatchObject({ application_id: applicationId });
      // Not another application's commands.
      expect((await fx.call(`GET ${globalPath()}`, token)).json()).toMatchObject({ code: 50001 });
    });

    it('accepts a Bearer token of the app with applications.commands.update', async () => {
      const token = await fx.bearer(fx.guild.owner.userId, ['applications.commands.update']);
      const res = await fx.call(`POST ${globalPath()}`, token, { payload: PING });
      expect(res.statusCode).toBe(201);
      expect((await fx.call(`GET ${globalPath()}`, token)).json()).toHaveLength(1);
    });

    it("refuses applications.commands.update in a token of anyone but the app's owner", async () => {
      await create(globalPath(), PING);
      // A person who authorized someone else's app for themselves (no grant issues this now,
      // oauth/scopeGrants.ts; a token from before that) replaces nothing.
      const stranger = await fx.bearer(fx.other.userId, ['applications.commands.update']);
      for (const res of [
        await fx.call(`PUT ${globalPath()}`, stranger, { payload: [] }),
        await fx.call(`POST ${globalPath()}`, stranger, { payload: { ...PING, name: 'other' } }),
        await fx.call(`GET ${globalPath()}`, stranger),
      ]) {
        expect(res.statusCode).toBe(403);
        expect(res.json()).toMatchObject({ code: 50001, message: 'Missing Access' });
      }
      const kept = await fx.call(`GET ${globalPath()}`, fx.bot);
      expect(kept.json()).toMatchObject([{ name: PING.name }]);
      // The owner's token still replaces them.
      const owner = await fx.bearer(fx.guild.owner.userId, ['applications.commands.update']);
      const replaced = await fx.call(`PUT ${globalPath()}`, owner, { payload: [] });
      expect(replaced.statusCode).toBe(200);
      expect((await fx.call(`GET ${globalPath()}`, fx.bot)).json()).toEqual([]);
    });
  });
});
