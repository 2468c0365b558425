import { GatewayIntentBits as I, PermissionFlags as P } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import { useGatewayFixture } from './support/gatewayFixture.js';

const INTENTS = I.GUILDS | I.AUTO_MODERATION_CONFIGURATION | I.AUTO_MODERATION_EXECUTION;

describe('auto-moderation events', () => {
  // The routing is the same whatever the storage: one driver (the REST paths run on both).
  const gw = useGatewayFixture();

  it('go to MANAGE_GUILD holders with the intents; apps without MESSAGE_CONTENT lose content', async () => {
    const g = gw.guild;
    const member = await g.join('member');
    const owner = (await gw.session({ token: g.owner.token, intents: INTENTS })).client;
    const bot = (await gw.session({ token: g.bot.token, intents: INTENTS })).client;
    const plain = (await gw.session({ token: member.token, intents: INTENTS })).client;
    const noIntent = (await gw.session({ token: g.owner.token, intents: I.GUILDS })).client;

    // The bot gets MANAGE_GUILD on its managed role.
    const botRole = (await gw.server.app.storage.roles.listByGuild(g.guildId)).find(
      (r) => r.managed,
    );
    await g.call('PATCH', `/guilds/${g.guildId}/roles/${botRole?.id ?? ''}`, {
      auth: g.owner.token,
      payload: { permissions: String(P.MANAGE_GUILD) },
    });
    await bot.dispatch('GUILD_ROLE_UPDATE');

    const created = await g.call('POST', `/guilds/${g.guildId}/auto-moderation/rules`, {
      auth: g.owner.token,
      payload: {
        name: 'No cats',
        event_type: 1,
        trigger_type: 1,
        trigger_metadata: { keyword_filter: ['cat*'] },
        actions: [{ type: 1 }],
        enabled: true,
      },
    });
    const rule = created.json<{ id: string }>();
    expect((await owner.dispatch('AUTO_MODERATION_RULE_CREATE')).d).toEqual(rule);
    expect((await bot.dispatch('AUTO_MODERATION_RULE_CREATE')).d).toEqual(rule);

    const [general] = await gw.server.app.storage.channels.listByGuild(g.guildId);
    const res = await g.call('POST', `/channels/${general?.id ?? ''}/messages`, {
      auth: member.token,
      payload: { content: 'look, catnip' },
    });
    expect(res.json()).toMatchObject({ code: 200000 });
    const execution = {
      guild_id: g.guildId,
      action: { type: 1, metadata: {} },
      rule_id: rule.id,
      rule_trigger_type: 1,
      user_id: member.userId,
      channel_id: general?.id,
      matched_keyword: 'cat*',
    };
    const seen = (await owner.dispatch('AUTO_MODERATION_ACTION_EXECUTION')).d;
    expect(seen).toEqual({ ...execution, content: 'look, catnip', matched_content: 'catnip' });
    expect(seen).not.toHaveProperty('message_id');
    const app = (await bot.dispatch('AUTO_MODERATION_ACTION_EXECUTION')).d;
    expect(app).toEqual({ ...execution, content: '', matched_content: '' });

    // A later event everyone receives: by then the others would have had the auto-moderation ones.
    await g.call('POST', `/guilds/${g.guildId}/roles`, {
      auth: g.owner.token,
      payload: { name: 'x' },
    });
    for (const client of [plain, noIntent]) {
      await client.dispatch('GUILD_ROLE_CREATE');
      expect(client.frames.filter((f) => f.t?.startsWith('AUTO_MODERATION') === true)).toEqual([]);
    }
  });
});
