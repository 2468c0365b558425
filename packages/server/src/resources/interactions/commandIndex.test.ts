import { GatewayIntentBits as I, PermissionFlags as P } from '@guildhall/protocol';
import { uniqueName } from '../../../test/support/fileServer.js';
import { beforeEach, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import type { Person } from '../../../test/support/guildMembers.js';
import { useInteractionFixture } from '../../../test/support/interactionFixture.js';
import { seedDeveloper } from '../../../test/support/testServer.js';

interface IndexBody {
  applications: { id: string; name: string; icon: string | null; bot_id: string | null }[];
  application_commands: { id: string; name: string; type: number; application_id: string }[];
  version: string;
}

describeDrivers('the application command index on $driver', (driver) => {
  const f = useInteractionFixture(driver);
  let channelId = '';
  beforeEach(async () => {
    channelId = await f.channelId();
  });

  const index = async (person: Person | string, channel = channelId) => {
    const token = typeof person === 'string' ? person : person.token;
    return f.call('GET', `/channels/${channel}/application-command-index`, token);
  };
  const names = async (person: Person, channel = channelId) => {
    const res = await index(person, channel);
    expect(res.statusCode, res.body).toBe(200);
    return res
      .json<IndexBody>()
      .application_commands.map((c) => c.name)
      .sort();
  };
  const guildCommand = async (body: Record<string, unknown>) => {
    const { bot, guildId } = f.guild;
    const res = await f.call(
      'POST',
      `/applications/${bot.applicationId}/guilds/${guildId}/commands`,
      bot.token,
      body,
    );
    expect(res.statusCode, res.body).toBe(201);
    return res.json<{ id: string }>();
  };
  /** What the consent page records for a user install (oauth/authorize.ts). */
  const userInstall = async (person: Person, applicationId: string) => {
    await f.server.app.storage.oauth.upsertAuthorization({
      id: String(BigInt(person.userId) + 7n),
      userId: person.userId,
      applicationId,
      scopes: ['applications.commands'],
      integrationType: 1,
      createdAt: f.clock.now(),
      updatedAt: f.clock.now(),
    });
  };

  it('lists the installed app and the commands each member may use in a guild channel', async () => {
    const ping = await f.command({ name: 'ping', description: 'Ping' });
    await f.command({ name: 'admin', description: 'Admins', default_member_permissions: '8' });
    await f.command({ name: 'dmonly', description: 'DMs only', contexts: [1] });
    await f.command({ name: 'spicy', description: 'Age-restricted', nsfw: true });
    await f.command({ name: 'Profile', type: 2 });
    const local = await guildCommand({ name: 'local', description: 'This guild only' });
    const ann = await f.guild.join('ann');

    const body = (await index(f.guild.owner)).json<IndexBody>();
    expect(body.applications).toEqual([
      {
        id: f.guild.bot.applicationId,
        name: 'owner app',
        icon: null,
        description: '',
        bot_id: f.guild.bot.userId,
      },
    ]);
    expect(body.application_commands.find((c) => c.id === ping['id'])).toMatchObject({
      name: 'ping',
      type: 1,
      application_id: f.guild.bot.applicationId,
    });
    expect(BigInt(body.version)).toBeGreaterThanOrEqual(BigInt(local.id));
    // The owner holds ADMINISTRATOR; the channel is not NSFW; dmonly is for the bot's DM.
    expect(await names(f.guild.owner)).toEqual(['Profile', 'admin', 'local', 'ping']);
    expect(await names(ann)).toEqual(['Profile', 'local', 'ping']);

    // A guild overwrite denying Ann hides the command from her alone.
    await f.server.app.storage.commands.putPermissions({
      applicationId: f.guild.bot.applicationId,
      guildId: f.guild.guildId,
      commandId: String(ping['id']),
      permissions: [{ id: ann.userId, type: 2, permission: false }],
    });
    expect(await names(ann)).toEqual(['Profile', 'local']);
    expect(await names(f.guild.owner)).toContain('ping');

    // In an NSFW channel the age-restricted command appears.
    const nsfw = await f.call('PATCH', `/channels/${channelId}`, f.guild.owner.token, {
      nsfw: true,
    });
    expect(nsfw.statusCode, nsfw.body).toBe(200);
    expect(await names(ann)).toContain('spicy');
  });

  it('offers no command without USE_APPLICATION_COMMANDS, and refuses a channel the caller cannot see', async () => {
    await f.command({ name: 'ping', description: 'Ping' });
    const ann = await f.guild.join('ann');
    const everyone = await f.server.app.storage.roles.findById(f.guild.guildId, f.guild.guildId);
    await f.server.app.storage.roles.update(f.guild.guildId, f.guild.guildId, {
      permissions: (everyone?.permissions ?? 0n) & ~P.USE_APPLICATION_COMMANDS,
    });
    const bare = (await index(ann)).json<IndexBody>();
    expect(bare.applications.map((a) => a.id)).toEqual([f.guild.bot.applicationId]);
    expect(bare.application_commands).toEqual([]);
    expect(bare.version).toBe('0');

    const { guild } = await f.server.app.services.guilds.create({
      ownerId: f.guild.owner.userId,
      name: 'Private',
      channels: [{ name: 'secret', type: 'text' }],
    });
    const channels = await f.server.app.storage.channels.listByGuild(guild.id);
    const secret = channels.find((c) => c.type === 0)?.id ?? '';
    const refused = await index(ann, secret);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 50001 });
    const unknown = await index(ann, '1300000000000000001');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 10003 });
    expect((await index(f.guild.bot.token)).statusCode).toBeGreaterThanOrEqual(400);
  });

  it("lists the bot's commands for its DM, and a user install's wherever it is authorized", async () => {
    await f.command({ name: 'guildonly', description: 'Guilds', contexts: [0] });
    await f.command({ name: 'both', description: 'Guild and bot DM', contexts: [0, 1] });
    const ann = await f.guild.join('ann');
    const dm = await f.call('POST', '/users/@me/channels', ann.token, {
      recipient_id: f.guild.bot.userId,
    });
    expect(dm.statusCode, dm.body).toBe(200);
    const botDm = dm.json<{ id: string }>().id;
    expect(await names(ann, botDm)).toEqual(['both']);

    // Another developer's app, installed by Ann to her account only.
    const other = await seedDeveloper(f.server.app, uniqueName('other'));
    const made = await f.call(
      'POST',
      `/applications/${other.applicationId}/commands`,
      `Bot ${other.botToken}`,
      { name: 'mine', description: 'Mine', integration_types: [1], contexts: [0, 1, 2] },
    );
    expect(made.statusCode, made.body).toBe(201);
    const people = await f.call('POST', '/users/@me/channels', ann.token, {
      recipient_id: f.guild.owner.userId,
    });
    const peopleDm = people.json<{ id: string }>().id;
    expect(await names(ann, peopleDm)).toEqual([]);
    expect((await index(ann, peopleDm)).json<IndexBody>().applications).toEqual([]);
    expect(await names(ann)).not.toContain('mine');

    await userInstall(ann, other.applicationId);
    expect(await names(ann, peopleDm)).toEqual(['mine']);
    expect(await names(ann)).toContain('mine');
    const apps = (await index(ann)).json<IndexBody>().applications.map((a) => a.id);
    expect(apps).toEqual([f.guild.bot.applicationId, other.applicationId].sort());
    // Not for the owner, who did not install it.
    expect(await names(f.guild.owner, peopleDm)).toEqual([]);
  });

  it('gives entries a person can invoke as they are (POST /interactions reaches the bot)', async () => {
    await f.command({
      name: 'echo',
      description: 'Echo',
      options: [{ type: 3, name: 'text', description: 'Text', required: true }],
    });
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const ann = await f.guild.join('ann');
    const body = (await index(ann)).json<IndexBody>();
    const entry = body.application_commands.find((c) => c.name === 'echo');
    if (entry === undefined) throw new Error('echo is not in the index');
    const res = await f.call('POST', '/interactions', ann.token, {
      type: 2,
      application_id: entry.application_id,
      guild_id: f.guild.guildId,
      channel_id: channelId,
      session_id: 'web',
      nonce: 'n1',
      data: {
        id: entry.id,
        name: entry.name,
        type: entry.type,
        options: [{ type: 3, name: 'text', value: 'hi' }],
      },
    });
    expect(res.statusCode, res.body).toBe(204);
    expect((await bot.dispatch('INTERACTION_CREATE')).d).toMatchObject({
      type: 2,
      data: { id: entry.id, name: 'echo', options: [{ name: 'text', value: 'hi' }] },
      member: { user: { id: ann.userId } },
    });
  });
});
