import { expect, it } from 'vitest';
import { useCommandFixture } from '../../../test/support/commandFixture.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { apiRequest } from '../../../test/support/inject.js';

/** The developer portal reads and deletes an app's commands with its owner's session. */
describeDrivers("commands with the owner's session on $driver", (driver) => {
  const fx = useCommandFixture(driver);
  const paths = () => [
    `/applications/${fx.appId}/commands`,
    `/applications/${fx.appId}/guilds/${fx.guild.guildId}/commands`,
  ];
  const owner = () => fx.guild.owner.token;

  it('lists, gets and deletes global and guild commands', async () => {
    for (const path of paths()) {
      const made = await fx.call(`POST ${path}`, fx.bot, {
        payload: { name: 'ping', description: 'Replies with pong' },
      });
      expect(made.statusCode).toBe(201);
      const { id } = made.json<{ id: string }>();

      const list = await fx.call(`GET ${path}`, owner());
      expect(list.statusCode).toBe(200);
      expect(list.json<{ id: string }[]>().map((c) => c.id)).toEqual([id]);
      const one = await fx.call(`GET ${path}/${id}`, owner());
      expect(one.statusCode).toBe(200);
      expect(one.json()).toMatchObject({ id, name: 'ping' });

      const deleted = await fx.call(`DELETE ${path}/${id}`, owner());
      expect(deleted.statusCode).toBe(204);
      expect((await fx.call(`GET ${path}`, fx.bot)).json()).toEqual([]);
    }
  });

  it('lists the guild commands of every guild the bot is in, for the owner only', async () => {
    const guildPath = `/applications/${fx.appId}/guilds/${fx.guild.guildId}/commands`;
    // Guildhall's own route (the portal's), which the platform's OpenAPI document does not have.
    const list = (auth: string) =>
      apiRequest(fx.app, `GET /applications/${fx.appId}/guild-commands`, { auth });
    expect((await list(owner())).json()).toEqual([]);
    const made = await fx.call(`POST ${guildPath}`, fx.bot, {
      payload: { name: 'tag', description: 'Tags things' },
    });
    expect(made.statusCode).toBe(201);
    const res = await list(owner());
    expect(res.statusCode).toBe(200);
    const listed = res.json<{ guild: { id: string }; commands: { name: string }[] }[]>();
    expect(listed.map((entry) => entry.guild.id)).toEqual([fx.guild.guildId]);
    expect(listed[0]?.commands.map((c) => c.name)).toEqual(['tag']);
    const stranger = await fx.guild.join('nosy');
    const refused = await list(stranger.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 50001 });
    expect((await list(fx.bot)).statusCode).toBe(403);
  });

  it("refuses another person's session, and a session's writes", async () => {
    const [global = ''] = paths();
    const made = await fx.call(`POST ${global}`, fx.bot, {
      payload: { name: 'ping', description: 'Replies with pong' },
    });
    const { id } = made.json<{ id: string }>();
    const stranger = await fx.guild.join('stranger');
    for (const route of [`GET ${global}`, `GET ${global}/${id}`, `DELETE ${global}/${id}`]) {
      const res = await fx.call(route, stranger.token);
      expect(res.statusCode, route).toBe(403);
      expect(res.json()).toMatchObject({ code: 50001 });
    }
    // Another developer's own session does not reach this app either.
    expect((await fx.call(`GET ${global}`, fx.other.userToken)).statusCode).toBe(403);
    // Creating and editing stay with the bot and Bearer tokens (a session there is 401).
    const create = await fx.call(`POST ${global}`, owner(), {
      payload: { name: 'pong', description: 'No' },
    });
    expect(create.statusCode).toBe(401);
    expect((await fx.call(`GET ${global}`, fx.bot)).json()).toHaveLength(1);
  });

  it("guild commands need the app's bot in the guild, for its owner as well", async () => {
    const res = await fx.call(
      `GET /applications/${fx.appId}/guilds/${fx.bareGuildId}/commands`,
      owner(),
    );
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 50001 });
  });
});
