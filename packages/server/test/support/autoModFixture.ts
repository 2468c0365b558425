/**
 * The auto-moderation test fixture: a guild whose bot may manage rules and time members out, its
 * first text channel and a `mod-log` channel for alerts, and the requests and reads the rule tests
 * make (create and delete a rule as the bot, the alerts posted, the audit log).
 *
 * @module
 */
import { PermissionFlags as P } from '@guildhall/protocol';
import { expect } from 'vitest';
import { guildFixture } from './guildMembers.js';
import { firstChannelId } from './messageFixtures.js';
import type { TestServer } from './testServer.js';

/** Makes the guild and its alerts channel on `server`. */
export async function autoModGuild(server: TestServer) {
  const g = await guildFixture(server, { botPermissions: P.MANAGE_GUILD | P.MODERATE_MEMBERS });
  const general = await firstChannelId(server.app, g.guildId);
  const made = await g.call('POST', `/guilds/${g.guildId}/channels`, {
    auth: g.owner.token,
    payload: { name: 'mod-log', type: 0 },
  });
  const alerts = made.json<{ id: string }>().id;
  const rulesUrl = `/guilds/${g.guildId}/auto-moderation/rules`;
  return {
    g,
    general,
    alerts,
    rulesUrl,
    /** Creates an enabled rule as the bot (it must succeed); its id. */
    async createRule(payload: object) {
      const res = await g.call('POST', rulesUrl, {
        auth: g.bot.token,
        payload: { enabled: true, ...payload },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ id: string }>().id;
    },
    dropRule: (id: string) => g.call('DELETE', `${rulesUrl}/${id}`, g.bot.token),
    /** The messages posted in the alerts channel. */
    alertMessages: () => server.app.storage.messages.list(alerts, { limit: 100 }),
    /** The guild's audit log entries of one action. */
    audit: (actionType: number) =>
      server.app.storage.auditLog.list(g.guildId, { actionType, limit: 100 }),
  };
}

export type AutoModGuild = Awaited<ReturnType<typeof autoModGuild>>;
