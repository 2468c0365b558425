import { PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it } from 'vitest';
import { fabricatedId, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import { type TestServer } from '../../../test/support/testServer.js';

describeDrivers('deleting a role on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;

  const shared = useFileServer({ storage: driver }, 'api');
  beforeEach(async () => {
    server = shared.server;
    g = await guildFixture(server, { botPermissions: P.MANAGE_ROLES });
  });

  it('takes its channel overwrites and emoji restrictions with it', async () => {
    const role = (
      await g.call('POST', `/guilds/${g.guildId}/roles`, {
        auth: g.owner.token,
        payload: { name: 'Temp' },
      })
    ).json<{ id: string }>();
    const [channel] = await server.app.storage.channels.listByGuild(g.guildId);
    const channelId = channel?.id ?? '';
    const put = await g.call('PUT', `/channels/${channelId}/permissions/${role.id}`, {
      auth: g.owner.token,
      payload: { type: 0, allow: '0', deny: String(P.SEND_MESSAGES) },
    });
    expect(put.statusCode).toBe(204);
    const emoji = await server.app.storage.emojis.create({
      id: fabricatedId(role.id),
      guildId: g.guildId,
      name: 'only_temp',
      creatorId: g.owner.userId,
      animated: false,
      roleIds: [role.id],
      available: true,
      createdAt: Date.now(),
    });

    const res = await g.call('DELETE', `/guilds/${g.guildId}/roles/${role.id}`, g.owner.token);
    expect(res.statusCode).toBe(204);
    const overwrites = await server.app.storage.overwrites.listByChannel(channelId);
    expect(overwrites.map((o) => o.targetId)).not.toContain(role.id);
    expect((await server.app.storage.emojis.findById(emoji.id))?.roleIds).toEqual([]);
  });
});
