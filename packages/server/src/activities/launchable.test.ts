import { ApplicationFlags } from '@guildhall/protocol';
import { uniqueName } from '../../test/support/fileServer.js';
import { beforeEach, expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { useInteractionFixture } from '../../test/support/interactionFixture.js';

interface Shelf {
  applications: { id: string; name: string; icon: string | null; description: string }[];
}

describeDrivers('the activity shelf on $driver', (driver) => {
  const f = useInteractionFixture(driver);
  let channelId = '';
  beforeEach(async () => {
    channelId = await f.channelId();
  });

  const shelf = (token: string, channel = channelId) =>
    f.call('GET', `/channels/${channel}/activity-shelf`, token);
  const setEmbedded = async (applicationId: string, on: boolean) => {
    const app = await f.server.app.storage.applications.findById(applicationId);
    if (app === null) throw new Error('no app');
    const flags = on
      ? app.flags | ApplicationFlags.EMBEDDED
      : app.flags & ~ApplicationFlags.EMBEDDED;
    await f.server.app.storage.applications.update(applicationId, { flags });
  };

  it('lists the guild apps with an activity, for members who see the channel', async () => {
    const { bot, owner } = f.guild;
    // The guild's app has no activity yet: an empty shelf.
    let res = await shelf(owner.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Shelf>()).toEqual({ applications: [] });

    await setEmbedded(bot.applicationId, true);
    const ann = await f.guild.join('ann');
    res = await shelf(ann.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Shelf>()).toEqual({
      applications: [{ id: bot.applicationId, name: 'owner app', icon: null, description: '' }],
    });

    await setEmbedded(bot.applicationId, false);
    expect((await shelf(ann.token)).json<Shelf>()).toEqual({ applications: [] });
  });

  it('lists the apps running in the channel, for those who may join them', async () => {
    const { owner } = f.guild;
    // An app no one installed in the guild, launched by its owner in a voice channel.
    const devName = uniqueName('dev');
    const dev = await f.server.app.services.auth.register({
      email: `${devName}@example.test`,
      username: devName,
      password: 'correct horse battery',
    });
    const created = await f.server.app.services.applications.create(dev.user_id, {
      name: 'Tiles',
    });
    const appId = created.application.id;
    const config = await f.call(
      'PATCH',
      `/applications/${appId}/embedded-activity-config`,
      dev.token,
      { url_mappings: [{ prefix: '/', target: 'example.com' }] },
    );
    expect(config.statusCode, config.body).toBe(200);
    const voice = await f.call('POST', `/guilds/${f.guild.guildId}/channels`, owner.token, {
      name: 'Lounge',
      type: 2,
    });
    const voiceId = voice.json<{ id: string }>().id;
    expect((await shelf(owner.token, voiceId)).json<Shelf>()).toEqual({ applications: [] });
    // The owner has it installed for themselves and launches it.
    await f.server.app.storage.oauth.upsertAuthorization({
      id: String(BigInt(owner.userId) + 7n),
      userId: owner.userId,
      applicationId: appId,
      scopes: ['applications.commands'],
      integrationType: 1,
      createdAt: f.clock.now(),
      updatedAt: f.clock.now(),
    });
    const launched = await f.call('POST', `/channels/${voiceId}/activity-instances`, owner.token, {
      application_id: appId,
    });
    expect(launched.statusCode, launched.body).toBe(200);
    // Another member sees it on the shelf: it runs there.
    const ann = await f.guild.join('ann');
    expect((await shelf(ann.token, voiceId)).json<Shelf>()).toEqual({
      applications: [{ id: appId, name: 'Tiles', icon: null, description: '' }],
    });
  });

  it('refuses strangers, unknown channels and bot tokens', async () => {
    const { bot } = f.guild;
    await setEmbedded(bot.applicationId, true);
    const strangerName = uniqueName('stranger');
    const stranger = await f.server.app.services.auth.register({
      email: `${strangerName}@example.test`,
      username: strangerName,
      password: 'correct horse battery',
    });
    const refused = await shelf(stranger.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 50001 });
    const unknown = await shelf(f.guild.owner.token, '123');
    expect(unknown.json()).toMatchObject({ code: 10003 });
    const asBot = await shelf(bot.token);
    expect(asBot.statusCode, asBot.body).toBe(403);
    expect(asBot.json()).toMatchObject({ code: 20001 });
  });
});
