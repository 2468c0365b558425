import { GatewayIntentBits as I } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useInteractionFixture } from '../../../test/support/interactionFixture.js';
import { SkuFlags, SkuTypes } from '../../storage/index.js';

describeDrivers('entitlements in interactions, premium buttons: $driver', (driver) => {
  const f = useInteractionFixture(driver);

  it("carries the user's and the guild's entitlements; premium buttons name the app's SKUs", async () => {
    const appId = f.guild.bot.applicationId;
    const bot = f.guild.bot.token;
    const sku = async (id: string, type: number, flags: number) => {
      await f.server.app.storage.skus.create({
        id,
        applicationId: appId,
        type,
        name: `sku ${id}`,
        slug: `sku-${id}`,
        flags,
        createdAt: f.clock.now(),
      });
      return id;
    };
    const durable = await sku('9001', SkuTypes.DURABLE, SkuFlags.AVAILABLE);
    const guildPlan = await sku(
      '9002',
      SkuTypes.SUBSCRIPTION,
      SkuFlags.AVAILABLE | SkuFlags.GUILD_SUBSCRIPTION,
    );
    const grant = async (skuId: string, ownerId: string, ownerType: number) =>
      (
        await f.call('POST', `/applications/${appId}/entitlements`, bot, {
          sku_id: skuId,
          owner_id: ownerId,
          owner_type: ownerType,
        })
      ).json<{ id: string }>();
    const mine = await grant(durable, f.guild.owner.userId, 2);
    const guilds = await grant(guildPlan, f.guild.guildId, 1);
    const member = await f.guild.join('member');
    const theirs = await grant(durable, member.userId, 2);
    expect(theirs).toMatchObject({ user_id: member.userId });

    const command = await f.command({ name: 'shop', description: 'Opens the shop' });
    const gateway = await f.gateway(f.guild.bot.token, I.GUILDS);
    const channelId = await f.channelId();
    const invoked = await f.call('POST', '/interactions', f.guild.owner.token, {
      type: 2,
      application_id: appId,
      guild_id: f.guild.guildId,
      channel_id: channelId,
      session_id: 'session-1',
      data: { id: command['id'], name: 'shop', type: 1 },
    });
    expect(invoked.statusCode).toBe(204);
    const created = (await gateway.dispatch('INTERACTION_CREATE')).d as {
      entitlements: { id: string }[];
    };
    // The owner's own and the guild's; never another member's.
    expect(created.entitlements.map((e) => e.id)).toEqual([mine.id, guilds.id]);
    expect(created.entitlements[0]).toMatchObject({
      sku_id: durable,
      user_id: f.guild.owner.userId,
      type: 4,
      consumed: false,
      deleted: false,
    });

    // The app's bot offers its SKU with a premium button; a SKU it does not sell is 50057.
    const send = (skuId: string) =>
      f.call('POST', `/channels/${channelId}/messages`, bot, {
        components: [{ type: 1, components: [{ type: 2, style: 6, sku_id: skuId }] }],
      });
    const offered = await send(durable);
    expect(offered.statusCode).toBe(200);
    expect(offered.json()).toMatchObject({
      components: [{ type: 1, components: [{ type: 2, style: 6, sku_id: durable }] }],
    });
    const foreign = await send('9003');
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json()).toMatchObject({ code: 50057, message: 'Invalid SKU' });
    const { id } = offered.json<{ id: string }>();
    const edited = await f.call('PATCH', `/channels/${channelId}/messages/${id}`, bot, {
      components: [{ type: 1, components: [{ type: 2, style: 6, sku_id: '9003' }] }],
    });
    expect(edited.json()).toMatchObject({ code: 50057 });
  });
});
